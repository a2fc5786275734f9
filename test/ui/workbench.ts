import * as path from 'node:path';
import type { FrameLocator, Locator, Page } from 'playwright-core';
import { delay, waitFor } from '../harness/wait';

/**
 * What a user does in the VS Code workbench, as Playwright steps. Every wait has a timeout; the
 * selectors are the workbench's own (stable across 1.10x: the smoke tests use the same ones).
 */

const QUICK_INPUT = '.quick-input-widget';
const QUICK_INPUT_ROW = `${QUICK_INPUT} .quick-input-list .monaco-list-row`;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function exactly(label: string | RegExp): RegExp {
  return typeof label === 'string' ? new RegExp(`^\\s*${escapeRegExp(label)}\\s*$`) : label;
}

/** A row of the open quick pick whose label is `label` (exactly, when a string). */
export function quickPickRow(page: Page, label: string | RegExp): Locator {
  return page.locator(QUICK_INPUT_ROW).filter({ has: page.locator('.label-name', { hasText: exactly(label) }) });
}

export async function quickInputVisible(page: Page): Promise<boolean> {
  return page.locator(QUICK_INPUT).isVisible();
}

/**
 * Closes whatever quick input is open (Escape), so that the next step starts from the editor. A
 * widget still fading out after it was accepted no longer has the focus: Escape would reach the
 * editor instead and collapse its selection, so that one is waited for, not escaped.
 */
export async function closeQuickInput(page: Page): Promise<void> {
  if (!(await quickInputVisible(page))) return;
  const focused = await page.evaluate(`document.activeElement?.closest('${QUICK_INPUT}') != null`);
  if (focused) await page.keyboard.press('Escape');
  await page.locator(QUICK_INPUT).waitFor({ state: 'hidden', timeout: 5000 });
}

/**
 * Records in the page when the quick input widget hides. Accepting an item hides the widget before
 * the command runs, even when the command shows its own input right after in the same widget;
 * polling could miss that moment and type into the closing palette.
 */
const WATCH_QUICK_INPUT_HIDE = `(() => {
  const widget = document.querySelector('.quick-input-widget');
  globalThis.__quickInputHidden = !widget || widget.style.display === 'none';
  if (!widget) return;
  // Hidden and shown again within one task still leaves a record whose old value was hidden.
  const observer = new MutationObserver((records) => {
    const wasHidden = records.some((record) => /display:\\s*none/.test(record.oldValue || ''));
    if (wasHidden || widget.style.display === 'none') { globalThis.__quickInputHidden = true; observer.disconnect(); }
  });
  observer.observe(widget, { attributes: true, attributeFilter: ['style'], attributeOldValue: true });
})()`;

/**
 * Clicks a row and waits until the quick input that showed it has hidden, or the page reloaded
 * ("Developer: Reload Window"): the new document has no record at all (undefined, not false). Polled
 * for `true` alone, a reload that came before the poll saw the old page hidden waited out the whole
 * hand-over time on the new page (a reload took ~10.5 s instead of ~4.5).
 */
async function acceptRow(page: Page, row: Locator, handOverMs: number, clickTimeoutMs?: number): Promise<void> {
  await page.evaluate(WATCH_QUICK_INPUT_HIDE);
  await row.click(clickTimeoutMs === undefined ? undefined : { timeout: clickTimeoutMs });
  const deadline = Date.now() + handOverMs;
  while (Date.now() < deadline) {
    try {
      if (await page.evaluate('globalThis.__quickInputHidden !== false')) return;
    } catch {
      return; // The page is navigating.
    }
    await delay(50);
  }
}

/**
 * Runs a command from the command palette by its full title ("Inference: Set API Key").
 * Commands register a little after the workbench is up, so the palette is retried until the
 * command is listed.
 */
