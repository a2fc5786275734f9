import * as vscode from 'vscode';
import { waitFor } from '../../harness/wait';
import { causeKind, collect, VENDOR, type Collected } from '../languageModels/support';
import { CHAT_REPLY, type MatrixContext, type Observed, type Surface } from './surfaces';

/** Large enough only for the fault `large-stream` (about 1 MB). */
const LARGE = 500_000;

/** The model VS Code lists for the vendor with this id, once its list has it (undefined while not). */
async function listed(id: string): Promise<vscode.LanguageModelChat | undefined> {
  const [found] = await vscode.lm.selectChatModels({ vendor: VENDOR, id });
  return found;
}

/** The cell's model: VS Code's list of the active environment, as another extension gets it. */
async function selectModel(ctx: MatrixContext, timeoutMs = 5000): Promise<vscode.LanguageModelChat | undefined> {
  const id = ctx.emulator.environments.production.chatModels[0];
  try {
    return await waitFor(`VS Code to list ${id} for ${ctx.env}`, () => listed(id), { timeoutMs, intervalMs: 25 });
  } catch {
    return undefined;
  }
}

async function ask(ctx: MatrixContext, chat: vscode.LanguageModelChat): Promise<Collected> {
  ctx.emulator.scriptReply('all', { text: CHAT_REPLY, chunkChars: 40 });
  return collect(chat, [vscode.LanguageModelChatMessage.User(`Question ${ctx.label}`)]);
}

const complete = (result: Collected) => result.error === undefined && (result.text === CHAT_REPLY || result.text.length > LARGE);

/**
 * VS Code's language model API (`vscode.lm`): another extension (or VS Code's chat) selects the
 * provider's model, sends a request and reads the stream. What it sees of a failure is the error
 * sendRequest or the stream throws: a LanguageModelError whose message is the extension's own text
 * and whose cause carries the failure kind. No actions: the caller decides what to offer.
 *
 * Network faults hit the model list too (the environment cannot be reached): the cell first asks
 * for the list with none cached (it must come back empty, quietly), then works with the list a
 * previous session left in the model cache, as a user whose network broke would.
 */
export const provider: Surface = {
  name: 'vscode.lm provider',
  path: '/chat/completions',
  streams: true,
  offersActions: false,
  async run(ctx) {
    const { models } = ctx.api.services;
    const chatModels = ctx.emulator.environments.production.chatModels;
    let listFailedQuietly: boolean | undefined;
    if (ctx.env !== 'production') {
      await models.invalidate(ctx.env, 'chat');
      // VS Code re-reads the list after the environment change; whatever it asks, the answer must be empty.
      listFailedQuietly = await waitFor('an empty model list', async () => (await vscode.lm.selectChatModels({ vendor: VENDOR })).length === 0, { timeoutMs: 5000, intervalMs: 25 })
        .catch(() => false);
      await models.remember(ctx.env, 'chat', chatModels);
    }
    const chat = await selectModel(ctx);
    if (!chat) throw new Error(`VS Code lists no ${VENDOR} model for ${ctx.env}`);
    const result = await ask(ctx, chat);
    const error = result.error;
    const observed: Observed = {
      outcome: error !== undefined ? 'error' : complete(result) ? 'ok' : 'interrupted',
      actions: [],
      partialKept: result.text.length > 0 && CHAT_REPLY.startsWith(result.text),
      inputKept: 'n/a',
      async recover(after) {
        // Once the service answers again, a new list question finds the models, and the same request succeeds.
        if (after.env !== 'production') {
          await after.api.services.models.invalidate(after.env, 'chat');
          const lists = after.api.languageModels;
          if (lists) await waitFor('VS Code to ask for the list again', () => lists.settled(), { timeoutMs: 5000, intervalMs: 25 });
        }
        const again = await selectModel(after, 1500);
        return again !== undefined && complete(await ask(after, again));
      },
    };
    if (error !== undefined) {
      const kind = causeKind(error);
      Object.assign(observed, {
        // Only an Error (ideally a LanguageModelError) carries a message a caller can show.
        ...(error instanceof Error && { message: error.message }),
        ...(typeof kind === 'string' && { kind }),
      });
    }
    if (listFailedQuietly === false) Object.assign(observed, { outcome: 'interrupted', message: 'the model list of an unreachable environment was not empty' });
    return observed;
  },
};
