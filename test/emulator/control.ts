/**
 * Control endpoints under /__emulator/ (outside the API prefix) so tests that drive the extension
 * from outside the process can inject faults, read state and refill wallets. Never returns keys.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { validateFaultSpec } from './faults';
import { validatePacing, validateSuggestionStyle } from './envSettings';
import type { EnvRuntime } from './runtime';
import { validateScriptedReply } from './scripted';

export const CONTROL_PREFIX = '/__emulator/';

export interface ControlHooks { resetAll(): void }

function reply(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(text)) });
  res.end(text);
}

function readJson(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      try {
        resolve(text.trim() === '' ? {} : (JSON.parse(text) as unknown));
      } catch {
        reject(new Error('The body is not valid JSON.'));
      }
    });
    req.on('error', reject);
  });
}

export function emulatorState(env: EnvRuntime): unknown {
  return {
    environment: env.name,
    keyPrefix: env.options.keyPrefix,
    balances: { main: env.wallets.main.balance, broke: env.wallets.broke.balance },
    keys: env.keys.records().map((k) => ({ label: k.label, scopes: [...k.scopes], rpm: k.rpm, status: k.status, wallet: k.wallet })),
    models: { chat: env.catalog.chat.map((m) => m.id), image: env.catalog.image.map((m) => m.id) },
    faults: env.faults.pending(),
    scriptedReplies: env.scripted.pending(),
    pacing: env.pacing,
    suggestionStyle: env.suggestionStyle,
    requests: env.log.filter((r) => r.env === env.name),
  };
}

export async function handleControl(req: IncomingMessage, res: ServerResponse, url: URL, env: EnvRuntime, hooks: ControlHooks): Promise<void> {
  const route = `${req.method ?? 'GET'} ${url.pathname.slice(CONTROL_PREFIX.length)}`;
  try {
    switch (route) {
      case 'GET state':
        return reply(res, 200, emulatorState(env));
      case 'POST faults': {
        const spec = validateFaultSpec(await readJson(req));
        env.faults.push(spec);
        return reply(res, 201, { faults: env.faults.pending() });
      }
      case 'DELETE faults':
        env.faults.clear();
        return reply(res, 200, { faults: [] });
      case 'POST reply': {
        // A test control, not service behaviour: the next chat answer(s) carry exactly this text.
        env.scripted.push(validateScriptedReply(await readJson(req)));
        return reply(res, 201, { scriptedReplies: env.scripted.pending() });
      }
      case 'DELETE reply':
        env.scripted.clear();
        return reply(res, 200, { scriptedReplies: 0 });
      case 'POST wallet': {
        const body = (await readJson(req)) as { credits?: unknown; wallet?: unknown };
        if (typeof body.credits !== 'number' || !Number.isFinite(body.credits)) throw new Error('"credits" must be a number.');
        const wallet = body.wallet === 'broke' ? env.wallets.broke : env.wallets.main;
        wallet.set(body.credits);
        return reply(res, 200, { balances: { main: env.wallets.main.balance, broke: env.wallets.broke.balance } });
      }
      case 'POST models': {
        // A test control: the environment's catalog plus this many more chat models (0: the catalog alone).
        const body = (await readJson(req)) as { extraChat?: unknown };
        if (typeof body.extraChat !== 'number' || !Number.isInteger(body.extraChat) || body.extraChat < 0 || body.extraChat > 100_000) throw new Error('"extraChat" must be a whole number from 0 to 100000.');
        env.setExtraChatModels(body.extraChat);
        return reply(res, 200, { models: { chat: env.catalog.chat.length, image: env.catalog.image.length } });
      }
      case 'POST pacing': {
        // A test control: the time to first token and the token rate of this environment's next answers.
        env.pacing = { ...env.pacing, ...validatePacing(await readJson(req)) };
        return reply(res, 200, { pacing: env.pacing });
      }
      case 'POST suggestions': {
        const body = (await readJson(req)) as { style?: unknown };
        env.suggestionStyle = validateSuggestionStyle(body.style);
        return reply(res, 200, { suggestionStyle: env.suggestionStyle });
      }
      case 'POST reset':
        if (url.searchParams.get('all') === '1') hooks.resetAll();
        else env.reset();
        return reply(res, 200, { reset: url.searchParams.get('all') === '1' ? 'all' : env.name });
      default:
        return reply(res, 404, { error: { message: `No control endpoint ${route}.`, type: 'not_found_error', code: 'unknown_control_endpoint' } });
    }
  } catch (err) {
    reply(res, 400, { error: { message: err instanceof Error ? err.message : String(err), type: 'invalid_request_error', code: 'invalid_control_request' } });
  }
}
