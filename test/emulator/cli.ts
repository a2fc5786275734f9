/**
 * `npm run service`: starts the emulator on loopback and prints base URLs and demo keys (random per
 * start, fake, safe to print). Stays up until Ctrl+C / SIGTERM.
 *
 *   --production-port N  --preview-port N  --host H  --tokens-per-second N  --first-token-delay-ms N
 *   --suggestion-style plain|fenced|prose  --json
 */
import { startEmulator } from './index';
import { validateSuggestionStyle } from './envSettings';
import type { EmulatorOptions } from './types';

interface CliArgs { options: EmulatorOptions; json: boolean }

function parseArgs(argv: readonly string[]): CliArgs {
  const options: EmulatorOptions = { tokensPerSecond: 30, ports: {} };
  let json = false;
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = (): string => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${flag} needs a value`);
      return v;
    };
    const number = (): number => {
      const n = Number(value());
      if (!Number.isFinite(n) || n < 0) throw new Error(`${flag} needs a non-negative number`);
      return n;
    };
    switch (flag) {
      case '--production-port': options.ports = { ...options.ports, production: number() }; break;
      case '--preview-port': options.ports = { ...options.ports, preview: number() }; break;
      case '--tokens-per-second': options.tokensPerSecond = number(); break;
      case '--first-token-delay-ms': options.firstTokenDelayMs = number(); break;
      case '--suggestion-style': options.suggestionStyle = validateSuggestionStyle(value()); break;
      case '--host': options.host = value(); break;
      case '--json': json = true; break;
      case '--help':
        console.log('Usage: npm run service -- [--production-port N] [--preview-port N] [--host H] [--tokens-per-second N] [--first-token-delay-ms N] [--suggestion-style plain|fenced|prose] [--json]');
        process.exit(0);
        break;
      default: throw new Error(`Unknown flag ${flag}`);
    }
  }
  return { options, json };
}

async function main(): Promise<void> {
  const { options, json } = parseArgs(process.argv.slice(2));
  const emulator = await startEmulator(options);
  if (json) {
    console.log(JSON.stringify({ environments: emulator.environments, keys: emulator.keys, keyPrefix: emulator.keyPrefix }));
  } else {
    for (const [name, env] of Object.entries(emulator.environments)) {
      console.log(`${name}: ${env.baseUrl}  (chat: ${env.chatModels.join(', ')}; image: ${env.imageModels.join(', ')})`);
      const keys = emulator.keys[name as keyof typeof emulator.keys];
      for (const [label, key] of Object.entries(keys)) console.log(`  ${label.padEnd(9)} ${key}`);
    }
    console.log('Control: POST|DELETE /__emulator/faults, GET /__emulator/state, POST /__emulator/wallet, POST /__emulator/pacing, POST /__emulator/suggestions, POST /__emulator/reset. Ctrl+C to stop.');
  }
  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    void emulator.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((err: unknown) => {
  console.error(`emulator: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
