import * as l10n from '@vscode/l10n';
import { formatCredits, SPEND_DIGITS } from '../credits';

/**
 * What the suggestions' status-bar item says: whether suggestions are on, and if not why, and what
 * they cost today. A reached limit or a failing key is said here, once, and never in a modal: the
 * user is typing.
 */
export type SuggestionsState =
  | { readonly kind: 'off' }
  | { readonly kind: 'noModel'; readonly environment: string }
  | { readonly kind: 'snoozed'; readonly until: number }
  /** A spending limit or the suggestions' budget refused: nothing is sent until `until`. */
  | { readonly kind: 'limit'; readonly message: string; readonly until: number }
  /** The last request failed in a way the next would too (a key, the wallet): nothing is sent until `until` or a change of key, environment or model. */
  | { readonly kind: 'failing'; readonly message: string; readonly until: number }
  | { readonly kind: 'on'; readonly environment: string; readonly model: string };

export interface SuggestionsSpend {
  /** Measured credits today, of every environment. */
  readonly credits: number;
  /** Today's suggestion requests whose spend could not be measured. */
  readonly unmeasured: number;
}

export interface StatusView {
  readonly text: string;
  readonly tooltip: string;
  /** Shown with the warning background. */
  readonly warning: boolean;
}

const ICON = '$(sparkle)';

export function suggestionsStatus(state: SuggestionsState, spend: SuggestionsSpend | undefined, now: number): StatusView {
  const spent = spend && spendText(spend);
  const today = spent ? `\n${l10n.t('Suggestions today: {0}.', spent)}` : '';
  const menu = `\n${l10n.t('Click for the suggestions menu.')}`;
  switch (state.kind) {
    case 'off':
      return { text: withIcon('$(circle-slash)', l10n.t('Suggestions')), tooltip: l10n.t('Inline suggestions are off.') + today + menu, warning: false };
    case 'noModel':
      return { text: withIcon(ICON, l10n.t('pick a model')), tooltip: l10n.t('Inline suggestions are on, but no model is picked for them in {0}: nothing is sent.', state.environment) + menu, warning: false };
    case 'snoozed':
      return { text: withIcon('$(debug-pause)', l10n.t('{0} min', minutesLeft(state.until, now))), tooltip: l10n.t('Inline suggestions are snoozed until {0}.', new Date(state.until).toLocaleTimeString()) + today + menu, warning: false };
    case 'limit':
      return { text: withIcon('$(warning)', l10n.t('Suggestions paused')), tooltip: [state.message, l10n.t('Suggestions resume at {0}.', new Date(state.until).toLocaleString())].join('\n') + today + menu, warning: true };
    case 'failing':
      return { text: withIcon('$(warning)', l10n.t('Suggestions')), tooltip: state.message + today + menu, warning: true };
    case 'on':
      return {
        text: withIcon(ICON, spend ? l10n.t('{0} today', formatCredits(spend.credits, SPEND_DIGITS)) : l10n.t('on')),
        tooltip: l10n.t('Inline suggestions from {0} in {1}.', state.model, state.environment) + today + menu,
        warning: false,
      };
  }
}

/** A theme icon before the label: the icon syntax is VS Code's, never translated. */
function withIcon(icon: string, label: string): string {
  return `${icon} ${label}`;
}

function spendText(spend: SuggestionsSpend): string {
  const credits = l10n.t('{0} credits', formatCredits(spend.credits, SPEND_DIGITS));
  return spend.unmeasured > 0 ? l10n.t('{0}, and {1} requests not measured', credits, spend.unmeasured) : credits;
}

function minutesLeft(until: number, now: number): number {
  return Math.max(1, Math.ceil((until - now) / 60_000));
}
