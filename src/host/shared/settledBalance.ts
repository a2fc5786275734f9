import vscode = require('vscode');
import { readRawSetting } from './config';

/** `inference.readBalanceAfterAnswer`, or while it is not set, the deprecated `inference.chat.refreshBalanceAfterAnswer` it replaced; on by default. */
export function readBalanceAfterAnswer(): boolean {
  const configuration = vscode.workspace.getConfiguration();
  for (const id of ['inference.readBalanceAfterAnswer', 'inference.chat.refreshBalanceAfterAnswer'] as const) {
    const value = readRawSetting(id, configuration);
    if (typeof value === 'boolean') return value;
  }
  return true;
}
