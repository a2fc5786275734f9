import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { chatImage } from '../../../src/core/chat/chatImages';
import { createConversation, imageAttachments, type Conversation } from '../../../src/core/chat/conversation';
import { HistoryStore } from '../../../src/core/chat/history/historyStore';
import { parseConversation, serializeConversation } from '../../../src/core/chat/history/serialization';
import { exportMarkdown } from '../../../src/core/chat/exportMarkdown';
import { manualTimer } from '../../shared/manualTimer';
import { GIF_1X1, PNG_1X1 } from '../../shared/chatImages';

/** Images beside a conversation's log: written once by content, read back after a reopen, gone with it. */
describe('chat history: images beside the log', () => {
  let dir: string;
  const open = () => new HistoryStore({ dir, timer: manualTimer(), pid: 4242, isAlive: (pid) => pid === 4242 });

  function withImage(): Conversation {
    const conversation = createConversation(1);
    const image = chatImage(PNG_1X1, 'shot.png', 1024 * 1024);
    conversation.messages.push({ id: 'u1', role: 'user', text: 'What is this?', createdAt: 1, attachments: [{ id: 'i1', kind: 'image', label: 'shot.png', content: '', image }] });
    return conversation;
  }

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'history-images-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('writes the image as its own file before the log, keeps only a reference in the log, and reads both back after a reopen', async () => {
    const store = open();
    const conversation = withImage();
    const [attachment] = imageAttachments(conversation.messages);
    await store.writeImages(conversation.id, [attachment.image]);
    assert.equal(attachment.image.data, undefined, 'the bytes are dropped once written');
    await store.save(conversation);
    const log = fs.readFileSync(path.join(dir, `${conversation.id}.json`), 'utf8');
    assert.ok(!log.includes(PNG_1X1.toString('base64')), 'no image data in the text log');
    assert.match(log, new RegExp(`"file":"${attachment.image.file}"`));
    assert.deepEqual(fs.readFileSync(path.join(dir, 'images', conversation.id, attachment.image.file)), PNG_1X1);
    assert.deepEqual(fs.readdirSync(path.join(dir, 'images', conversation.id)), [attachment.image.file], 'no temporary file left');

    const reopened = open();
    const loaded = await reopened.load(conversation.id);
    const [again] = imageAttachments(loaded?.messages ?? []);
    assert.deepEqual(again.image, { mime: 'image/png', bytes: PNG_1X1.length, file: attachment.image.file });
    assert.deepEqual(await reopened.readImage(conversation.id, again.image.file), PNG_1X1);
    assert.deepEqual((await reopened.list()).map((s) => s.id), [conversation.id], 'the images folder is not taken for a conversation');
    assert.equal(await reopened.verified, false, 'nor does it put the index out of date');
  });

  it('writes an image already there only once, and removes the folder with the conversation', async () => {
    const store = open();
    const conversation = withImage();
    const file = path.join(dir, 'images', conversation.id, imageAttachments(conversation.messages)[0].image.file);
    await store.writeImages(conversation.id, imageAttachments(conversation.messages).map((a) => a.image));
    const writtenAt = fs.statSync(file).mtimeMs;
    const sameAgain = chatImage(PNG_1X1, 'copy.png', 1024 * 1024);
    await new Promise((resolve) => setTimeout(resolve, 20));
    await store.writeImages(conversation.id, [sameAgain]);
    assert.equal(fs.statSync(file).mtimeMs, writtenAt, 'content-addressed: not rewritten');
    await store.save(conversation);
    await store.delete(conversation.id);
    assert.ok(!fs.existsSync(path.join(dir, 'images', conversation.id)));
  });

  it('forgets an image no message of the saved log names, keeps one another window\'s message names, and deletes nothing beside a damaged log', async () => {
    const store = open();
    const conversation = withImage();
    const named = imageAttachments(conversation.messages)[0].image;
    const taken = chatImage(GIF_1X1, 'taken back.gif', 1024 * 1024);
    const imagePath = (file: string) => path.join(dir, 'images', conversation.id, file);
    await store.forgetImages(conversation.id, [taken.file]);
    assert.ok(!fs.existsSync(imagePath(taken.file)), 'nothing to forget: no file, no log read');
    await store.writeImages(conversation.id, [named, taken]);
    await store.forgetImages(conversation.id, [taken.file]);
    assert.ok(!fs.existsSync(imagePath(taken.file)), 'no log yet (the first question was taken back): nothing names it');
    await store.writeImages(conversation.id, [chatImage(GIF_1X1, 'taken back.gif', 1024 * 1024)]);
    // Another window saved the message that names the PNG; this window's picture has no message at all.
    await open().save(conversation);
    await store.forgetImages(conversation.id, [named.file, taken.file]);
    assert.ok(fs.existsSync(imagePath(named.file)), 'named by a message of the saved log');
    assert.ok(!fs.existsSync(imagePath(taken.file)), 'named by nothing');
    fs.appendFileSync(path.join(dir, `${conversation.id}.json`), '{"op":"message","message":\n');
    await store.forgetImages(conversation.id, [named.file]);
    assert.ok(fs.existsSync(imagePath(named.file)), 'a log that does not read whole deletes nothing');
  });

  it('refuses to read a name that is not an image file of its own, and rejects a write that fails', async () => {
    const store = open();
    await assert.rejects(store.readImage('c1', '../../secret.png'), /Invalid image file name/);
    await assert.rejects(store.readImage('../c1', `${'a'.repeat(64)}.png`), /Invalid conversation id/);
    fs.writeFileSync(path.join(dir, 'images'), 'a file where the folder should be');
    await assert.rejects(store.writeImages('c1', [chatImage(GIF_1X1, 'x.gif', 1024)]));
    await store.save(withImage());
    assert.equal((await store.list()).length, 1, 'the queue goes on after a failed image write');
  });

  it('drops a stored image reference that names anything but an image file, and keeps the rest of the message', () => {
    const conversation = withImage();
    const text = serializeConversation(conversation).replace(/"file":"[0-9a-f]+\.png"/, '"file":"../../../etc/passwd"');
    const message = parseConversation(text)?.messages[0];
    assert.equal(message?.text, 'What is this?');
    assert.equal(message?.attachments, undefined);
  });

  it('exports the images inside the Markdown document, as reference definitions after the text', () => {
    const conversation = withImage();
    const markdown = exportMarkdown(conversation, new Map([['i1', 'data:image/png;base64,AAAA']]));
    assert.match(markdown, /## You\n\n!\[shot\.png\]\[image-1\]\n\nWhat is this\?/);
    assert.match(markdown, /\n\[image-1\]: data:image\/png;base64,AAAA\n$/);
    assert.match(exportMarkdown(conversation), /_Image shot\.png \(not found\)_/);
  });
});
