import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AttachmentView } from '../../../src/core/chat/protocol/chatProtocol';
import { renderPng } from '../../emulator/png';
import { waitFor } from '../../harness/wait';
import { PNG_1X1 } from '../../shared/chatImages';
import { openNewChatPanel } from '../support/chatPanels';
import { setSetting, useImageFixture } from './support';

/** Images in the chat panel, through the same request handler the webview reaches: checks, export, Send Image to Chat. */
describe('chat images: the host\'s checks, export and Send Image to Chat (real extension host, emulator back end)', () => {
  const fixture = useImageFixture();
  const api = () => fixture().api;
  let id: string;
  const chips = async () => ((await api().chat.request(id, 'removeAttachment', { id: '' })) as { attachments: AttachmentView[] }).attachments;

  beforeEach(async () => {
    await fixture.services().models.select('chat', fixture().emulator.environments.production.chatModels[0], 'production');
    id = await openNewChatPanel(api().chat);
  });
  afterEach(() => setSetting('inference.chat.maxImageMB', undefined));

  it('refuses what is not an image by its bytes, and an image over inference.chat.maxImageMB, with the reason', async () => {
    await assert.rejects(api().chat.request(id, 'attachImage', { name: 'notes.png', data: Buffer.from('plain text').toString('base64') }), /notes\.png is not a PNG, JPEG, WebP or GIF image/);
    await setSetting('inference.chat.maxImageMB', 0.1);
    const big = Buffer.concat([PNG_1X1, Buffer.alloc(200 * 1024)]);
    await assert.rejects(api().chat.request(id, 'attachImage', { name: 'big.png', data: big.toString('base64') }), /big\.png is 200\.\d KiB; images of up to 102\.4 KiB can be attached/);
    assert.deepEqual(await chips(), []);
  });

  it('sends a pasted image as an image part, gives its bytes back for the thumbnail, and exports it inside the Markdown', async () => {
    const image = renderPng(64, 48, 'exported', 1);
    const { attachments } = await api().chat.request(id, 'attachImage', { name: 'C:\\Users\\me\\shot.png', data: image.toString('base64') }) as { attachments: AttachmentView[] };
    assert.deepEqual(attachments.map((a) => [a.kind, a.label, a.image]), [['image', 'shot.png', { mime: 'image/png', bytes: image.length }]], 'only the base name is kept as a label');
    await api().chat.request(id, 'send', { text: 'What is it?' });
    const conversation = await waitFor('the answer', async () => {
      const current = await api().chat.conversation(id);
      return current?.messages.at(-1)?.status === 'done' ? current : undefined;
    }, { timeoutMs: 20_000, intervalMs: 20 });
    const request = fixture().emulator.requests.findLast((r) => r.path.endsWith('/chat/completions'));
    assert.deepEqual(request?.chat?.messages.at(-1)?.images, [{ mime: 'image/png', bytes: image.length }]);
    const attachmentId = conversation.messages[0].attachments?.[0].id ?? assert.fail('no attachment');
    assert.deepEqual(await api().chat.request(id, 'imageData', { id: attachmentId }), { mime: 'image/png', data: image.toString('base64') });

    await api().chat.request(id, 'exportMarkdown', {});
    const exported = await waitFor('the export', () => vscode.window.activeTextEditor?.document.languageId === 'markdown' ? vscode.window.activeTextEditor.document.getText() : undefined, { timeoutMs: 5000, intervalMs: 20 });
    assert.match(exported, /## You\n\n!\[shot\.png\]\[image-1\]\n\nWhat is it\?/);
    assert.ok(exported.includes(`\n[image-1]: data:image/png;base64,${image.toString('base64')}\n`), 'the image is in the document');
  });

  it('Send Image to Chat attaches an image file of the workspace to the newest chat panel', async () => {
    const file = path.join(fixture.root(), 'generated.png');
    fs.writeFileSync(file, PNG_1X1);
    await vscode.commands.executeCommand('inference.sendImageToChat', vscode.Uri.file(file));
    assert.deepEqual((await chips()).map((c) => [c.label, c.detail, c.image?.mime]), [['generated.png', 'generated.png', 'image/png']]);
    fs.writeFileSync(file, 'not an image');
    await assert.rejects(Promise.resolve(vscode.commands.executeCommand('inference.sendImageToChat', vscode.Uri.file(file))), /not a PNG, JPEG, WebP or GIF/);
  });
});
