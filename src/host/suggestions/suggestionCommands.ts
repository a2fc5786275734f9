import vscode = require('vscode');
import type { Registered } from '../shared/disposable';
import type { Services } from '../shared/services';
import { SNOOZED_UNTIL_KEY, type SuggestionsShell } from './suggestionsShell';

export type SuggestionCommandServices = Pick<Services, 'globalState' | 'environments' | 'models'>;

/** Snooze lengths offered, in minutes. */
const SNOOZE_MINUTES = [15, 60, 240] as const;

/**
 * Turning suggestions on and off (a user setting: every window follows), snoozing them (shared by the
 * windows, until a time), picking their model (per environment, from the chat models the environment
 * lists), and the status item's menu that offers all of these where the user looks.
 */
export function registerSuggestionCommands(services: SuggestionCommandServices, shell: SuggestionsShell): Registered {
  const pickModel = async (): Promise<string | undefined> => {
    const model = await services.models.pick('suggestion');
    shell.update();
    return model;
  };
  const setEnabled = async (enabled: boolean): Promise<void> => {
    await vscode.workspace.getConfiguration().update('inference.suggestions.enabled', enabled, vscode.ConfigurationTarget.Global);
    // Turning them on where no model is picked: pick it now, or nothing would be sent.
    if (enabled && !services.models.selected('suggestion')) await pickModel();
    shell.update();
  };
  const snooze = async (minutes?: number): Promise<void> => {
    const chosen = minutes ?? (await vscode.window.showQuickPick(SNOOZE_MINUTES.map((value) => ({ label: snoozeLabel(value), value })), {
      title: vscode.l10n.t('Snooze inline suggestions'),
    }))?.value;
    if (chosen === undefined) return;
    const until = Date.now() + chosen * 60_000;
    await services.globalState.update(SNOOZED_UNTIL_KEY, until);
    shell.update();
  };
  const resume = async (): Promise<void> => {
    await services.globalState.update(SNOOZED_UNTIL_KEY, undefined);
    shell.resume();
  };

  const menu = async (): Promise<void> => {
    type Row = vscode.QuickPickItem & { run: () => Promise<unknown> };
    const state = shell.state();
    const model = services.models.selected('suggestion');
    const rows: Row[] = [];
    if (state.kind === 'off') rows.push({ label: `$(check) ${vscode.l10n.t('Turn On Inline Suggestions')}`, run: () => setEnabled(true) });
    else rows.push({ label: `$(circle-slash) ${vscode.l10n.t('Turn Off Inline Suggestions')}`, run: () => setEnabled(false) });
    if (state.kind === 'snoozed' || state.kind === 'limit' || state.kind === 'failing') {
      rows.push({ label: `$(debug-start) ${vscode.l10n.t('Resume Now')}`, run: resume });
    } else if (state.kind !== 'off') {
      rows.push({ label: `$(debug-pause) ${vscode.l10n.t('Snooze…')}`, run: () => snooze() });
    }
    rows.push(
      { label: `$(symbol-misc) ${vscode.l10n.t('Pick Model for Suggestions…')}`, description: model ?? vscode.l10n.t('none picked'), run: pickModel },
      { label: `$(graph) ${vscode.l10n.t('Show Usage')}`, run: () => Promise.resolve(vscode.commands.executeCommand('inference.showUsage')) },
      { label: `$(gear) ${vscode.l10n.t('Suggestion Settings')}`, run: () => Promise.resolve(vscode.commands.executeCommand('workbench.action.openSettings', 'inference.suggestions')) },
    );
    const chosen = await vscode.window.showQuickPick(rows, { title: vscode.l10n.t('Inline suggestions'), placeHolder: shell.snapshot().tooltip.split('\n')[0] });
    await chosen?.run();
  };

  const registrations = [
    vscode.commands.registerCommand('inference.toggleSuggestions', () => setEnabled(!shell.enabled)),
    vscode.commands.registerCommand('inference.snoozeSuggestions', (minutes?: unknown) => snooze(typeof minutes === 'number' && minutes > 0 ? minutes : undefined)),
    vscode.commands.registerCommand('inference.pickSuggestionModel', pickModel),
    vscode.commands.registerCommand('inference.suggestionsMenu', menu),
  ];
  return { dispose: () => registrations.forEach((registration) => registration.dispose()) };
}

function snoozeLabel(minutes: number): string {
  return minutes < 60 ? vscode.l10n.t('For {0} minutes', minutes) : vscode.l10n.t('For {0} hours', minutes / 60);
}
