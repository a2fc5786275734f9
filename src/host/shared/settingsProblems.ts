import vscode = require('vscode');
import { ApiError } from '../../core/api/errors';
import { checkSettings, problemsBlocking, type SettingProblem } from '../../core/settings/settingsCheck';
import { readRawSetting, SETTING_DEFAULTS, type SettingId } from './config';
import { Disposable } from './disposable';

export type RequestPurpose = 'chat' | 'image' | 'other';

/**
 * Checks every setting of the extension at start and after each change, and warns about each problem
 * once (not once per request). Requests that a problem concerns are refused before a byte is sent,
 * with the same message, and wherever the user acts on what it stops (switching to the environment,
 * setting its key, picking a model, a notification of a refused request) the same warning is given
 * again (`tell`): that is where the user looks for the reason.
 */
export class SettingsProblems extends Disposable {
  #problems: SettingProblem[] | undefined;
  /** Messages already shown; a problem that is fixed and comes back is shown again. */
  readonly #shown = new Set<string>();
  /** Every start-up (or on-change) warning shown in this session, in order (for diagnostics and tests). */
  readonly notices: string[] = [];
  /** Every warning given again where the user acted, in order (for diagnostics and tests). */
  readonly told: string[] = [];

  readonly #log: vscode.LogOutputChannel;

  constructor(log: vscode.LogOutputChannel) {
    super();
    this.#log = log;
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

  /** Reads and checks every setting now, without warning. */
  #check(): readonly SettingProblem[] {
    const configuration = vscode.workspace.getConfiguration();
    const values = Object.fromEntries(Object.keys(SETTING_DEFAULTS).map((id) => [id, readRawSetting(id as SettingId, configuration)]));
    return this.#problems = checkSettings(values);
  }

  refresh(): readonly SettingProblem[] {
    const problems = this.#check();
    const messages = new Set(problems.map((problem) => problem.message));
    for (const message of this.#shown) if (!messages.has(message)) this.#shown.delete(message);
    for (const problem of problems) {
      if (this.#shown.has(problem.message)) continue;
      this.#shown.add(problem.message);
      this.#log.warn(problem.message);
      this.notices.push(problem.message);
      warn(problem);
    }
    return problems;
  }

  /** States a problem where the user acted: the start-up warning, sentence and action, every time. */
  tell(problem: SettingProblem): void {
    this.told.push(problem.message);
    warn(problem);
  }

  /**
   * The first problem that stops a request of this kind to this environment, checked now: the
   * environment's own (a refused base URL), or one of every environment (a bad timeout). Without a
   * warning of its own: the caller `tell`s it, once.
   */
  blocking(purpose: RequestPurpose, environment: string): SettingProblem | undefined {
    return problemsBlocking(this.#check(), purpose, environment)[0];
  }

  /** Throws the first problem that stops this request, as an ApiError naming the setting. */
  assertCanSend(purpose: RequestPurpose, environment: string): void {
    // Checked now rather than from the last change event, which may not have arrived yet.
    const [problem] = problemsBlocking(this.refresh(), purpose, environment);
    if (problem) throw new ApiError('notConfigured', problem.message);
  }

  /** The settings problem a refused request's error states, while it is still a problem. */
  problemOf(error: { kind: string; message?: string }): SettingProblem | undefined {
    if (error.kind !== 'notConfigured' || error.message === undefined) return undefined;
    return this.current().find((problem) => problem.message === error.message);
  }
}

/** The warning for a settings problem: its sentence, and Open Settings at the setting it names. */
function warn(problem: SettingProblem): void {
  const openSettings = vscode.l10n.t('Open Settings');
  void vscode.window.showWarningMessage(problem.message, openSettings).then((choice) => {
    if (choice === openSettings) void vscode.commands.executeCommand('workbench.action.openSettings', problem.setting);
  });
}
