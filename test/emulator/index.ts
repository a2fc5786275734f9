/**
 * Local emulator of the inference service (docs: ./README.md). Two environments, each its own
 * loopback listener, keys, wallet and model ids; faults injectable in-process or over HTTP.
 */
import type http from 'node:http';
import { listen, originOf, startExtraListener } from './listeners';
import { catalogFor } from './models';
import { validatePacing, validateSuggestionStyle } from './envSettings';
import { EnvRuntime } from './runtime';
import { API_PREFIX, createListener } from './server';
import {
  ENVIRONMENT_NAMES, resolveOptions,
  type DemoKeys, type Emulator, type EmulatorOptions, type EnvironmentInfo, type EnvironmentName, type FaultSpec, type Pacing, type RequestRecord, type ScriptedReply,
  type SuggestionStyle,
} from './types';

export type {
  ChatRequestLog, DemoKeys, Emulator, EmulatorOptions, EnvironmentInfo, EnvironmentName, ExtraListener, FaultName, FaultSpec, KeyLabel, ListenerMode, Pacing, RequestRecord, ScriptedReply,
  ScriptedToolCall, SuggestionStyle, ToolCallLog,
} from './types';
export { DEFAULT_IMAGE_SIZES } from './types';
export { FAULT_NAMES } from './faults';
export { API_PREFIX, FAULT_HEADER } from './server';

export async function startEmulator(options?: EmulatorOptions): Promise<Emulator> {
  const resolved = resolveOptions(options);
  const log: RequestRecord[] = [];
  const shutdown = new AbortController();
  const runtimes = {} as Record<EnvironmentName, EnvRuntime>;
  for (const name of ENVIRONMENT_NAMES) runtimes[name] = new EnvRuntime(name, catalogFor(name), resolved, log);
  const resetAll = (): void => {
    for (const name of ENVIRONMENT_NAMES) runtimes[name].reset();
    log.length = 0;
  };

  const servers: http.Server[] = [];
  const environments = {} as Record<EnvironmentName, EnvironmentInfo>;
  try {
    for (const name of ENVIRONMENT_NAMES) {
      const server = createListener(runtimes[name], shutdown.signal, { resetAll });
      servers.push(server);
      const port = await listen(server, resolved.host, resolved.ports[name]);
      const origin = originOf(resolved.host, port);
      environments[name] = {
        origin,
        baseUrl: origin + API_PREFIX,
        chatModels: runtimes[name].catalog.chat.map((m) => m.id),
        imageModels: runtimes[name].catalog.image.map((m) => m.id),
      };
    }
  } catch (err) {
    for (const s of servers) s.close();
    throw err;
  }

  const extraListeners: Array<{ close(): Promise<void> }> = [];
  let closing: Promise<void> | undefined;
  return {
    environments,
    keys: { production: runtimes.production.keys.demoKeys, preview: runtimes.preview.keys.demoKeys } satisfies Record<EnvironmentName, DemoKeys>,
    keyPrefix: resolved.keyPrefix,
    requests: log,
    injectFault(env: EnvironmentName | 'all', spec: FaultSpec): void {
      for (const name of env === 'all' ? ENVIRONMENT_NAMES : [env]) runtimes[name].faults.push(spec);
    },
    scriptReply(env: EnvironmentName | 'all', reply: ScriptedReply): void {
      for (const name of env === 'all' ? ENVIRONMENT_NAMES : [env]) runtimes[name].scripted.push(reply);
    },
    held: () => ENVIRONMENT_NAMES.reduce((sum, name) => sum + runtimes[name].scripted.holding, 0),
    resumeHeld(): void {
      for (const name of ENVIRONMENT_NAMES) runtimes[name].scripted.resumeHeld();
    },
    clearFaults(): void {
      for (const name of ENVIRONMENT_NAMES) runtimes[name].faults.clear();
    },
    balance: (env) => runtimes[env].wallets.main.balance,
    setBalance: (env, credits) => runtimes[env].wallets.main.set(credits),
    setPacing(env: EnvironmentName | 'all', pacing: Partial<Pacing>): void {
      const valid = validatePacing(pacing);
      for (const name of env === 'all' ? ENVIRONMENT_NAMES : [env]) runtimes[name].pacing = { ...runtimes[name].pacing, ...valid };
    },
    setSuggestionStyle(env: EnvironmentName | 'all', style: SuggestionStyle): void {
      const valid = validateSuggestionStyle(style);
      for (const name of env === 'all' ? ENVIRONMENT_NAMES : [env]) runtimes[name].suggestionStyle = valid;
    },
    reset: resetAll,
    async addListener(env) {
      const listener = await startExtraListener(runtimes[env], resolved.host, shutdown.signal, { resetAll });
      extraListeners.push(listener);
      return listener;
    },
    close(): Promise<void> {
      closing ??= (async () => {
        shutdown.abort();
        await Promise.all(extraListeners.map((listener) => listener.close()));
        await Promise.all(servers.map((server) => new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        })));
      })();
      return closing;
    },
  };
}
