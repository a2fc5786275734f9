import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/**
 * The baseline of the model picker benchmark: an extension of its own whose one command opens VS
 * Code's quick pick with plain items (a label each, nothing else set), the labels the bench wrote
 * last. What any extension's picker of that many items costs per keystroke: VS Code's own filtering,
 * sorting and list rendering.
 */

export const PLAIN_QUICK_PICK_COMMAND = 'Bench: Plain Quick Pick';
export const PLAIN_QUICK_PICK_TITLE = 'Plain quick pick';

export interface PlainQuickPickExtension {
  /**
   * An extensions folder holding it installed, for code-server's `--extensions-dir` (the workbench
   * URL loads one extension development path only: ours).
   */
  extensionsDir: string;
  /** The labels the next opening shows. */
  setLabels(labels: string[]): void;
  remove(): void;
}

export function writePlainQuickPickExtension(engines: unknown): PlainQuickPickExtension {
  const extensionsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'plain-quick-pick-'));
  const dir = path.join(extensionsDir, 'inference-client-bench.plain-quick-pick-0.0.0');
  fs.mkdirSync(dir);
  const labelsFile = path.join(dir, 'labels.json');
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({
    name: 'plain-quick-pick', publisher: 'inference-client-bench', version: '0.0.0', engines, main: './extension.js',
    activationEvents: ['onCommand:benchPlainQuickPick.open'],
    contributes: { commands: [{ command: 'benchPlainQuickPick.open', title: PLAIN_QUICK_PICK_COMMAND }] },
  }, null, 2));
  fs.writeFileSync(path.join(dir, 'extension.js'), `
    const vscode = require('vscode');
    const fs = require('fs');
    exports.activate = (context) => context.subscriptions.push(vscode.commands.registerCommand('benchPlainQuickPick.open', () => {
      const picker = vscode.window.createQuickPick();
      picker.title = ${JSON.stringify(PLAIN_QUICK_PICK_TITLE)};
      picker.items = JSON.parse(fs.readFileSync(${JSON.stringify(labelsFile)}, 'utf8')).map((label) => ({ label }));
      picker.onDidHide(() => picker.dispose());
      picker.show();
    }));\n`);
  return {
    extensionsDir,
    setLabels: (labels) => fs.writeFileSync(labelsFile, JSON.stringify(labels)),
    remove: () => fs.rmSync(extensionsDir, { recursive: true, force: true }),
  };
}
