import assert from 'node:assert/strict';
import { inspect } from 'node:util';
import { ApiError } from '../../../src/core/api/errors';
import { drain, HELLO, useEmulator } from './support';

describe('the API key never leaks from the core', () => {
  const { emulator, client } = useEmulator();

  it('appears in no error message, enumerable field, JSON or inspection, nor in the client object', async () => {
    const keys = [emulator().keys.production.full, emulator().keys.production.expired, emulator().keys.production.broke];
    const errors: unknown[] = [];
    const captured: string[] = [];
    const originalWrite = process.stdout.write.bind(process.stdout);
    const originalError = process.stderr.write.bind(process.stderr);
    const capture = (chunk: unknown) => {
      captured.push(String(chunk));
      return true;
    };
    process.stdout.write = capture as typeof process.stdout.write;
    process.stderr.write = capture as typeof process.stderr.write;
    try {
      const model = emulator().environments.production.chatModels[0];
      for (const apiKey of keys) {
        const c = client('production', { apiKey });
        await c.chat({ model, messages: HELLO }).catch((e: unknown) => errors.push(e));
        await c.generateImage({ model: 'nope', prompt: 'x' }).catch((e: unknown) => errors.push(e));
        emulator().injectFault('production', { fault: 'reset-mid-stream' });
        const outcome = await drain(c.streamChat({ model, messages: HELLO }));
        errors.push(outcome.error);
        captured.push(inspect(c, { showHidden: true, depth: 10 }), JSON.stringify(c));
      }
      await client('production', { apiKey: `${keys[0]} trailing space` }).listModels().catch((e: unknown) => errors.push(e));
    } finally {
      process.stdout.write = originalWrite;
      process.stderr.write = originalError;
    }
    assert.ok(errors.filter((e) => e instanceof ApiError).length >= 6);
    for (const error of errors) {
      captured.push(String(error), inspect(error, { showHidden: true, depth: 10 }), JSON.stringify(error));
      if (error instanceof Error) captured.push(error.message, error.stack ?? '');
    }
    const everything = captured.join('\n');
    for (const key of keys) {
      assert.equal(everything.includes(key), false, 'key found in output');
      assert.equal(everything.includes(key.slice(4, 20)), false, 'part of a key found in output');
    }
  });
});