export async function runCommand(page: Page, title: string, timeoutMs = 30_000): Promise<void> {
  const input = page.locator(`${QUICK_INPUT} .quick-input-box input`);
  await waitFor(
    `the command "${title}" in the command palette`,
    async () => {
      await closeQuickInput(page);
      await page.keyboard.press('F1');
      await input.waitFor({ state: 'visible', timeout: 5000 });
      try {
        // Short: something that takes the focus (an image preview opening, a webview) closes the
        // palette under us; the next attempt opens it again instead of waiting on a hidden input.
        await input.fill(`>${title}`, { timeout: 3000 });
      } catch {
        return false;
      }
      const row = quickPickRow(page, title).first();
      try {
        await row.waitFor({ state: 'visible', timeout: 3000 });
      } catch {
        return false;
      }
      try {
        // Short too: the palette can close between the row showing and the click (a file that just
        // opened took the focus); a click waiting for the hidden row used up the whole deadline.
        await acceptRow(page, row, 10_000, 3000);
      } catch {
        return false;
      }
      return true;
    },
    { timeoutMs, intervalMs: 500 },
  );
}

/** Opens a workspace file in an editor through Quick Open, as a user would with Ctrl+P. */
export async function openFile(page: Page, relativePath: string, timeoutMs = 15_000): Promise<void> {
  await closeQuickInput(page);
  await page.keyboard.press('Control+P');
  const input = page.locator(`${QUICK_INPUT} .quick-input-box input`);
  await input.waitFor({ state: 'visible', timeout: 5000 });
  await input.fill(relativePath);
  await page.locator(QUICK_INPUT_ROW).filter({ hasText: path.basename(relativePath) }).first().waitFor({ timeout: timeoutMs });
  await input.press('Enter');
  await page.locator(`.tabs-container .tab[data-resource-name="${path.basename(relativePath)}"]`).first().waitFor({ timeout: timeoutMs });
  // A file that has a tab already shows at once: the next step must not find Quick Open still closing.
  await page.locator(QUICK_INPUT).waitFor({ state: 'hidden', timeout: timeoutMs });
}

/** Labels of the items in the open quick pick, in order. */
export async function quickPickItems(page: Page, timeoutMs = 10_000): Promise<string[]> {
  await page.locator(QUICK_INPUT_ROW).first().waitFor({ state: 'visible', timeout: timeoutMs });
  return (await page.locator(`${QUICK_INPUT_ROW} .label-name`).allTextContents()).map((text) => text.trim());
}

/** Picks an item of the open quick pick by its label. */
export async function pickQuickPickItem(page: Page, label: string | RegExp, timeoutMs = 10_000): Promise<void> {
  const row = quickPickRow(page, label).first();
  try {
    await row.waitFor({ state: 'visible', timeout: timeoutMs });
  } catch (error) {
    throw new Error(`${(error as Error).message}\n${await describeQuickInput(page)}`, { cause: error });
  }
  // A multi-step quick pick stays open between steps; a plain one hides before the next input.
  await acceptRow(page, row, 1500);
}

/**
 * Runs a command that shows a quick pick until `row` shows in it. The workbench may close a quick
 * pick before its rows show (a webview restored after a reload, or a window closed, takes the
 * focus); when the row did not show and no quick pick is open, the command runs once more, and the
 * log says so.
 */
async function runCommandUntilRowShows(page: Page, title: string, row: Locator, timeoutMs: number): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    await runCommand(page, title);
    try {
      await row.waitFor({ state: 'visible', timeout: timeoutMs });
      return;
    } catch (error) {
      if (attempt === 2 || (await quickInputVisible(page))) throw new Error(`${(error as Error).message}\n${await describeQuickInput(page)}`, { cause: error });
      console.log(`    [ui] the workbench closed the quick pick of "${title}" before its rows showed; running it again`);
    }
  }
}

