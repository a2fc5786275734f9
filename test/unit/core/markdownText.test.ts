import * as assert from 'node:assert/strict';
import MarkdownIt from 'markdown-it';
import { markdownLiteral } from '../../../src/core/markdownText';

/** CommonMark with GFM's bare-URL links and raw HTML on: the most a Markdown renderer could make of it. */
const markdown = new MarkdownIt({ html: true, linkify: true });

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

// Issue 27, item 5: a request or model id went into status-bar tooltips as Markdown.
describe('markdownLiteral', () => {
  const hostile = [
    'req_1` [click](command:workbench.action.terminal.new) `',
    '![x](https://evil.example/pixel.png?leak=1)',
    'model <img src=x onerror=alert(1)> &amp; **bold** _em_ ~~gone~~',
    'https://evil.example/a www.evil.example mail@evil.example',
    'id\n\n# Heading\n- item\n> quote\r\n| a | b |\n|---|---|',
    '[ref]: https://evil.example\n[ref]',
    '\\`escaped\\` trailing backslash \\',
    '1. numbered',
    '<https://evil.example>',
    '    indented like code',
    '\n    indented after a line break',
  ];

  for (const text of hostile) {
    it(`renders ${JSON.stringify(text)} as that text and nothing else`, () => {
      // Inside a line (as a tooltip row puts it) and at the start of one (where block syntax would count).
      for (const before of ['Last request: ', '']) {
        const html = markdown.render(`${before}${markdownLiteral(text)}`);
        assert.equal(html, `<p>${escapeHtml(before + text.replace(/[\r\n]/g, ' '))}</p>\n`);
      }
    });
  }

  it('leaves letters, digits and spaces alone', () => {
    assert.equal(markdownLiteral('req 42 abc'), 'req 42 abc');
    assert.equal(markdownLiteral('req_42'), 'req\\_42');
  });
});
