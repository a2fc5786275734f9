import assert from 'node:assert/strict';
import { conversationModels, setConversationModel, type ModelMenuAccount, type ModelMenuConversation } from '../../../src/core/chat/modelMenu';

/** An account of one environment, "prod", listing two chat models; the picker's answers are recorded. */
function fakeAccount(selected: string | undefined): ModelMenuAccount & { picked: string[]; listed: number } {
  const account = {
    picked: [] as string[],
    listed: 0,
    activeEnvironment: () => ({ name: 'prod', label: 'Production' }),
    selectedChatModel: (env: string) => (env === 'prod' ? selected : undefined),
    chatModels: async (env: string) => {
      account.listed++;
      return env === 'prod' ? ['small', 'large'] : [];
    },
    pickChatModel: async (env: string) => {
      account.picked.push(env);
      return undefined;
    },
  };
  return account;
}

function fakeConversation(model?: string): ModelMenuConversation & { sets: (string | undefined)[] } {
  const conversation = { model } as { model?: string };
  return {
    sets: [],
    get conversation() {
      return conversation as ModelMenuConversation['conversation'];
    },
    async setModel(next: string | undefined) {
      this.sets.push(next);
      conversation.model = next;
    },
  };
}

describe('chat model menu: what it lists and which pick it takes (core/chat/modelMenu)', () => {
  it('lists the active environment\'s chat models with its model, and the conversation\'s own once it has one', async () => {
    assert.deepEqual(await conversationModels(fakeAccount('small'), fakeConversation()), { environment: 'Production', models: ['small', 'large'], environmentModel: 'small' });
    assert.deepEqual(await conversationModels(fakeAccount(undefined), fakeConversation('large')), { environment: 'Production', models: ['small', 'large'], current: 'large' });
  });

  it('sets a listed model for the conversation only, and says so', async () => {
    const account = fakeAccount('small');
    const engine = fakeConversation();
    assert.equal(await setConversationModel(account, engine, 'large'), true);
    assert.deepEqual(engine.sets, ['large']);
    assert.deepEqual(account.picked, [], 'the environment\'s model is not asked for');
  });

  it('refuses a model the environment does not list (the webview is untrusted), keeping the conversation\'s', async () => {
    const engine = fakeConversation('large');
    await assert.rejects(setConversationModel(fakeAccount('small'), engine, 'not-offered'), /^Error: Production does not list the model "not-offered"\.$/);
    assert.deepEqual(engine.sets, []);
    assert.equal(engine.conversation.model, 'large');
  });

  it('goes back to the environment\'s model; with none chosen yet, asks the user for one first', async () => {
    const withModel = fakeAccount('small');
    const own = fakeConversation('large');
    assert.equal(await setConversationModel(withModel, own, undefined), true);
    assert.deepEqual(own.sets, [undefined]);
    assert.deepEqual(withModel.picked, []);
    assert.equal(withModel.listed, 0, 'nothing to check against the list');

    const without = fakeAccount(undefined);
    assert.equal(await setConversationModel(without, fakeConversation(), undefined), true, 'the header shows the environment\'s pick');
    assert.deepEqual(without.picked, ['prod']);
  });

  it('changes nothing for the model the conversation already has', async () => {
    const engine = fakeConversation('large');
    assert.equal(await setConversationModel(fakeAccount('small'), engine, 'large'), false);
    assert.deepEqual(engine.sets, []);
  });
});
