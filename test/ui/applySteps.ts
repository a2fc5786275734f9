import type { UiFixture } from './fixture';

/** What the Apply UI tests share: the workspace file, an answer that rewrites it, and the diff's tab and title-bar actions. */
export const ORIGINAL = ['export function greet(name: string): string {', "  return 'Hello ' + name;", '}', ''].join('\n');
export const WHOLE_FILE = ['```ts src/greet.ts', 'export function greet(name: string): string {', '  return `Hello, ${name}!`;', '}', '```'].join('\n');

export const diffTab = (ui: UiFixture) => ui.page.locator('.tabs-container .tab', { hasText: 'Proposed' });
/** Accept Proposed Change / Reject Proposed Change in the diff editor's title bar. */
export const titleAction = (ui: UiFixture, name: string) => ui.page.locator(`.editor-actions .action-label[aria-label^="${name}"]`);
