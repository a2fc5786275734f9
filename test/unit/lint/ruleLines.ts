import * as path from 'node:path';
import { ESLint } from 'eslint';

/** The repository's root, from out/test/unit/lint. */
const ROOT = path.resolve(__dirname, '..', '..', '..', '..');

/**
 * Lints `code` as if it were the repository's `file` with eslint.config.mjs, and returns the lines
 * that one rule reports.
 */
export function ruleLines(ruleId: string): (file: string, code: string) => Promise<number[]> {
  const eslint = new ESLint({ cwd: ROOT });
  return async (file, code) => {
    const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
    return result.messages.filter((m) => m.ruleId === ruleId).map((m) => m.line);
  };
}
