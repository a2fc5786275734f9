import * as assert from 'node:assert/strict';
import { chatHtml, contentSecurityPolicy, webviewHtml } from '../../../src/core/webviewHtml';
import { parseAppend, parseChatWebviewState, parseWebviewMessage } from '../../../src/core/chat/protocol/chatMessageValidation';
import { appendMessage, CHAT_PROTOCOL_VERSION } from '../../../src/core/chat/protocol/chatProtocol';
import type { ChatMethod, ChatRequests } from '../../../src/core/chat/protocol/chatRequests';

/**
 * Every request the webview can send, with params that must pass and params that must not. Typed
 * over ChatMethod: a new method without its cases here does not compile.
 */
const REQUEST_CASES: { [M in ChatMethod]: { valid: ChatRequests[M]; invalid: unknown[] } } = {
  send: { valid: { text: 'hi' }, invalid: [{}, { text: 1 }] },
  stop: { valid: {}, invalid: [{ now: true }] },
  regenerate: { valid: {}, invalid: [{ x: 1 }] },
  editLast: { valid: { text: 'x' }, invalid: [{ text: null }] },
  copyText: { valid: { text: 'x' }, invalid: [{ text: ['x'] }] },
  insertCode: { valid: { code: 'x' }, invalid: [{ text: 'x' }] },
  openInNewFile: { valid: { code: 'x', language: 'ts' }, invalid: [{ code: 'x', language: 3 }, { language: 'ts' }] },
  applyCode: { valid: { code: 'x', info: 'ts src/x.ts' }, invalid: [{ code: 'x', info: 3 }, { info: 'ts' }, { code: 1 }] },
  openLink: { valid: { href: 'https://x.test' }, invalid: [{ href: { toString: 'x' } }] },
  chatModels: { valid: {}, invalid: [{ environment: 'preview' }] },
  setChatModel: { valid: { model: 'emu-chat-small', answerAgain: 'm1' }, invalid: [{ model: 7 }, { model: null }, { model: 'x', answerAgain: 3 }] },
  attach: { valid: { kind: 'file' }, invalid: [{ kind: 'evil' }, { kind: '' }, {}, { kind: 'problems' }] },
  attachImage: { valid: { name: 'a.png', data: 'iVBORw0KGgo=' }, invalid: [{ name: 'a.png' }, { name: 1, data: '' }, { data: '' }] },
  imageData: { valid: { id: 'a' }, invalid: [{ id: 1 }, {}] },
  removeAttachment: { valid: { id: 'a' }, invalid: [{ id: 1 }] },
  mentionQuery: { valid: { query: 'src/a' }, invalid: [{}, { query: 1 }, { query: 'x'.repeat(513) }] },
  mention: {
    valid: { kind: 'file', path: 'src/a.ts' },
    invalid: [{ kind: 'file' }, { kind: 'changes', path: '/etc/passwd' }, { kind: 'shell', path: 'x' }, { kind: 'file', path: 3 }],
  },
  errorAction: { valid: { messageId: 'm', action: 'copyRequestId' }, invalid: [{ messageId: 'm', action: 'runCommand' }, { messageId: 'm', action: 'toString' }, { action: 'retry' }] },
  setParams: { valid: { params: { temperature: 0.2, systemPrompt: 'x' } }, invalid: [{ params: 'x' }, { params: { temperature: '0.2' } }, { params: { systemPrompt: 1 } }] },
  newConversation: { valid: {}, invalid: [{ id: 'x' }] },
  openHistory: { valid: {}, invalid: [{ id: 'x' }] },
  renameConversation: { valid: {}, invalid: [{ title: 'x' }] },
  exportMarkdown: { valid: {}, invalid: [{ path: '/etc' }] },
  requestSnapshot: { valid: {}, invalid: [{ full: true }] },
  compareEstimate: { valid: { models: ['a', 'b'], text: '' }, invalid: [{ models: ['a'], text: 'q' }, { models: ['a', 'b', 'c', 'd', 'e'], text: 'q' }, { models: ['a', 2], text: 'q' }, { models: ['a', ''], text: 'q' }, { models: 'a,b', text: 'q' }, { models: ['a', 'b'] }] },
  compare: { valid: { models: ['a', 'b', 'c', 'd'], text: 'q' }, invalid: [{ models: [], text: 'q' }, { models: ['a', 'x'.repeat(257)], text: 'q' }, { models: ['a', 'b'], text: 1 }] },
  stopColumn: { valid: { columnId: 'c1' }, invalid: [{}, { columnId: 1 }] },
  continueWith: { valid: { turnId: 't', columnId: 'c' }, invalid: [{ turnId: 't' }, { columnId: 'c' }, { turnId: 1, columnId: 'c' }] },
  exportComparison: { valid: { turnId: 't' }, invalid: [{}, { turnId: 1 }] },
  comparisonUsage: { valid: { turnId: 't' }, invalid: [{}, { turnId: null }] },
};

