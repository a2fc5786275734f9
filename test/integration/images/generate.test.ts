import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { waitFor } from '../../harness/wait';
import { ChatEngine } from '../../../src/core/chat/chatEngine';
import { createConversation } from '../../../src/core/chat/conversation';
import type { ImageInputs } from '../../../src/core/images/imageJob';
import { createChatBackend } from '../../../src/host/chat/surfaces/chatBackend';
import { generateImage } from '../../../src/host/images';
import { assertEmulatorPng, assertSaved, readSidecar, setSetting, useImageFixture } from './support';

function imagePreviewTab(): vscode.Tab | undefined {
  return vscode.window.tabGroups.all.flatMap((group) => group.tabs).find((tab) => tab.input instanceof vscode.TabInputCustom);
}

describe('Generate Image: success paths (real extension host, emulator back end)', () => {
  const fixture = useImageFixture();

  for (const responseFormat of ['b64_json', 'url'] as const) {
    it(`saves the decoded ${responseFormat} image with its sidecar under images/ and opens the image preview`, async () => {
      const model = fixture().emulator.environments.production.imageModels[0];
      const inputs: ImageInputs = { prompt: 'A lighthouse at dusk', model, width: 768, height: 1024, seed: 1234, negativePrompt: 'people', responseFormat };
      const outcome = assertSaved(await generateImage(fixture.services(), inputs));

      assert.deepEqual(fixture.workspaceFiles(), ['images/a-lighthouse-at-dusk.png', 'images/a-lighthouse-at-dusk.png.json']);
      const [saved] = outcome.images;
      assert.equal(saved.image.fsPath, path.join(fixture.root(), 'images', 'a-lighthouse-at-dusk.png'));
      assertEmulatorPng(saved.image, { model, prompt: inputs.prompt, seed: 1234, width: 768, height: 1024 });

      const request = fixture.imageRequests();
      assert.equal(request.length, 1);
      const sidecar = readSidecar(saved.sidecar);
      assert.equal(sidecar.prompt, inputs.prompt);
      assert.equal(sidecar.negativePrompt, 'people');
      assert.equal(sidecar.model, model);
      assert.equal(sidecar.seed, 1234);
      assert.equal(sidecar.responseFormat, responseFormat);
      assert.equal(sidecar.requestId, request[0].id);
      assert.deepEqual([sidecar.width, sidecar.height, sidecar.imageWidth, sidecar.imageHeight], [768, 1024, 768, 1024]);

      const tab = await waitFor('an image preview tab', imagePreviewTab, { timeoutMs: 10_000, intervalMs: 20 });
      const input = tab.input as vscode.TabInputCustom;
      assert.equal(input.viewType, 'imagePreview.previewEditor');
      assert.equal(input.uri.toString(), saved.image.toString());
    });
  }

  it('resolves auto to the model the service used (x-service-model-id) and records it', async () => {
    const outcome = assertSaved(await generateImage(fixture.services(), { prompt: 'auto pick', model: 'auto', seed: 5, responseFormat: 'b64_json' }, { open: false }));
    const resolved = fixture().emulator.environments.production.imageModels[0];
    const sidecar = readSidecar(outcome.images[0].sidecar);
    assert.equal(sidecar.requestedModel, 'auto');
    assert.equal(sidecar.model, resolved);
    assert.equal(outcome.result.meta.modelId, resolved);
    // No size sent: the model's default, which the emulator makes 512x512.
    assert.deepEqual([sidecar.width, sidecar.height, sidecar.imageWidth, sidecar.imageHeight], [null, null, 512, 512]);
    assertEmulatorPng(outcome.images[0].image, { model: resolved, prompt: 'auto pick', seed: 5, width: 512, height: 512 });
  });

  it('updates balance and last request id like any call, and records the credits spent', async () => {
    const services = fixture.services();
    await services.models.list('image', 'production', { refresh: true });
    const before = services.account.get('production').balanceCredits;
    assert.equal(before, fixture().emulator.balance('production'), 'the model list reported the balance');
    const outcome = assertSaved(await generateImage(services, { prompt: 'credits', model: 'auto', seed: 1, responseFormat: 'b64_json' }, { open: false }));
    const request = fixture.imageRequests()[0];
    const account = services.account.get('production');
    assert.equal(account.balanceCredits, fixture().emulator.balance('production'));
    assert.equal(account.lastRequestId, request.id);
    assert.equal(outcome.creditsSpent, request.creditsCharged);
    assert.ok(request.creditsCharged > 0);
    assert.equal(readSidecar(outcome.images[0].sidecar).creditsSpent, request.creditsCharged);
  });

  it('writes into the configured folder, creating nested folders', async () => {
    await setSetting('inference.images.folder', 'assets\\generated/./renders');
    const outcome = assertSaved(await generateImage(fixture.services(), { prompt: 'nested', model: 'auto', seed: 2, responseFormat: 'b64_json' }, { open: false }));
    assert.deepEqual(fixture.workspaceFiles(), ['assets/generated/renders/nested.png', 'assets/generated/renders/nested.png.json']);
    assert.equal(outcome.images[0].mimeType, 'image/png');
  });

  it('keeps every API key out of the files it writes and out of the log lines it returns', async () => {
    const outcome = assertSaved(await generateImage(fixture.services(), { prompt: 'secret check', model: 'auto', seed: 3, responseFormat: 'url' }, { open: false }));
    const written = fs.readFileSync(outcome.images[0].sidecar.fsPath, 'utf8');
    for (const key of Object.values(fixture().emulator.keys.production)) assert.ok(!written.includes(key));
    assert.ok(!JSON.stringify(outcome.result.meta).includes(fixture().emulator.keys.production.full));
  });
});

