import * as fs from 'node:fs';
import * as path from 'node:path';
import { PNG } from 'pngjs';
import { launchBrowser } from '../harness/browser';
import { REPO_ROOT } from '../harness/paths';

/**
 * Renders media/icon.svg to media/icon.png (128x128, transparent corners) with Debian's Chromium.
 * The PNG is committed (the Marketplace wants a PNG); run this after changing the SVG:
 * `npm run icon`.
 */
async function main(): Promise<void> {
  const svg = fs.readFileSync(path.join(REPO_ROOT, 'media', 'icon.svg'), 'utf8');
  const browser = await launchBrowser({ width: 128, height: 128 });
  try {
    await browser.page.setContent(`<!DOCTYPE html><html><body style="margin:0;background:transparent">${svg}</body></html>`);
    const png = await browser.page.locator('svg').screenshot({ omitBackground: true });
    const decoded = PNG.sync.read(png);
    if (decoded.width !== 128 || decoded.height !== 128) throw new Error(`rendered ${decoded.width}x${decoded.height}, expected 128x128`);
    fs.writeFileSync(path.join(REPO_ROOT, 'media', 'icon.png'), png);
    console.log(`media/icon.png: ${png.length} bytes`);
  } finally {
    await browser.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