/** What the quick input shows (title, input, busy, rows), for an error that says why a row was not found. */
async function describeQuickInput(page: Page): Promise<string> {
  try {
    return await page.locator(QUICK_INPUT).evaluate((widget) => {
      const text = (selector: string) => widget.querySelector(selector)?.textContent?.trim() ?? '';
      const input = widget.querySelector('.quick-input-box input') as unknown as { value: string; placeholder: string } | null;
      // The progress bar's classes tell a busy quick pick ("active") from a settled one ("done").
      const busy = widget.querySelector('.quick-input-progress')?.className ?? '';
      const rows = Array.from(widget.querySelectorAll('.quick-input-list .monaco-list-row .label-name'), (row) => row.textContent?.trim() ?? '');
      // The placeholder tells an empty list ("offers no models") from rows the list has not drawn; the
      // page's visibility tells a background page, whose animation frames (and so rows) wait.
      // A quick pick that lost the focus hides, and its widget keeps what it last showed.
      const document = widget.ownerDocument as unknown as { visibilityState: string; hasFocus(): boolean; activeElement: { tagName: string; className: string } | null };
      const shown = (widget as unknown as { checkVisibility(): boolean }).checkVisibility() ? 'shown' : 'hidden';
      const focused = document.activeElement ? `${document.activeElement.tagName.toLowerCase()}.${document.activeElement.className.split(' ').join('.')}` : 'nothing';
      const list = widget.querySelector('.quick-input-list') as unknown as { clientHeight: number } | null;
      return `the quick input (${shown}) showed: title "${text('.quick-input-title')}", input "${input?.value ?? ''}", placeholder "${input?.placeholder ?? ''}", progress "${busy}", page ${document.visibilityState}${document.hasFocus() ? ' and focused' : ', not focused'}, focus on ${focused}, list ${list?.clientHeight ?? '-'} px high, ${rows.length} row(s): ${rows.slice(0, 10).map((row) => `"${row}"`).join(', ')}`;
    }, undefined, { timeout: 5000 });
  } catch (error) {
    return `the quick input could not be read: ${(error as Error).message}`;
  }
}

/** Runs a command that shows a quick pick, and picks `label` in it (see runCommandUntilRowShows). */
export async function pickFromCommand(page: Page, title: string, label: string | RegExp, timeoutMs = 10_000): Promise<void> {
  await runCommandUntilRowShows(page, title, quickPickRow(page, label).first(), timeoutMs);
  await pickQuickPickItem(page, label, timeoutMs);
}

/** Runs a command that shows a quick pick, and returns its items' labels, leaving it open (see runCommandUntilRowShows). */
export async function quickPickItemsOf(page: Page, title: string, timeoutMs = 10_000): Promise<string[]> {
  await runCommandUntilRowShows(page, title, page.locator(QUICK_INPUT_ROW).first(), timeoutMs);
  return quickPickItems(page, timeoutMs);
}

/** Types into the open input box (or quick pick filter) and, by default, accepts with Enter. */
export async function typeInInput(page: Page, text: string, { submit = true, timeoutMs = 10_000 } = {}): Promise<void> {
  const input = page.locator(`${QUICK_INPUT} .quick-input-box input`);
  // The command palette may still be handing over to the command's own input box.
  await waitFor('an input box', async () => (await input.isVisible()) && !(await input.inputValue()).startsWith('>'), {
    timeoutMs,
    intervalMs: 100,
  });
  await input.fill(text);
  if (!submit) return;
  await page.evaluate(WATCH_QUICK_INPUT_HIDE);
  await input.press('Enter');
  // VS Code validates with the extension host before it accepts, which takes seconds on a busy
  // machine. Wait for the outcome, so that the next step (which may press Escape) cannot cancel it.
  const message = page.locator(`${QUICK_INPUT} .quick-input-message`);
  await waitFor(
    `the input box to take "${text.length > 12 ? `${text.slice(0, 4)}…` : text}"`,
    async () => {
      try {
        if (await page.evaluate('globalThis.__quickInputHidden === true')) return true;
      } catch {
        return true; // The page navigated.
      }
      if (!(await input.isVisible()) || (await input.inputValue()) !== text) return true; // Closed, or the next step.
      return /border/.test((await message.getAttribute('style')) ?? ''); // Refused with a validation message.
    },
    { timeoutMs: 30_000, intervalMs: 100 },
  );
}

/** The validation or prompt message under the open input box. */
export async function quickInputMessage(page: Page): Promise<string> {
  return (await page.locator(`${QUICK_INPUT} .quick-input-message`).textContent())?.trim() ?? '';
}

/**
 * The content document of a webview (e.g. the chat): the workbench hosts it in an outer iframe,
 * which hosts the extension's HTML in `#active-frame`. `index` picks among several open webviews.
 */
