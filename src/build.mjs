// The build: `node src/build.mjs extension|webview|tests` (npm run build runs all three).
//
// esbuild writes a file by truncating it and writing it again, so a process that reads it meanwhile
// can see half of it. `npm test` and `npm run demo` started together in one checkout build the same
// files while the other one's tiers, code-server or vsce already read them. Here esbuild builds in
// memory and each file is put in place by rename(2), which is atomic: a reader sees the old file or
// the new one, never a torn one. (Both builds of one commit write the same bytes.)
import * as esbuild from 'esbuild';
import * as fs from 'node:fs';
import * as path from 'node:path';

const node = { bundle: true, platform: 'node', format: 'cjs', minify: true, keepNames: true, logLevel: 'warning' };

const targets = {
  extension: [
    // undici is loaded on the first request from its own file, so that activation never parses it.
    { ...node, entryPoints: ['src/extension.ts'], outfile: 'dist/main.js', target: 'node20', external: ['vscode', './undici.js'], alias: { undici: './undici.js' }, supported: { 'dynamic-import': false }, sourcemap: true },
    { ...node, entryPoints: ['src/startup.ts'], outfile: 'dist/extension.js', target: 'node20', external: ['vscode'] },
    { ...node, entryPoints: ['node_modules/undici/index.js'], outfile: 'dist/undici.js', target: 'node20' },
  ],
  webview: [
    { bundle: true, platform: 'browser', format: 'iife', target: 'chrome120', minify: true, logLevel: 'warning', entryPoints: ['src/webview/chat/main.ts', 'src/webview/usage/usage.ts'], outdir: 'dist/webview', entryNames: '[name]' },
  ],
  tests: [
    { entryPoints: ['src/**/*.ts', 'test/**/*.ts'], outdir: 'out', outbase: '.', platform: 'node', format: 'cjs', target: 'node22', sourcemap: true, logLevel: 'warning' },
  ],
};

/** Files copied as they are, beside a target's output. */
const copies = {
  webview: [
    ['node_modules/@vscode/codicons/dist/codicon.css', 'dist/webview/codicon.css'],
    ['node_modules/@vscode/codicons/dist/codicon.ttf', 'dist/webview/codicon.ttf'],
  ],
};

function putInPlace(file, contents) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, contents);
  fs.renameSync(temporary, file);
}

const names = process.argv.slice(2);
for (const name of names) {
  if (!targets[name]) {
    console.error(`build: unknown target ${name}; one of: ${Object.keys(targets).join(', ')}`);
    process.exit(2);
  }
}
for (const name of names.length > 0 ? names : Object.keys(targets)) {
  for (const options of targets[name]) {
    const result = await esbuild.build({ ...options, write: false });
    for (const output of result.outputFiles) putInPlace(output.path, output.contents);
  }
  for (const [from, to] of copies[name] ?? []) putInPlace(to, fs.readFileSync(from));
}
