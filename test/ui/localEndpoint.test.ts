import * as assert from 'node:assert/strict';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { useWorkbench } from './fixture';

/** Issue 15 as a user meets it: start from the palette, copy the token from the notification, use it from another program. */
describe('local endpoint UI: start, token notification, status-bar item, stop', () => {
  const ui = useWorkbench();
  let origin = '';
  let token = '';

  it('starts from the command palette and shows the base URL and the token once', async () => {
    await ui.runCommand('Inference: Start Local Endpoint');
    const notification = await ui.waitForNotification(/Local endpoint running at/);
    const text = await notification.innerText();
    origin = /http:\/\/127\.0\.0\.1:\d+/.exec(text)?.[0] ?? '';
    token = /local-[A-Za-z0-9_-]{43}/.exec(text)?.[0] ?? '';
    assert.ok(origin && token, `base URL and token in: ${text}`);
    assert.match(text, /Copy Token/);
    assert.match(text, /Copy Base URL/);
    await ui.screenshot('01-started-token-notification');
    await ui.clearNotifications();
  });

  it('serves another program that uses the token, and counts it in the status bar with the last request id', async () => {
    const openai = new OpenAI({ apiKey: token, baseURL: `${origin}/v1`, maxRetries: 0 });
    let text = '';
    for await (const chunk of await openai.chat.completions.create({ model: ui.emulator.environments.production.chatModels[0], messages: [{ role: 'user', content: 'from a terminal tool' }], stream: true })) {
      text += chunk.choices[0]?.delta.content ?? '';
    }
    assert.match(text, /You said: “from a terminal tool”/);
    const message = await new Anthropic({ apiKey: token, baseURL: origin, maxRetries: 0 }).messages
      .create({ model: ui.emulator.environments.production.chatModels[0], max_tokens: 200, messages: [{ role: 'user', content: 'from an Anthropic client' }] });
    assert.equal(message.content[0].type, 'text');
    const port = new URL(origin).port;
    const item = ui.statusBarItem(`:${port} · 2`);
    await item.waitFor({ state: 'visible', timeout: 10_000 });
    await item.hover();
    const hover = ui.page.locator('.workbench-hover, .monaco-hover').filter({ hasText: 'Local Endpoint' }).first();
    await hover.waitFor({ state: 'visible', timeout: 10_000 });
    const tooltip = await hover.innerText();
    assert.ok(tooltip.includes(`${origin}/v1`), tooltip);
    assert.ok(tooltip.includes(ui.emulator.requests.at(-1)?.id ?? '???'), 'last request id in the tooltip');
    assert.ok(!tooltip.includes(token), 'the token is not shown again');
    await ui.screenshot('02-status-item-tooltip');
    await ui.page.mouse.move(400, 300);
  });

  it('stops from the command palette: the item goes and the port closes', async () => {
    await ui.runCommand('Inference: Stop Local Endpoint');
    await ui.statusBarItem(`:${new URL(origin).port} ·`).waitFor({ state: 'hidden', timeout: 10_000 });
    const refused = await fetch(`${origin}/v1/models`, { headers: { authorization: `Bearer ${token}` } }).then(() => 'answered', (e: unknown) => String((e as { cause?: unknown }).cause ?? e));
    assert.match(refused, /ECONNREFUSED/);
    await ui.screenshot('03-stopped');
  });
});
