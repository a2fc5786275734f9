import * as assert from 'node:assert/strict';
import { ChatEngine } from '../../../src/core/chat/chatEngine';
import { chatImage } from '../../../src/core/chat/chatImages';
import { createConversation, type Attachment } from '../../../src/core/chat/conversation';
import { ApiError } from '../../../src/core/api/errors';
import type { ChatContentPart } from '../../../src/core/api/types';
import { FakeBackend, FakeSaver, FakeView } from '../fakes/chatEngine';
import { GIF_1X1, PNG_1X1 } from '../../shared/chatImages';

/** Images through the chat engine: written before the question, sent as image parts, kept in the composer when refused. */
describe('chat engine: images', () => {
  let view: FakeView;
  let saver: FakeSaver;
  let backend: FakeBackend;
  let engine: ChatEngine;
  const imageChip = (data: Buffer, label: string): Attachment => ({ id: `img-${label}`, kind: 'image', label, content: '', image: chatImage(data, label, 1024 * 1024) });
  const partsOf = (messageIndex: number) => backend.requests.at(-1)!.messages[messageIndex].content as ChatContentPart[];

  beforeEach(() => {
    view = new FakeView();
    saver = new FakeSaver();
    backend = new FakeBackend();
    engine = new ChatEngine(createConversation(0), view, saver, backend, { appendPacing: { flushChars: 1 } });
  });

  it('writes the images, then sends the question as a text part and one image_url part per image, and again with the next question', async () => {
    engine.attach(imageChip(PNG_1X1, 'a.png'));
    const chips = engine.attach(imageChip(GIF_1X1, 'b.gif'));
    assert.deepEqual(chips.map((c) => c.image), [{ mime: 'image/png', bytes: PNG_1X1.length }, { mime: 'image/gif', bytes: GIF_1X1.length }]);
    assert.equal(engine.attach(imageChip(PNG_1X1, 'a copy.png')).length, 2, 'the same picture again replaces its chip');
    assert.deepEqual(await engine.send('What are these?'), { attachments: [] });
    await engine.whenIdle();
    assert.equal(saver.images.size, 2, 'both files written');
    assert.ok(saver.saved.every((text) => !text.includes(PNG_1X1.toString('base64'))), 'no image data in any saved log');
    assert.deepEqual(partsOf(0), [
      { type: 'text', text: 'What are these?' },
      { type: 'image_url', image_url: { url: `data:image/gif;base64,${GIF_1X1.toString('base64')}` } },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG_1X1.toString('base64')}` } },
    ]);
    await engine.send('And now?');
    await engine.whenIdle();
    assert.equal(partsOf(0).length, 3, 'the earlier images are read back from their files for the next request');
    assert.equal(backend.requests.at(-1)!.messages[2].content, 'And now?', 'a question without images stays a string');
  });

  it('gives a thumbnail its bytes, pending or sent', async () => {
    engine.attach(imageChip(PNG_1X1, 'a.png'));
    assert.deepEqual(await engine.imageBytes('img-a.png'), { mime: 'image/png', data: PNG_1X1 });
    await engine.send('x');
    await engine.whenIdle();
    assert.deepEqual(Buffer.from((await engine.imageBytes('img-a.png')).data), PNG_1X1);
    await assert.rejects(engine.imageBytes('nope'), /no longer attached/);
  });

  it('takes the turn back when the model refuses the images: the error names the model, the chips return, nothing stays in the conversation', async () => {
    engine.attach(imageChip(PNG_1X1, 'a.png'));
    backend.openError = new ApiError('badRequest', 'Model "m-env" does not accept image input; send the request without image parts. (HTTP 400)', { status: 400 });
    await assert.rejects(engine.send('Describe it'), /The model m-env refused the message with its images: Model "m-env" does not accept image input/);
    assert.deepEqual(engine.conversation.messages, []);
    assert.deepEqual(engine.attachmentViews().map((c) => c.label), ['a.png'], 'the image is still in the composer');
    assert.equal(view.of('messageRemoved').length, 2, 'the question and its error card left the view');
    assert.deepEqual(saver.last().messages, [], 'and the saved conversation');
    assert.equal(engine.conversation.title, 'New chat', 'the title it took from the question is given back');
    backend.openError = undefined;
    await engine.send('Describe it');
    await engine.whenIdle();
    assert.equal(partsOf(0).length, 2, 'sent again, from the file already written');
  });

  it('forgets the image of a question taken back once the composer drops it, and never one a chip or message still names', async () => {
    engine.attach(imageChip(PNG_1X1, 'a.png'));
    engine.attach(imageChip(GIF_1X1, 'b.gif'));
    backend.openError = new ApiError('badRequest', 'Model "m-env" does not accept image input (HTTP 400)', { status: 400 });
    await assert.rejects(engine.send('Describe them'));
    backend.openError = undefined;
    assert.deepEqual(engine.conversation.messages, [], 'the turn was taken back');
    const [png, gif] = [...saver.images.keys()];
    assert.ok(png && gif, 'both were written before the refusal');
    engine.removeAttachment('img-a.png');
    assert.deepEqual(saver.forgotten, [[png]], 'the dropped one, which nothing names');
    await engine.send('Just the GIF');
    await engine.whenIdle();
    engine.attach(imageChip(GIF_1X1, 'b once more.gif'));
    engine.removeAttachment('img-b once more.gif');
    assert.deepEqual(saver.forgotten, [[png]], 'a message names the GIF');
    engine.attach(imageChip(PNG_1X1, 'a.png'));
    engine.attach(imageChip(PNG_1X1, 'a copy.png'));
    assert.deepEqual(saver.forgotten, [[png]], 'the same picture attached again only replaces its chip');
    backend.openError = new ApiError('badRequest', 'no images (HTTP 400)', { status: 400 });
    await assert.rejects(engine.send('Again with the PNG'));
    engine.load(createConversation(1));
    assert.deepEqual(saver.forgotten, [[png], [png]], 'chips dropped by showing another conversation');
  });

  it('forgets the images of chips still in the composer when its session ends', async () => {
    engine.attach(imageChip(PNG_1X1, 'a.png'));
    backend.openError = new ApiError('badRequest', 'no images (HTTP 400)', { status: 400 });
    await assert.rejects(engine.send('Describe it'));
    const [file] = [...saver.images.keys()];
    await engine.dispose();
    assert.deepEqual(saver.forgotten, [[file]]);
  });

  it('keeps the error card for a failure that is not a refusal of the request, and for a question without images', async () => {
    engine.attach(imageChip(PNG_1X1, 'a.png'));
    backend.openError = new ApiError('insufficientCredits', 'The wallet has too few credits (HTTP 402).', { status: 402 });
    await engine.send('x');
    await engine.whenIdle();
    assert.equal(engine.conversation.messages.at(-1)?.status, 'error');
    backend.openError = new ApiError('badRequest', 'Bad (HTTP 400)', { status: 400 });
    await engine.send('no images');
    await engine.whenIdle();
    assert.equal(engine.conversation.messages.at(-1)?.error?.status, 400);
  });

  it('sends nothing and keeps the chips when an image cannot be written', async () => {
    engine.attach(imageChip(PNG_1X1, 'a.png'));
    saver.failImages = new Error('disk full');
    await assert.rejects(engine.send('x'), /disk full/);
    assert.deepEqual(engine.conversation.messages, []);
    assert.equal(backend.requests.length, 0);
    assert.equal(engine.attachmentViews().length, 1);
  });
});