describe('Generate Image: the spend beside a chat answer of the same wallet (real extension host, emulator back end)', () => {
  // Answers at 20 tokens/s, so that one still streams while an image is generated.
  const fixture = useImageFixture({ tokensPerSecond: 20 });

  it('records no spend for an image generated while a chat answer streams (one balance difference would hold both), and records it again for one alone', async () => {
    const services = fixture.services();
    const { emulator } = fixture();
    await services.models.list('chat', 'production', { refresh: true });
    await services.models.select('chat', emulator.environments.production.chatModels[0], 'production');
    // A chat panel's engine on the real backend (its view and disk do not matter here): ~3 s of answer at the emulator's pace.
    const engine = new ChatEngine(createConversation(Date.now()), { ready: true, post: () => {}, showTitle: () => {} }, { save: async () => {}, saveSoon: () => {}, writeImages: async () => {}, readImage: async () => new Uint8Array(), changedElsewhere: async () => undefined, forgetImages: async () => {} }, createChatBackend(services));
    emulator.scriptReply('production', { text: 'A slow answer, word by word. '.repeat(12) });
    await engine.send('Tell me something slowly');
    const chatRequest = () => emulator.requests.find((r) => r.path.endsWith('/chat/completions'));
    await waitFor('the answer to stream', () => chatRequest()?.finishedAt === undefined && chatRequest() !== undefined, { timeoutMs: 10_000, intervalMs: 20 });
    const during = assertSaved(await generateImage(services, { prompt: 'while chatting', model: 'auto', seed: 3, responseFormat: 'b64_json' }, { open: false }));
    assert.equal(chatRequest()?.finishedAt, undefined, 'the image came back while the answer still streamed');
    await engine.whenIdle();
    const answer = engine.conversation.messages.at(-1);
    assert.equal(answer?.status, 'done');
    assert.equal(during.creditsSpent, undefined, 'the image\'s balance difference may hold the answer\'s charge');
    assert.equal(readSidecar(during.images[0].sidecar).creditsSpent, null);
    assert.equal(answer?.meta?.creditsSpent, undefined, 'and the answer\'s the image\'s');
    const ids = [chatRequest()?.id, fixture.imageRequests()[0].id];
    assert.deepEqual(services.usage.entries().filter((e) => ids.includes(e.requestId)).map((e) => [e.kind, e.credits]).sort(), [['chat', null], ['image', null]], 'both are in the usage ledger without a cost');
    await services.models.select('chat', undefined, 'production');
    assert.equal(services.account.get('production').balanceCredits, emulator.balance('production'), 'the balance itself is settled');
    await waitFor('the status bar to count them', () => /credits, and \d+ requests not measured/.test(fixture().api.statusBar.snapshot().tooltip) || undefined, { timeoutMs: 5000, intervalMs: 20 });

    const alone = assertSaved(await generateImage(services, { prompt: 'alone', model: 'auto', seed: 4, responseFormat: 'b64_json' }, { open: false }));
    const request = fixture.imageRequests()[1];
    assert.equal(alone.creditsSpent, request.creditsCharged);
    assert.equal(services.usage.entries().find((e) => e.requestId === request.id)?.credits, request.creditsCharged);
  });
});