describe('chat protocol', () => {
  const v = CHAT_PROTOCOL_VERSION;

  it('accepts the ready handshake with or without valid state', () => {
    assert.deepEqual(parseWebviewMessage({ v, type: 'ready' }), { v, type: 'ready' });
    assert.deepEqual(
      parseWebviewMessage({ v, type: 'ready', state: { v: 1, conversationId: 'c1', draft: 'hi', apiKey: 'secret' } }),
      { v, type: 'ready', state: { v: 1, conversationId: 'c1', draft: 'hi' } },
      'unknown fields (anything that looks like a secret) are dropped from restored state',
    );
    assert.deepEqual(parseWebviewMessage({ v, type: 'ready', state: { v: 99, conversationId: 'c1' } }), { v, type: 'ready' });
  });

  it('accepts known requests with their required params', () => {
    const message = parseWebviewMessage({ v, type: 'request', id: 3, method: 'send', params: { text: 'hello' } });
    assert.deepEqual(message, { v, type: 'request', id: 3, method: 'send', params: { text: 'hello' } });
    assert.ok(parseWebviewMessage({ v, type: 'request', id: 4, method: 'stop', params: {} }));
    assert.ok(parseWebviewMessage({ v, type: 'request', id: 5, method: 'setParams', params: { params: { temperature: 0.2 } } }));
  });

  it('sends an append as a tuple the webview reads back as it was built, thinking included', () => {
    for (const append of [
      { seq: 1, text: 'Hello "world"\n' }, { seq: 463, text: 'thinking…', reasoning: true as const }, { seq: 2, text: '' },
      { seq: 3, text: 'a column', column: 0 }, { seq: 4, text: 'its thinking', reasoning: true as const, column: 3 },
    ]) {
      // Through JSON, as postMessage carries it.
      assert.deepEqual(parseAppend(JSON.parse(JSON.stringify(appendMessage(append)))), append);
    }
  });

  it("wraps an append's text in at most 12 bytes, seq included (a slow model's append holds ~43 characters)", () => {
    const text = 'x'.repeat(43);
    for (const seq of [1, 463, 99_999]) {
      const wrapper = JSON.stringify(appendMessage({ seq, text })).length - text.length;
      assert.ok(wrapper <= 12, `${wrapper} bytes of wrapper at seq ${seq}`);
    }
  });

  it('reads as an append only a tuple of this version with a positive integer seq, a string and the thinking flag', () => {
    for (const bad of [
      [v + 1, 1, 'x'], [v, 0, 'x'], [v, 1.5, 'x'], [v, '1', 'x'], [v, 1, 2], [v, 1, 'x', true], [v, 1, 'x', 0], [v, 1],
      // A column's: the thinking flag 0 or 1, an index of one of at most four columns.
      [v, 1, 'x', 2, 0], [v, 1, 'x', 0, 4], [v, 1, 'x', 0, -1], [v, 1, 'x', 0, 1.5], [v, 1, 'x', 0, '1'], [v, 1, 'x', 1, 0, 0],
      { v, type: 'append', seq: 1, text: 'x' }, 'x', null,
    ]) assert.equal(parseAppend(bad), undefined, JSON.stringify(bad));
  });

  it('rejects wrong versions, unknown methods, missing ids and malformed params', () => {
    assert.equal(parseWebviewMessage({ v: v + 1, type: 'ready' }), undefined);
    assert.equal(parseWebviewMessage({ v, type: 'request', id: 1, method: 'eval', params: {} }), undefined);
    assert.equal(parseWebviewMessage({ v, type: 'request', method: 'stop', params: {} }), undefined);
    assert.equal(parseWebviewMessage({ v, type: 'request', id: 1.5, method: 'stop', params: {} }), undefined);
    assert.equal(parseWebviewMessage({ v, type: 'request', id: 1, method: 'send', params: { text: 42 } }), undefined);
    assert.equal(parseWebviewMessage({ v, type: 'request', id: 1, method: 'openLink', params: null }), undefined);
    assert.equal(parseWebviewMessage({ v, type: 'request', id: 1, method: 'setParams', params: { params: 'x' } }), undefined);
    assert.equal(parseWebviewMessage('ready'), undefined);
  });

  it('validates every request against its declared params, enums included', () => {
    for (const [method, { valid, invalid }] of Object.entries(REQUEST_CASES)) {
      assert.ok(parseWebviewMessage({ v, type: 'request', id: 1, method, params: valid }), `${method} with ${JSON.stringify(valid)}`);
      for (const params of invalid) {
        assert.equal(parseWebviewMessage({ v, type: 'request', id: 1, method, params }), undefined, `${method} refuses ${JSON.stringify(params)}`);
      }
    }
  });

  it('passes on only the fields of the protocol', () => {
    assert.deepEqual(parseWebviewMessage({ v, type: 'request', id: 2, method: 'stop', params: {}, command: 'workbench.action.terminal.new' }), { v, type: 'request', id: 2, method: 'stop', params: {} });
  });

  it('parses persisted state defensively', () => {
    assert.equal(parseChatWebviewState(undefined), undefined);
    assert.equal(parseChatWebviewState({ conversationId: 'c' }), undefined);
    assert.deepEqual(parseChatWebviewState({ v: 1, conversationId: '', draft: 7 }), { v: 1 });
  });
});

