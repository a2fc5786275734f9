import vscode = require('vscode');
import { ApiError } from '../core/errors';
import { checkSettings, problemsBlocking, type SettingProblem } from '../core/settings/settingsCheck';
import { readRawSetting, SETTING_DEFAULTS, type SettingId } from './config';
import { Disposable } from './disposable';

export type RequestPurpose = 'chat' | 'image' | 'other';

/**
 * Checks every setting of the extension at start and after each change, and tells the user about
 * each problem once (not once per request). Requests that a problem concerns are refused before a
 * byte is sent, with the same message.
 */
export class SettingsProblems extends Disposable {
  #problems: SettingProblem[] | undefined;
  /** Messages already shown; a problem that is fixed and comes back is shown again. */
  readonly #shown = new Set<string>();
  /** Every message shown in this session, in order (what the user was told; for diagnostics and tests). */
  readonly notices: string[] = [];

  constructor(private readonly log: vscode.LogOutputChannel) {
    super();
    this.register(vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration('inference')) this.refresh();
    }));
    // The first check reads every setting (~10 ms in the extension host): it runs just after
    // activation, or as soon as something needs its answer.
    const firstCheck = setTimeout(() => this.#problems ?? this.refresh(), 0);
    this.register({ dispose: () => clearTimeout(firstCheck) });
  }

  current(): readonly SettingProblem[] {
    return this.#problems ?? this.refresh();
  }

  refresh(): readonly SettingProblem[] {
    const configuration = vscode.workspace.getConfiguration();
    const values = Object.fromEntries(Object.keys(SETTING_DEFAULTS).map((id) => [id, readRawSetting(id as SettingId, configuration)]));
    const problems = this.#problems = checkSettings(values);
    const messages = new Set(problems.map((problem) => problem.message));
    for (const message of this.#shown) if (!messages.has(message)) this.#shown.delete(message);
    for (const problem of problems) {
      if (this.#shown.has(problem.message)) continue;
      this.#shown.add(problem.message);
      this.log.warn(problem.message);
      this.notices.push(problem.message);
      const openSettings = vscode.l10n.t('Open Settings');
      void vscode.window.showWarningMessage(problem.message, openSettings).then((choice) => {
        if (choice === openSettings) void vscode.commands.executeCommand('workbench.action.openSettings', problem.setting);
      });
    }
    return problems;
  }

  /** Throws the first problem that stops this request, as an ApiError naming the setting. */
  assertCanSend(purpose: RequestPurpose, environment: string): void {
    // Checked now rather than from the last change event, which may not have arrived yet.
    const [problem] = problemsBlocking(this.refresh(), purpose, environment);
    if (problem) throw new ApiError('notConfigured', problem.message);
  }

  /** Whether this error is a settings problem the user has already been shown. */
  alreadyShown(error: ApiError): boolean {
    return error.kind === 'notConfigured' && this.#shown.has(error.message);
  }

  /** The setting a refused request's problem names (for a short reminder once the problem was shown). */
  settingOf(error: ApiError): string | undefined {
    return this.current().find((problem) => problem.message === error.message)?.setting;
  }
}
