import type * as vscode from 'vscode';

/** What the test-support extension hands to integration tests. */
export interface TestSupportApi {
  /** A real SecretStorage (this helper extension's own), to exercise code built on SecretStorage. */
  readonly secrets: vscode.SecretStorage;
}

export const TEST_SUPPORT_ID = 'inference-client-tests.test-support';

/**
 * A helper extension the launchers load beside the extension under test: tests cannot get an
 * ExtensionContext of their own, and the extension under test does not export one.
 */
export function activate(context: vscode.ExtensionContext): TestSupportApi {
  return { secrets: context.secrets };
}
