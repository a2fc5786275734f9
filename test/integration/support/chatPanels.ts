import * as vscode from 'vscode';
import type { ChatTestApi } from '../../../src/host/chat';
import { waitFor } from '../../harness/wait';

/** Runs *Inference: New Chat* and resolves to the conversation of the newest editor panel. */
export async function openNewChatPanel(chat: ChatTestApi): Promise<string> {
  await vscode.commands.executeCommand('inference.newChat');
  return waitFor('a new chat panel', () => chat.openConversations().at(-1), { timeoutMs: 5000, intervalMs: 20 });
}
