import * as l10n from '@vscode/l10n';
import type { HostState } from '../api/hostHealth';

/**
 * One line per host of an environment with alternates, for the account menu: serving, set aside
 * (for how long, why) or available, as this window knows it. Empty for an environment with one
 * host, which has nothing to compare. `lastHost`: the origin that served the last response.
 */
export function hostLines(origins: readonly string[] | undefined, states: readonly HostState[], lastHost: string | undefined, now: number): string[] {
  if (!origins || origins.length < 2) return [];
  return origins.map((origin) => {
    const state = states.find((host) => host.origin === origin);
    if (state && state.failures > 0) {
      const seconds = Math.ceil((state.setAsideUntil - now) / 1000);
      const reason = state.lastError ?? '';
      if (seconds <= 0) return l10n.t('{0}: failed ({1}); tried again with the next request', origin, reason);
      return state.failures === 1
        ? l10n.t('{0}: set aside for {1} s after a failure ({2})', origin, seconds, reason)
        : l10n.t('{0}: set aside for {1} s after {2} failures in a row ({3})', origin, seconds, state.failures, reason);
    }
    return origin === lastHost ? l10n.t('{0}: served the last request', origin) : l10n.t('{0}: available', origin);
  });
}