export function webviewFrame(page: Page, index = 0): FrameLocator {
  return webviewContent(page.locator('iframe.webview.ready').nth(index));
}

/** The content document of the webview whose outer iframe is `outer` (e.g. a walkthrough step's media). */
export function webviewContent(outer: Locator): FrameLocator {
  return outer.contentFrame().frameLocator('iframe#active-frame');
}

/** A status bar item by its visible text, or by its element id (`{ id }`, e.g. "<extension id>.<item id>"). */
export function statusBarItem(page: Page, textOrId: string | RegExp | { id: string }): Locator {
  const items = page.locator('.part.statusbar .statusbar-item');
  if (typeof textOrId === 'object' && !(textOrId instanceof RegExp)) {
    return page.locator(`.part.statusbar [id="${textOrId.id}"]`);
  }
  return items.filter({ hasText: textOrId });
}

const NOTIFICATION_ITEM = '.notifications-center .notification-list-item';

/**
 * The messages of all notifications, read in the Notification Center: with the smoke-test driver
 * toasts are hidden. Leaves the center open so that tests can click an action on a notification.
 */
export async function notifications(page: Page): Promise<string[]> {
  if (!(await page.locator('.notifications-center.visible').isVisible())) {
    await runCommand(page, 'Notifications: Show Notifications');
  }
  await page.locator('.notifications-center').waitFor({ state: 'visible', timeout: 5000 });
  return (await page.locator(`${NOTIFICATION_ITEM} .notification-list-item-message`).allTextContents()).map((t) => t.trim());
}

/** Waits until a notification whose message matches appears, and returns its list item. */
export async function waitForNotification(page: Page, message: string | RegExp, timeoutMs = 15_000): Promise<Locator> {
  const pattern = typeof message === 'string' ? new RegExp(escapeRegExp(message)) : message;
  await waitFor(`a notification matching ${pattern}`, async () => (await notifications(page)).some((m) => pattern.test(m)), {
    timeoutMs,
    intervalMs: 500,
  });
  return page.locator(NOTIFICATION_ITEM).filter({ hasText: pattern }).first();
}

/** Clicks a button of a notification in the Notification Center. */
export async function clickNotificationAction(page: Page, message: string | RegExp, action: string): Promise<void> {
  const item = await waitForNotification(page, message);
  await item.hover();
  await item.locator('.monaco-button', { hasText: exactly(action) }).first().click();
}

export async function clearNotifications(page: Page): Promise<void> {
  await runCommand(page, 'Notifications: Clear All Notifications');
}

/**
 * Right-clicks `target` and chooses `labels` in turn (a submenu, then its item) in VS Code's own
 * context menu. `force`: the click lands on whatever is on top at the target's centre (the text over
 * a selection's highlight), as a user's click would.
 */
export async function contextMenu(page: Page, target: ReturnType<Page['locator']>, labels: string[]): Promise<void> {
  await target.click({ button: 'right', force: true });
  for (const [index, label] of labels.entries()) {
    const item = page.locator('.context-view .monaco-menu .action-item:not(.disabled) .action-label', { hasText: new RegExp(`^\\s*${label}\\s*$`) }).last();
    await item.waitFor({ state: 'visible', timeout: 10_000 });
    await item.hover();
    await item.click();
    if (index < labels.length - 1) continue;
    // A menu runs its item and closes at once. On a busy machine the workbench sometimes drops the
    // click (the menu stays open, the item highlighted, nothing runs): that is the workbench's, not
    // ours, so the click is made again, once, and said.
    // (A submenu is a second menu: both must have gone.)
    const menusShown = page.locator('.context-view .monaco-menu:visible');
    const closed = (timeoutMs: number) => waitFor('the context menu to close', async () => (await menusShown.count()) === 0, { timeoutMs, intervalMs: 100 }).then(() => true, () => false);
    if (!(await closed(2000))) {
      console.log(`    [ui] the context menu kept "${label}" open after a click: clicking it again`);
      await item.click();
      if (!(await closed(5000))) throw new Error(`The context menu stayed open after two clicks on "${label}"`);
    }
  }
}
