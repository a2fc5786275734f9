import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ConversationMessage } from '../../../src/core/chat/conversation';
import { messageView } from '../../../src/core/chat/conversationView';
import type { TestApi } from '../../../src/extension';
import type { PresentedError } from '../../../src/host/shared/errorPresenter';
import type { GenerationOutcome } from '../../../src/host/images';
import type { Emulator } from '../../emulator';
import { waitFor } from '../../harness/wait';
import { openNewChatPanel } from '../support/chatPanels';

/**
 * The surfaces of the fault matrix: each one is a thing a user does (through the extension's own
 * commands, or a chat panel's requests through the panel's handler), observed as the user would see
 * it. A new surface is one more entry in SURFACES (or, for another window, in matrix.test.ts).
 */
export interface MatrixContext {
  api: TestApi;
  emulator: Emulator;
  /** The environment the cell runs against (a broken one for network faults). */
  env: string;
  /** Every error notification shown since the cell began. */
  presented: PresentedError[];
  /** A label unique to the cell, used in the user's input so it can be recognised later. */
  label: string;
}

/** What the user saw. */
export interface Observed {
  outcome: 'ok' | 'error' | 'interrupted';
  kind?: string;
  message?: string;
  actions: string[];
  /** Text received before a mid-stream failure is still shown ('n/a' where nothing streams). */
  partialKept: boolean | 'n/a';
  /** What the user typed is still there (the question in the conversation, the image prompt). */
  inputKept: boolean | 'n/a';
  /** Runs the recovery a user would (Retry when offered, else the same action again); true when it succeeded. */
  recover(ctx: MatrixContext): Promise<boolean>;
}

export interface Surface {
  name: string;
  /** Faults for this surface are queued for requests whose path ends so. */
  path: string;
  /** Whether its requests stream (stream faults apply only to those). */
  streams: boolean;
  /** False where failures carry no actions (an API's caller decides what to offer): the action checks do not apply. */
  offersActions?: boolean;
  run(ctx: MatrixContext): Promise<Observed>;
}

/** A chat answer the emulator streams in 40-character pieces: 3 pieces (120 characters) precede any mid-stream fault. */
export const CHAT_REPLY = Array.from({ length: 12 }, (_, i) => `Line ${i + 1} of the scripted answer, with é, 漢字 and 🙂.`).join('\n');

const finished = (message: ConversationMessage | undefined) => message?.role === 'assistant' && message.status !== 'streaming';

/** A chat surface (an editor panel, the side-bar view): `start` gives it a new conversation and returns its id. */
function chatSurface(name: string, start: (api: TestApi['chat']) => Promise<string>): Surface {
  return {
    name,
    path: '/chat/completions',
    streams: true,
    async run(ctx) {
      const { chat: api } = ctx.api;
      // A user who chats has a model selected (a 404 in another cell may have forgotten it).
      await ctx.api.services.models.select('chat', ctx.emulator.environments.production.chatModels[0], ctx.env);
      const id = await start(api);
      const question = `Question ${ctx.label}`;
      ctx.emulator.scriptReply('all', { text: CHAT_REPLY, chunkChars: 40 });
      await api.request(id, 'send', { text: question });
      const answerOf = async () => (await api.conversation(id))?.messages.at(-1);
      const answer = await waitFor('the answer to end', async () => ((m) => (finished(m) ? m : undefined))(await answerOf()), { timeoutMs: 30_000, intervalMs: 20 });
      const conversation = await api.conversation(id);
      const status = answer.status;
      // The card as the panel shows it: the stored facts and the actions derived from them.
      const card = messageView(answer).error;
      const observed: Observed = {
        outcome: status === 'done' ? (answer.text === CHAT_REPLY || answer.text.length > 500_000 ? 'ok' : 'interrupted') : status === 'error' ? 'error' : 'interrupted',
        actions: card?.actions.map((a) => a.label) ?? [],
        partialKept: answer.text.length > 0 && (CHAT_REPLY.startsWith(answer.text) || answer.text.length > 500_000),
        inputKept: conversation?.messages.at(-2)?.text === question,
        async recover(after) {
          after.emulator.scriptReply('all', { text: CHAT_REPLY, chunkChars: 40 });
          const retry = card?.actions.some((a) => a.id === 'retry');
          if (card?.actions.some((a) => a.id === 'pickModel')) {
            // What Pick Model leads to: a model is chosen, then the question is answered again.
            await after.api.services.models.select('chat', after.emulator.environments.production.chatModels[0], after.env);
          }
          await api.request(id, retry ? 'errorAction' : 'regenerate', retry ? { messageId: answer.id, action: 'retry' } : ({} as Record<string, never>));
          const again = await waitFor('the retried answer to end', async () => ((m) => (finished(m) && m?.id !== answer.id ? m : undefined))(await answerOf()), { timeoutMs: 30_000, intervalMs: 20 });
          return again.status === 'done' && again.text === CHAT_REPLY;
        },
      };
      if (card) Object.assign(observed, { kind: card.kind, message: card.message });
      return observed;
    },
  };
}

const chat = chatSurface('chat panel', openNewChatPanel);

/** The side-bar view: shown (VS Code creates it on first show), then a new conversation in it, as its New button does. */
const sideView = chatSurface('side-bar view', async (api) => {
  await vscode.commands.executeCommand('inference.chatView.focus');
  const shown = await waitFor('the side-bar chat view', () => api.sideViewConversation(), { timeoutMs: 10_000, intervalMs: 20 });
  await api.request(shown, 'newConversation', {});
  const id = api.sideViewConversation() ?? shown;
  // The view takes the focus when its webview has loaded: a cell after this one (a quick pick, which
  // closes when it loses the focus) must not see that happen under it on a busy machine.
  await waitFor('the side-bar chat view to load', () => api.ready(id), { timeoutMs: 30_000, intervalMs: 20 });
  return id;
});

