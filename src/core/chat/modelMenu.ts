import * as l10n from '@vscode/l10n';
import type { ChatEngine } from './chatEngine';
import type { ChatModelsView } from './protocol/chatRequests';

/**
 * What the panel's model menu (webview/chat/modelMenu.ts) needs of the account: the active environment,
 * its chat models and their picker. The host answers from its environments and model service.
 */
export interface ModelMenuAccount {
  activeEnvironment(): { name: string; label: string };
  /** The environment's selected chat model, which a conversation without its own uses. */
  selectedChatModel(env: string): string | undefined;
  chatModels(env: string): Promise<string[]>;
  /** Asks the user for the environment's chat model (the status bar's picker). */
  pickChatModel(env: string): Promise<unknown>;
}

/** The part of a conversation's engine the menu reads and sets. */
export type ModelMenuConversation = Pick<ChatEngine, 'conversation' | 'setModel'>;

/** What the menu lists: the environment's chat models, the conversation's own and the environment's. */
export async function conversationModels(account: ModelMenuAccount, engine: ModelMenuConversation): Promise<ChatModelsView> {
  const env = account.activeEnvironment();
  const environmentModel = account.selectedChatModel(env.name);
  const current = engine.conversation.model;
  return { environment: env.label, models: await account.chatModels(env.name), ...(current !== undefined && { current }), ...(environmentModel !== undefined && { environmentModel }) };
}

/**
 * The conversation's model from a picker (undefined: the environment's); one the environment does not
 * list is refused (the webview's menu is untrusted input). Returns whether the conversation's model
 * changed, or, going back to the environment's model, that the header must show it again.
 */
export async function setConversationModel(account: ModelMenuAccount, engine: ModelMenuConversation, next: string | undefined): Promise<boolean> {
  const env = account.activeEnvironment();
  if (next !== undefined) await assertListed(account, [next]);
  if (next === undefined && !account.selectedChatModel(env.name)) {
    // No per-conversation model and none for the environment: let the user choose the environment's.
    await account.pickChatModel(env.name);
  }
  const current = engine.conversation.model;
  if (next === current) return next === undefined;
  await engine.setModel(next);
  return true;
}

/** Refuses a model the active environment does not list: what the webview names is untrusted input (a comparison's models too). */
export async function assertListed(account: ModelMenuAccount, models: readonly string[]): Promise<void> {
  const env = account.activeEnvironment();
  const listed = await account.chatModels(env.name);
  const unknown = models.find((model) => !listed.includes(model));
  if (unknown !== undefined) throw new Error(l10n.t('{0} does not list the model "{1}".', env.label, unknown));
}
