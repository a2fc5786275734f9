import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { waitFor } from '../../harness/wait';
import type { ApiError } from '../../../src/core/api/errors';
import type { ImageInputs } from '../../../src/core/images/imageJob';
import { generateImage, type GenerationOutcome } from '../../../src/host/images';
import { useImageFixture } from './support';

const INPUTS: ImageInputs = { prompt: 'a failing fox', model: 'auto', seed: 9, responseFormat: 'b64_json' };

function failure(outcome: GenerationOutcome): ApiError {
  assert.equal(outcome.status, 'failed', `expected a failure, got ${outcome.status}`);
  return (outcome as Extract<GenerationOutcome, { status: 'failed' }>).error;
}

describe('Generate Image: failures write nothing (real extension host, emulator back end)', () => {
  const fixture = useImageFixture();

  it('cancels: the request is aborted, nothing is written or opened', async () => {
    fixture().emulator.injectFault('production', { fault: 'hang', path: '/images/generations' });
    const cancel = new vscode.CancellationTokenSource();
    const running = generateImage(fixture.services(), INPUTS, { token: cancel.token });
    await waitFor('the request to reach the emulator', () => fixture.imageRequests()[0], { timeoutMs: 10_000, intervalMs: 20 });
    cancel.cancel();
    const outcome = await running;
    assert.equal(outcome.status, 'cancelled');
    await waitFor('the connection to be closed by the client', () => fixture.imageRequests()[0]?.clientClosedAt, { timeoutMs: 5000, intervalMs: 20 });
    assert.deepEqual(fixture.workspaceFiles(), []);
    assert.equal(vscode.window.tabGroups.all.flatMap((group) => group.tabs).length, 0);
    cancel.dispose();
  });

  it('a key without the images scope: missingScope, a message naming the scope, and Set API Key offered', async () => {
    await fixture.services().keys.set('production', fixture().emulator.keys.production.chatOnly);
    const error = failure(await generateImage(fixture.services(), INPUTS));
    assert.equal(error.kind, 'missingScope');
    assert.match(error.message, /The service said: .*"images" scope.* Likely cause: the key lacks the "images" scope/);
    const labels = fixture.services().errors.actionsFor(error, true).map((action) => action.label);
    assert.equal(labels[0], 'Set API Key');
    assert.ok(!labels.includes('Retry'), 'retrying with the same key cannot help');
    assert.deepEqual(fixture.workspaceFiles(), []);
  });

  it('402: insufficient credits, the balance is updated, no Retry, nothing written', async () => {
    await fixture.services().keys.set('production', fixture().emulator.keys.production.broke);
    const error = failure(await generateImage(fixture.services(), INPUTS));
    assert.equal(error.kind, 'insufficientCredits');
    assert.equal(error.status, 402);
    assert.equal(fixture.services().account.get('production').balanceCredits, 0, 'the 402 reported the (empty) balance');
    assert.equal(fixture.services().account.get('production').lastRequestId, fixture.imageRequests()[0].id);
    assert.ok(!fixture.services().errors.actionsFor(error, true).some((action) => action.label === 'Retry'));
    assert.deepEqual(fixture.workspaceFiles(), []);
  });

  it('400 for a size the model does not support: the service says which sizes it supports', async () => {
    const error = failure(await generateImage(fixture.services(), { ...INPUTS, width: 640, height: 480 }));
    assert.equal(error.kind, 'badRequest');
    assert.match(error.message, /640x480 is not supported/);
    assert.equal(fixture.imageRequests()[0].errorCode, 'unsupported_image_size');
    assert.deepEqual(fixture.workspaceFiles(), []);
  });

  it('a server error is offered Retry, and nothing is written', async () => {
    fixture().emulator.injectFault('production', { fault: 'http-500', path: '/images/generations' });
    const error = failure(await generateImage(fixture.services(), INPUTS));
    assert.equal(error.kind, 'server');
    assert.ok(fixture.services().errors.actionsFor(error, true).some((action) => action.label === 'Retry'));
    assert.deepEqual(fixture.workspaceFiles(), []);
  });
});
