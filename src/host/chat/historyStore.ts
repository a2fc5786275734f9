import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { summary, type Conversation, type ConversationSummary } from '../../core/chat/conversation';
import { parseConversation, serializeConversation } from '../../core/chat/serialization';

/** While an answer streams, saves are coalesced to one per this interval: a crash loses at most this much. */
export const STREAMING_SAVE_INTERVAL_MS = 300;

/**
 * Conversations as one JSON file each under the extension's global storage. Writes go to a temporary
 * file renamed over the old one, so a crash mid-write leaves the previous version, never half a file.
 */
export class ChatHistoryStore implements vscode.Disposable {
  private readonly dir: string;
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly latest = new Map<string, Conversation>();
  private writing: Promise<void> = Promise.resolve();
  private readonly onDidChangeEmitter = new vscode.EventEmitter<void>();
  readonly onDidChange = this.onDidChangeEmitter.event;

  constructor(storageUri: vscode.Uri, private readonly log: vscode.LogOutputChannel) {
    this.dir = path.join(storageUri.fsPath, 'chat-history');
  }

  private file(id: string): string {
    if (!/^[\w-]+$/.test(id)) throw new Error(`Invalid conversation id "${id}"`);
    return path.join(this.dir, `${id}.json`);
  }

  /** Saves now (a finished turn, a rename). */
  async save(conversation: Conversation): Promise<void> {
    this.cancelTimer(conversation.id);
    this.latest.delete(conversation.id);
    await this.write(conversation);
  }

  /** Saves soon: called on every streamed delta, writes at most once per interval. */
  saveSoon(conversation: Conversation): void {
    this.latest.set(conversation.id, conversation);
    if (this.timers.has(conversation.id)) return;
    this.timers.set(conversation.id, setTimeout(() => {
      this.timers.delete(conversation.id);
      const pending = this.latest.get(conversation.id);
      this.latest.delete(conversation.id);
      if (pending) void this.write(pending);
    }, STREAMING_SAVE_INTERVAL_MS));
  }

  async load(id: string): Promise<Conversation | undefined> {
    await this.writing;
    try {
      return parseConversation(await fs.readFile(this.file(id), 'utf8'));
    } catch {
      return undefined;
    }
  }

  async list(): Promise<ConversationSummary[]> {
    await this.writing;
    let names: string[];
    try {
      names = await fs.readdir(this.dir);
    } catch {
      return [];
    }
    const loaded = await Promise.all(names.filter((n) => n.endsWith('.json')).map((n) => this.load(n.slice(0, -5))));
    return loaded.filter((c): c is Conversation => c !== undefined).map(summary).sort((a, b) => b.updatedAt - a.updatedAt);
  }

  async delete(id: string): Promise<void> {
    this.cancelTimer(id);
    this.latest.delete(id);
    await this.writing;
    await fs.rm(this.file(id), { force: true });
    this.onDidChangeEmitter.fire();
  }

  private write(conversation: Conversation): Promise<void> {
    const text = serializeConversation(conversation);
    const target = this.file(conversation.id);
    // Serialise writes so an older snapshot can never land after a newer one.
    this.writing = this.writing.then(async () => {
      try {
        await fs.mkdir(this.dir, { recursive: true });
        const temp = `${target}.${process.pid}.tmp`;
        await fs.writeFile(temp, text, 'utf8');
        await fs.rename(temp, target);
        this.onDidChangeEmitter.fire();
      } catch (error) {
        this.log.error(`Could not save chat ${conversation.id}: ${error instanceof Error ? error.message : String(error)}`);
      }
    });
    return this.writing;
  }

  private cancelTimer(id: string): void {
    const timer = this.timers.get(id);
    if (timer) clearTimeout(timer);
    this.timers.delete(id);
  }

  /** Writes whatever is still pending (window closing). */
  async flush(): Promise<void> {
    for (const id of [...this.timers.keys()]) this.cancelTimer(id);
    const pending = [...this.latest.values()];
    this.latest.clear();
    await Promise.all(pending.map((c) => this.write(c)));
  }

  dispose(): void {
    void this.flush();
    this.onDidChangeEmitter.dispose();
  }
}
