import vscode = require('vscode');
import { Disposable } from '../../shared/disposable';

/** More output than this of one command is cut from its start: the end of a log is what explains it. */
const MAX_OUTPUT_CHARS = 1_000_000;

export interface TerminalCommand {
  commandLine: string;
  output: string;
  exitCode?: number;
}

/**
 * The last command of each terminal, where shell integration reports it. Its output can only be read
 * as it is written (`read()` right when the execution starts), so every execution is recorded from
 * its start; a command that ran before the extension started is not known.
 */
export class TerminalOutputs extends Disposable {
  readonly #last = new WeakMap<vscode.Terminal, TerminalCommand>();

  constructor() {
    super();
    this.register(vscode.window.onDidStartTerminalShellExecution(({ terminal, execution }) => {
      const command: TerminalCommand = { commandLine: execution.commandLine.value, output: '' };
      this.#last.set(terminal, command);
      void (async () => {
        for await (const data of execution.read()) {
          command.output = (command.output + data).slice(-MAX_OUTPUT_CHARS);
        }
      })().catch(() => undefined);
    }));
    this.register(vscode.window.onDidEndTerminalShellExecution(({ terminal, exitCode }) => {
      const command = this.#last.get(terminal);
      if (command && exitCode !== undefined) command.exitCode = exitCode;
    }));
  }

  lastCommand(terminal: vscode.Terminal): TerminalCommand | undefined {
    return this.#last.get(terminal);
  }
}

/**
 * The terminal's selected text. The stable API has no terminal selection, so the terminal's own Copy
 * puts it on the clipboard and the clipboard's text is restored; when the clipboard did not change,
 * nothing was selected (a selection equal to the clipboard's text is missed: the last command is used).
 * The clipboard's text is put back; anything else it held (an image) is not. Desktop only.
 */
export async function terminalSelection(): Promise<string | undefined> {
  // In a browser, reading the clipboard waits on a permission prompt that may never be answered.
  if (vscode.env.uiKind === vscode.UIKind.Web) return undefined;
  try {
    const before = await vscode.env.clipboard.readText();
    await vscode.commands.executeCommand('workbench.action.terminal.copySelection');
    const after = await vscode.env.clipboard.readText();
    if (after === before) return undefined;
    await vscode.env.clipboard.writeText(before);
    return after || undefined;
  } catch {
    // A browser that does not let the page read the clipboard: no selection can be had this way.
    return undefined;
  }
}