/** Runs a command that may show quick inputs, accepting what each proposes, until it returns. */
export async function runAccepting<T>(command: string | (() => Thenable<T>), timeoutMs = 30_000): Promise<T> {
  let settled = false;
  const running = Promise.resolve(typeof command === 'string' ? vscode.commands.executeCommand<T>(command) : command()).finally(() => (settled = true));
  const deadline = Date.now() + timeoutMs;
  while (!settled) {
    if (Date.now() > deadline) throw new Error(`${String(command)} still waiting after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    if (!settled) await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
  }
  return running;
}

/** A command that reports failures as notifications: ok when none appeared, else what it showed. */
function notifyingSurface(name: string, path: string, command: string, succeeded: (ctx: MatrixContext) => boolean): Surface {
  return {
    name,
    path,
    streams: false,
    async run(ctx) {
      await ctx.api.services.models.invalidate(ctx.env);
      // Success must be this command's doing, not an earlier cell's.
      await ctx.api.services.models.select('chat', undefined, ctx.env);
      const before = ctx.presented.length;
      await runAccepting(command);
      const error = ctx.presented[before];
      return {
        outcome: error ? 'error' : succeeded(ctx) ? 'ok' : 'interrupted',
        ...(error && { kind: error.kind, message: error.text }),
        actions: error?.actions.map((a) => a.label) ?? [],
        partialKept: 'n/a',
        inputKept: 'n/a',
        async recover(after) {
          await after.api.services.models.invalidate(after.env);
          const count = after.presented.length;
          if (error?.actions.some((a) => a.id === 'retry')) await runAccepting(() => error.choose('retry'));
          else await runAccepting(command);
          return after.presented.length === count && succeeded(after);
        },
      };
    },
  };
}

const picker = notifyingSurface('model picker', '/models', 'inference.pickModel', (ctx) => {
  const selected = ctx.api.services.models.selectedChatModel(ctx.env);
  return selected !== undefined && ctx.emulator.environments.production.chatModels.includes(selected);
});

const balance = notifyingSurface('balance refresh', '/models', 'inference.refreshAccount', (ctx) => {
  const last = ctx.emulator.requests.at(-1);
  return last?.status === 200 && ctx.api.services.account.get(ctx.env).lastRequestId === last.id;
});

/** The last settings an image was made with, so the command asks only for the prompt. */
const LAST_IMAGE_KEY = (env: string) => `inference.images.last.${env}`;

function workspaceRoot(): string {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error('the image surface needs the window with a workspace folder');
  return folder.uri.fsPath;
}

/** The prompt recorded beside the newest image in the workspace (each cell starts from an empty one). */
function newestSavedPrompt(): string | undefined {
  const dir = path.join(workspaceRoot(), 'images');
  if (!fs.existsSync(dir)) return undefined;
  const newest = fs.readdirSync(dir).filter((f) => f.endsWith('.json')).map((f) => path.join(dir, f))
    .sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs)[0];
  return newest ? (JSON.parse(fs.readFileSync(newest, 'utf8')) as { prompt?: string }).prompt : undefined;
}

const images: Surface = {
  name: 'image generation',
  path: '/images/generations',
  streams: false,
  async run(ctx) {
    cleanWorkspace();
    const prompt = `A lighthouse for ${ctx.label}`;
    await ctx.api.services.context.globalState.update(LAST_IMAGE_KEY(ctx.env), { prompt: 'an older prompt', model: 'auto', width: 256, height: 256 });
    // The user's prompt comes from the editor selection (the prompt box is prefilled with it).
    const file = path.join(workspaceRoot(), `prompt-${ctx.label.replace(/\W+/g, '-')}.txt`);
    fs.writeFileSync(file, prompt);
    const document = await vscode.workspace.openTextDocument(file);
    await vscode.window.showTextDocument(document, { selection: new vscode.Range(0, 0, 0, prompt.length) });
    const before = ctx.presented.length;
    const outcome = await runAccepting<GenerationOutcome | undefined>('inference.generateImageWithLastSettings');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const error = ctx.presented[before];
    const observed: Observed = {
      outcome: outcome?.status === 'saved' ? 'ok' : error ? 'error' : 'interrupted',
      ...(error && { kind: error.kind, message: error.text }),
      actions: error?.actions.map((a) => a.label) ?? [],
      partialKept: 'n/a',
      inputKept: outcome?.status === 'saved' ? newestSavedPrompt() === prompt : false,
      async recover(after) {
        const count = after.presented.length;
        if (error?.actions.some((a) => a.id === 'retry')) {
          await runAccepting(() => error.choose('retry'));
        } else {
          // No selection now: the prompt box is prefilled with the prompt that failed, if it was kept.
          await runAccepting('inference.generateImageWithLastSettings');
        }
        await vscode.commands.executeCommand('workbench.action.closeAllEditors');
        // The prompt the user gave came back without being typed again (known only once an image is saved).
        const saved = newestSavedPrompt();
        observed.inputKept = saved === undefined ? 'n/a' : saved === prompt;
        return after.presented.length === count && saved === prompt;
      },
    };
    return observed;
  },
};

/** The columns of the matrix in the window with a workspace folder (the provider's is in providerSurface.ts). */
export const SURFACES: readonly Surface[] = [chat, sideView, picker, balance, images];

/** Removes what image cells wrote. */
export function cleanWorkspace(): void {
  const root = workspaceRoot();
  for (const entry of fs.readdirSync(root)) if (entry !== 'README.md') fs.rmSync(path.join(root, entry), { recursive: true, force: true });
}
