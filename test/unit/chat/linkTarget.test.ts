import * as assert from 'node:assert/strict';
import { describeLinkTarget, inspectLink } from '../../../src/core/chat/protocol/linkTarget';

/** What a link in model output really points at: shown on hover and in the host's confirmation. */
describe('link targets in model output', () => {
  const target = (href: string) => {
    const inspection = inspectLink(href);
    assert.ok(inspection.ok, `${href} is openable`);
    return inspection.target;
  };

  it('shows an international host in its real (punycode) form, with a warning', () => {
    const link = target('https://аpple.com/login'); // Cyrillic а
    assert.equal(link.destination, 'xn--pple-43d.com');
    assert.equal(link.href, 'https://xn--pple-43d.com/login');
    assert.match(link.warnings.join(' '), /international characters.*xn--pple-43d\.com/);
  });

  it('names the real host when a user name is placed before it, and drops the user name from what opens', () => {
    const link = target('https://accounts.bank.example@evil.example/reset');
    assert.equal(link.destination, 'evil.example');
    assert.equal(link.href, 'https://evil.example/reset');
    assert.match(link.warnings[0], /"accounts\.bank\.example" before the host: it goes to evil\.example/);
  });

  it('warns about bare IP addresses and plain http', () => {
    assert.match(target('http://203.0.113.9/x').warnings.join(' '), /bare IP address.*not encrypted/);
    assert.deepEqual(target('https://example.com/a?b=1#c').warnings, []);
  });

  it('lets mailto through with its recipients, warning about prefilled fields besides the subject', () => {
    const mail = target('mailto:someone@example.com?subject=Hi&body=secret%20stuff&bcc=x@evil.example');
    assert.equal(mail.scheme, 'mailto');
    assert.equal(mail.destination, 'someone@example.com');
    assert.match(mail.warnings[0], /body, bcc/);
    assert.equal(inspectLink('mailto:').ok, false);
  });

  it('refuses every other scheme and what is not a URL', () => {
    for (const href of ['javascript:alert(1)', 'data:text/html,<b>x</b>', 'file:///etc/passwd', 'vscode://x', 'command:workbench.action.quit', 'not a url', '/relative']) {
      const inspection = inspectLink(href);
      assert.equal(inspection.ok, false, href);
    }
  });

  it('describes a link for the hover in one or more lines', () => {
    assert.equal(describeLinkTarget('https://example.com/'), 'https://example.com/');
    assert.match(describeLinkTarget('https://a.example@b.example/'), /^https:\/\/b\.example\/\n⚠ /);
    assert.match(describeLinkTarget('javascript:alert(1)'), /not opened/);
  });
});
