import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ImageInputs } from '../../../src/core/images/imageJob';
import { generateImage, type GenerationOutcome } from '../../../src/host/images';
import { assertSaved, setSetting, useImageFixture } from './support';

const INPUTS: ImageInputs = { prompt: 'a fox', model: 'auto', seed: 11, responseFormat: 'b64_json' };
const NO_OPEN = { open: false };

describe('Generate Image: names, collisions and containment (real extension host, emulator back end)', () => {
  const fixture = useImageFixture();
  let outside: string;

  beforeEach(() => {
    outside = fs.mkdtempSync(path.join(os.tmpdir(), 'images-outside-'));
  });
  afterEach(() => fs.rmSync(outside, { recursive: true, force: true }));

  it('never overwrites: existing names get -2, -3, … and the existing files keep their bytes', async () => {
    const images = path.join(fixture.root(), 'images');
    fs.mkdirSync(images);
    fs.writeFileSync(path.join(images, 'a-fox.png'), 'precious');
    fs.writeFileSync(path.join(images, 'a-fox-2.png.json'), '{"mine":true}');
    const first = assertSaved(await generateImage(fixture.services(), INPUTS, NO_OPEN));
    const second = assertSaved(await generateImage(fixture.services(), INPUTS, NO_OPEN));
    assert.equal(path.basename(first.images[0].image.fsPath), 'a-fox-3.png', 'a-fox-2 is taken by its sidecar');
    assert.equal(path.basename(second.images[0].image.fsPath), 'a-fox-4.png');
    assert.equal(fs.readFileSync(path.join(images, 'a-fox.png'), 'utf8'), 'precious');
    assert.equal(fs.readFileSync(path.join(images, 'a-fox-2.png.json'), 'utf8'), '{"mine":true}');
    assert.deepEqual(fixture.workspaceFiles(), [
      'images/a-fox-2.png.json', 'images/a-fox-3.png', 'images/a-fox-3.png.json', 'images/a-fox-4.png', 'images/a-fox-4.png.json', 'images/a-fox.png',
    ]);
  });

  it('gives concurrent generations of one prompt distinct files', async () => {
    const outcomes = await Promise.all([1, 2, 3].map((seed) => generateImage(fixture.services(), { ...INPUTS, seed }, NO_OPEN)));
    const names = outcomes.map((outcome) => path.basename(assertSaved(outcome).images[0].image.fsPath)).sort();
    assert.deepEqual(names, ['a-fox-2.png', 'a-fox-3.png', 'a-fox.png']);
    const seeds = outcomes.map((outcome) => JSON.parse(fs.readFileSync(assertSaved(outcome).images[0].sidecar.fsPath, 'utf8')).seed as number).sort();
    assert.deepEqual(seeds, [1, 2, 3], 'each sidecar sits next to its own image');
  });

  it('keeps a prompt that looks like a path inside the images folder', async () => {
    for (const prompt of ['../../../outside/evil', '..\\..\\evil', '/etc/passwd', 'CON', '...']) {
      assertSaved(await generateImage(fixture.services(), { ...INPUTS, prompt }, NO_OPEN));
    }
    assert.deepEqual(fixture.workspaceFiles(), [
      'images/con-image.png', 'images/con-image.png.json', 'images/etc-passwd.png', 'images/etc-passwd.png.json',
      'images/evil.png', 'images/evil.png.json', 'images/image.png', 'images/image.png.json',
      'images/outside-evil.png', 'images/outside-evil.png.json',
    ]);
    assert.deepEqual(fixture.filesBelow(path.dirname(fixture.root())).filter((file) => !file.startsWith(`${path.basename(fixture.root())}/`) && /evil|passwd/.test(file)), []);
  });

  for (const folder of ['../escaped', '/tmp/escaped', 'images/../../escaped', 'C:\\escaped', '~/escaped']) {
    it(`refuses the folder setting ${JSON.stringify(folder)} before any request, writing nothing`, async () => {
      await setSetting('inference.images.folder', folder);
      const outcome = await generateImage(fixture.services(), INPUTS, NO_OPEN);
      assert.equal(outcome.status, 'refused');
      assert.match((outcome as Extract<GenerationOutcome, { status: 'refused' }>).reason, /inference\.images\.folder.*inside the workspace/s);
      assert.equal(fixture.imageRequests().length, 0, 'no credits spent on an image that cannot be saved');
      assert.deepEqual(fixture.workspaceFiles(), []);
      assert.equal(fs.existsSync(path.join(path.dirname(fixture.root()), 'escaped')), false);
      assert.equal(fs.existsSync('/tmp/escaped'), false);
    });
  }

  it('refuses a folder that is a symbolic link leading outside the workspace, before any request', async () => {
    fs.symlinkSync(outside, path.join(fixture.root(), 'images'), 'dir');
    await setSetting('inference.images.folder', 'images/deeper');
    const outcome = await generateImage(fixture.services(), INPUTS, NO_OPEN);
    assert.equal(outcome.status, 'refused');
    assert.match((outcome as Extract<GenerationOutcome, { status: 'refused' }>).reason, /leads outside the workspace folder/);
    assert.equal(fixture.imageRequests().length, 0);
    assert.deepEqual(fixture.filesBelow(outside), [], 'nothing written (not even a folder) through the link');
    assert.equal(fs.existsSync(path.join(outside, 'deeper')), false);
  });

  it('does not follow a symbolic link planted at the image name', async () => {
    const images = path.join(fixture.root(), 'images');
    fs.mkdirSync(images);
    const target = path.join(outside, 'target.png');
    fs.symlinkSync(target, path.join(images, 'a-fox.png'));
    const outcome = assertSaved(await generateImage(fixture.services(), INPUTS, NO_OPEN));
    assert.equal(path.basename(outcome.images[0].image.fsPath), 'a-fox-2.png');
    assert.equal(fs.existsSync(target), false, 'nothing written through the dangling link');
  });
});