describe('chat webview HTML', () => {
  it('has a strict CSP: nonce-only scripts, no inline style, no network, no frames', () => {
    const csp = contentSecurityPolicy('https://res.test', 'abc');
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /script-src 'nonce-abc'(;|$)/);
    assert.match(csp, /connect-src 'none'/);
    assert.match(csp, /img-src https:\/\/res.test(;|$)/);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|\*|https?:(;| )/);
  });

  it('lets only the chat show images from blob: URLs (its thumbnails), never data: or anything remote', () => {
    const opts = { cspSource: 'https://res.test', scriptUri: 'https://res.test/main.js', styleUris: [] };
    const policyOf = (html: string) => html.match(/Content-Security-Policy" content="([^"]+)"/)?.[1] ?? assert.fail('no policy');
    assert.match(policyOf(chatHtml(opts)), /img-src https:\/\/res.test blob:;/);
    assert.match(policyOf(webviewHtml({ ...opts, rootId: 'usage-root', title: 'Usage' })), /img-src https:\/\/res.test;/);
    assert.doesNotMatch(policyOf(chatHtml(opts)), /data:/);
  });

  it('uses a fresh nonce on every render and puts it on the one script tag', () => {
    const opts = { cspSource: 'https://res.test', scriptUri: 'https://res.test/main.js', styleUris: ['https://res.test/chat.css'] };
    const a = chatHtml(opts);
    const b = chatHtml(opts);
    const nonceOf = (html: string) => html.match(/<script nonce="([^"]+)"/)?.[1];
    assert.ok(nonceOf(a) && nonceOf(a) !== nonceOf(b));
    assert.ok(a.includes(`'nonce-${nonceOf(a)}'`));
    assert.equal(a.match(/<script/g)?.length, 1);
    assert.doesNotMatch(a, /style="/);
  });

  it('carries the runtime-string bundle as data on the root element, escaped, and the display language', () => {
    const bundle = { 'Copy code': 'Code "kopieren"', 'Answering…': '</div><script>alert(1)</script> & more' };
    const html = chatHtml({ cspSource: 'vscode-resource:', scriptUri: 'main.js', styleUris: [], nonce: 'n', l10nBundle: bundle, language: 'de' });
    assert.match(html, /<html lang="de">/);
    const attribute = /<div id="chat-root" class="chat-root" data-l10n-bundle="([^"]*)"><\/div>/.exec(html)?.[1];
    assert.ok(attribute !== undefined, 'one attribute on the root element');
    assert.doesNotMatch(attribute, /</, 'no markup can start inside the attribute');
    assert.deepEqual(JSON.parse(attribute.replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&amp;/g, '&')), bundle);
    assert.equal(html.match(/<script/g)?.length, 1, 'still our one script');
    assert.doesNotMatch(chatHtml({ cspSource: 'x', scriptUri: 'main.js', styleUris: [] }), /data-l10n-bundle/, 'no bundle for English');
  });
});
