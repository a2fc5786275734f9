import assert from 'node:assert/strict';
import { keySecrets, usableSecrets } from '../../../src/core/api/redact';
import { RelayRedactor } from '../../../src/core/api/relayRedaction';

const KEY = 'svc-RelayKey0123456789abcdefghijklmnop';
const SECRETS = usableSecrets(keySecrets(KEY, 'svc-'));

function relay(...reads: string[]): string {
  const redactor = new RelayRedactor(SECRETS);
  const out = reads.map((read) => redactor.push(Buffer.from(read, 'utf8')));
  return Buffer.concat([...out, redactor.end()]).toString('utf8');
}

const data = (content: string) => `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content } }] })}\n\n`;

describe('relayed body redaction (the local endpoint\'s success bodies)', () => {
  it('passes a read of whole events without the key on as the same bytes, without a copy', () => {
    const redactor = new RelayRedactor(SECRETS);
    const read = Buffer.from(data('hello ünïcode, token: 42, 50% done, "quoted"') + data('more'), 'utf8');
    const out = redactor.push(read);
    assert.equal(out.buffer, read.buffer);
    assert.equal(out.length, read.length);
  });

  it('removes the key split across two reads at any point, and holds back only an unfinished line', () => {
    const event = data(`the key ${KEY} here`);
    for (let at = 1; at < event.length; at++) {
      assert.equal(relay(event.slice(0, at), event.slice(at)), data('the key [redacted] here'), `split at ${at}`);
    }
    const redactor = new RelayRedactor(SECRETS);
    assert.equal(redactor.push(Buffer.from('data: {"a":')).length, 0, 'an unfinished line waits');
    assert.equal(redactor.push(Buffer.from('1}\n\n')).toString(), 'data: {"a":1}\n\n');
  });

  it('removes the key\'s escaped forms, keeping the JSON valid', () => {
    const escaped = [...KEY].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
    const out = relay(`data: {"choices":[{"delta":{"content":"a ${escaped} b"}}]}\n\n`);
    assert.deepEqual(JSON.parse(out.slice('data: '.length)), { choices: [{ delta: { content: 'a [redacted] b' } }] });
    assert.equal(relay(`{"next":"/x?k=${encodeURIComponent(KEY).replace('R', '%52')}"}`), '{"next":"/x?k=[redacted]"}');
  });

  it('treats an error event as error text (credentials of any kind), and model text as the model\'s', () => {
    const answer = data('set token: abcdefgh1234 in the config');
    assert.equal(relay(answer), answer, 'the model\'s words stay');
    // A CRLF stream whose error event is split between the CR and the LF.
    const out = relay('event: error\r', '\ndata: {"message":"proxy said token: abcdefgh1234"}\r\n\r\n', data('after'));
    assert.equal(out, `event: error\r\ndata: {"message":"proxy said token: [redacted]"}\r\n\r\n${data('after')}`);
    const inline = relay(`data: {"error":{"message":"Authorization: Bearer\\u0020other-token-123","type":"server_error"}}\n\n`);
    assert.equal(inline, 'data: {"error":{"message":"Authorization: Bearer [redacted]","type":"server_error"}}\n\n');
  });

  it('cuts a line of megabytes without holding it whole, and not inside a key that straddles the cut', () => {
    const filler = 'x'.repeat(1024 * 1024 - 64 * 1024 + 5);
    const redactor = new RelayRedactor(SECRETS);
    const first = redactor.push(Buffer.from(`${filler}${KEY}`));
    // Past 1 MiB with this read, and the cut 64 KiB before the end falls inside the key.
    const second = redactor.push(Buffer.from('y'.repeat(64 * 1024 - 20)));
    assert.ok(first.length === 0 && second.length > 0, 'passed on before the line ended');
    const all = Buffer.concat([first, second, redactor.end()]).toString('latin1');
    assert.equal(all, `${filler}[redacted]${'y'.repeat(64 * 1024 - 20)}`);
    assert.ok(second.toString('latin1').endsWith('[redacted]'), 'the cut moved to the end of the key');
  });
});
