import * as assert from 'node:assert/strict';
import { waitFor } from '../harness/wait';
import { useWorkbench } from './fixture';

const waitUntil = (condition: () => boolean, what: string) => waitFor(what, async () => condition(), { timeoutMs: 15_000, intervalMs: 100 });

/** Issue: keys, environments, model picker and the status-bar balance, as a user sees them. */
describe('account UI: picker, key input, balance and errors', () => {
  // VS Code's chat asks the language-model provider for models at start-up, which is a call; this
  // file is about what the status bar says before any call, so the provider stays off here.
  const ui = useWorkbench({ settings: () => ({ 'inference.languageModels.enabled': false }) });
  const balanceItem = () => ui.statusBarItem(/credits|balance unknown/).first();
  /**
   * Clicks the balance item. After a quick pick answered by keyboard, the pointer still rests on
   * the item and its tooltip (a hover that stays while the pointer is on it) covers the item and
   * takes a real click. The pointer leaves and Escape closes the hover; if it is still there, the
   * click is dispatched to the item itself, which runs the same handler.
   */
  const clickBalance = async (): Promise<void> => {
    await ui.page.mouse.move(0, 0);
    await ui.page.keyboard.press('Escape');
    try {
      await balanceItem().click({ timeout: 5_000 });
    } catch {
      await balanceItem().dispatchEvent('click');
    }
  };

  it('says the balance is unknown before any call, rather than 0', async () => {
    await balanceItem().waitFor({ state: 'visible', timeout: 30_000 });
    assert.match(await balanceItem().innerText(), /balance unknown/);
    assert.equal(ui.emulator.requests.length, 0, 'activation made no API call');
    await ui.screenshot('01-balance-unknown');
  });

  it('picks a chat model from the environment list, marks the current one, and shows it', async () => {
    await ui.runCommand('Inference: Pick Chat Model');
    const items = await ui.quickPickItems();
    assert.deepEqual(items, ui.emulator.environments.production.chatModels);
    await ui.screenshot('02-model-picker');
    const chosen = ui.emulator.environments.production.chatModels[1];
    await ui.pickQuickPickItem(chosen);
    await ui.statusBarItem(new RegExp(`production · ${chosen}`)).waitFor({ state: 'visible', timeout: 10_000 });
    await ui.runCommand('Inference: Pick Chat Model');
    await ui.page.locator('.quick-input-list .monaco-list-row', { hasText: '(current)' }).filter({ hasText: chosen }).waitFor({ timeout: 10_000 });
    await ui.screenshot('03-model-picker-current');
    await ui.closeQuickInput();
  });

  it('shows the balance after a response, with environment, RPM and request id in the tooltip', async () => {
    await ui.runCommand('Inference: Refresh Balance');
    await ui.statusBarItem(/1,000 credits/).waitFor({ state: 'visible', timeout: 15_000 });
    await balanceItem().hover();
    const hover = ui.page.locator('.workbench-hover, .monaco-hover').filter({ hasText: 'Rate limit' }).first();
    await hover.waitFor({ state: 'visible', timeout: 10_000 });
    const text = await hover.innerText();
    assert.match(text, /production/);
    assert.match(text, /60 requests\/min/);
    assert.ok(text.includes(ui.emulator.requests.at(-1)?.id ?? '???'), 'last request id shown');
    await ui.screenshot('04-balance-tooltip');
    await ui.page.mouse.move(400, 300);
  });

  it('checks the key prefix while typing, in a masked input', async () => {
    await ui.runCommand('Inference: Set API Key');
    await ui.typeInInput('wrong-1234', { submit: false });
    const input = ui.page.locator('.quick-input-widget .quick-input-box input');
    assert.equal(await input.getAttribute('type'), 'password');
    await ui.page.waitForFunction(() => /expected prefix/.test(document.querySelector('.quick-input-widget .quick-input-message')?.textContent ?? ''), undefined, { timeout: 5000 });
    assert.match(await ui.quickInputMessage(), /expected prefix "svc-"/);
    await ui.screenshot('05-key-input-prefix-check');
    await ui.closeQuickInput();
  });

  it('refuses an expired key with the service message, Set API Key and Copy Request ID', async () => {
    const before = ui.emulator.requests.length;
    await ui.runCommand('Inference: Set API Key');
    await ui.typeInInput(ui.emulator.keys.production.expired);
    await waitUntil(() => ui.emulator.requests.slice(before).some((r) => r.status === 401), 'the key check request');
    const notification = await ui.waitForNotification(/API key was refused \(HTTP 401\)/);
    const text = await notification.innerText();
    assert.match(text, /expired/i);
    assert.match(text, /Set API Key/);
    assert.match(text, /Copy Request ID/);
    await ui.waitForNotification(/previous key was kept/);
    const aboutTheKey = (await ui.notifications()).filter((m) => /refused|not saved|kept/i.test(m));
    assert.equal(aboutTheKey.length, 1, `one notification for one refused key: ${JSON.stringify(aboutTheKey)}`);
    await ui.screenshot('06-key-refused-401');
    await ui.clearNotifications();
  });

  it('shows each error kind with the action that fixes it', async () => {
    const cases: Array<[Parameters<typeof ui.emulator.injectFault>[1], RegExp, string[]]> = [
      [{ fault: 'http-402' }, /insufficient credits.*Last known balance: 1,000 credits/s, ['Copy Request ID']],
      [{ fault: 'html-500' }, /service failed \(HTTP 500\)/, ['Retry', 'Copy Request ID']],
    ];
    // Every other kind's action, per surface, is the fault matrix's (test/integration/faults); its words the unit tier's.
    for (const [index, [fault, message, actions]] of cases.entries()) {
      ui.emulator.injectFault('production', fault);
      await ui.runCommand('Inference: Refresh Balance');
      const notification = await ui.waitForNotification(message);
      const text = await notification.innerText();
      for (const action of actions) assert.ok(text.includes(action), `${fault.fault}: "${action}" in ${text}`);
      if (!actions.includes('Retry')) assert.doesNotMatch(text, /\bRetry\b/, `${fault.fault} offers no Retry`);
      await ui.screenshot(`07-error-${index + 1}-${fault.fault}`);
      await ui.clearNotifications();
    }
    ui.emulator.injectFault('production', { fault: 'text-502' });
    await ui.runCommand('Inference: Refresh Balance');
    await ui.waitForNotification(/HTTP 502/);
    const failed = ui.emulator.requests.length;
    await ui.clickNotificationAction(/HTTP 502/, 'Retry');
    await waitUntil(() => ui.emulator.requests.length > failed, 'the retried request');
    assert.equal(ui.emulator.requests.at(-1)?.status, 200, 'Retry ran the call again and it succeeded');
    await ui.clearNotifications();
  });

  it('counts down visibly while waiting out a 429, then succeeds', async () => {
    ui.emulator.injectFault('production', { fault: 'http-429', retryAfterSeconds: 4 });
    const before = ui.emulator.requests.length;
    await ui.runCommand('Inference: Refresh Balance');
    await ui.waitForNotification(/Rate limited \(HTTP 429\)/);
    const countdown = ui.page.locator('.notification-list-item', { hasText: /retrying in \d s/ }).first();
    await countdown.waitFor({ state: 'visible', timeout: 5000 });
    await ui.screenshot('08-rate-limit-countdown');
    await waitUntil(() => ui.emulator.requests.length >= before + 2, 'the request after the countdown');
    assert.deepEqual(ui.emulator.requests.slice(before).map((r) => r.status), [429, 200]);
    await ui.clearNotifications();
  });

  it('switches environment from the status bar menu; each environment has its own balance', async () => {
    await clickBalance();
    await ui.pickQuickPickItem(/Switch Environment/);
    await ui.page.locator('.quick-input-widget .quick-input-list .monaco-list-row', { hasText: 'preview' }).waitFor({ timeout: 10_000 });
    // Each row is the environment's label with its base URL as the detail line.
    const items = await ui.quickPickItems();
    assert.deepEqual(items, ['production', ui.emulator.environments.production.baseUrl, 'preview', ui.emulator.environments.preview.baseUrl, 'Add Environment…']);
    await ui.screenshot('09-switch-environment');
    await ui.pickQuickPickItem('preview');
    await ui.statusBarItem(/preview · pick a chat model/).waitFor({ state: 'visible', timeout: 10_000 });
    assert.match(await balanceItem().innerText(), /balance unknown/);
    await ui.screenshot('10-preview-active');
  });

  it('keeps each environment balance across a window reload, without calling the service', async () => {
    await clickBalance();
    await ui.pickQuickPickItem(/Switch Environment/);
    await ui.pickQuickPickItem('production');
    await ui.statusBarItem(/credits/).waitFor({ state: 'visible', timeout: 10_000 });
    const shown = await balanceItem().innerText();
    const calls = ui.emulator.requests.length;
    await ui.reloadWindow();
    await balanceItem().waitFor({ state: 'visible', timeout: 30_000 });
    assert.equal(await balanceItem().innerText(), shown);
    assert.equal(ui.emulator.requests.length, calls);
    await ui.screenshot('11-balance-after-reload');
  });
});
