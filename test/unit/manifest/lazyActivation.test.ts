import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import { LAZY_COMMANDS } from '../../../src/host/shared/lazyCommands';

const ROOT = path.resolve(__dirname, '..', '..', '..', '..');

/**
 * What activation loads, read from the bundle's own import graph: the modules reachable from
 * src/extension.ts through static imports. A dynamic import (LazyFeature's load) is where the bundle
 * defers a module's top level to first use, so the walk stops there.
 */
async function loadedAtActivation(entry = 'src/extension.ts'): Promise<{ eager: Set<string>; all: string[]; bytes: number }> {
  const { metafile, outputFiles } = await esbuild.build({
    entryPoints: [path.join(ROOT, entry)], absWorkingDir: ROOT, bundle: true, write: false, metafile: true, minify: true,
    platform: 'node', format: 'cjs', external: ['vscode', './undici.js'], alias: { undici: './undici.js' },
    supported: { 'dynamic-import': false }, logLevel: 'silent',
  });
  const eager = new Set<string>();
  const pending = [entry];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (eager.has(file)) continue;
    eager.add(file);
    for (const edge of metafile.inputs[file]?.imports ?? []) {
      if (edge.kind !== 'dynamic-import' && !edge.external) pending.push(edge.path);
    }
  }
  return { eager, all: Object.keys(metafile.inputs), bytes: outputFiles[0]!.contents.length };
}

/** Commands registered in a module's source with a literal id. */
function commandsRegisteredIn(file: string): string[] {
  return [...readFileSync(path.join(ROOT, file), 'utf8').matchAll(/registerCommand\(\s*'(inference\.[A-Za-z]+)'/g)].map((m) => m[1]!);
}

describe('activation loads only what the window shows at once', function () {
  this.timeout(20_000); // one in-memory esbuild of the extension: ~1 s, more on a busy machine
  let graph: Awaited<ReturnType<typeof loadedAtActivation>>;
  before(async () => { graph = await loadedAtActivation(); });

  it('activation is the shell: its own small bundle, which loads none of the extension until activation has returned', async () => {
    const shell = await loadedAtActivation('src/startup.ts');
    const theExtensions = [...shell.all].filter((file) => file.startsWith('src/') && !SHELL_MODULES.has(file));
    assert.deepEqual(theExtensions, [], 'modules of the extension in the shell\'s bundle');
    assert.ok(shell.bytes < 8_000, `the shell's bundle is ${shell.bytes} bytes minified`);
    assert.ok(graph.bytes > 20 * shell.bytes, 'the extension is what the shell defers');
  });

  it('leaves the chat engine and surfaces, the local endpoint, the usage view, image generation and inline suggestions to first use', () => {
    const deferred = [
      'src/host/chat/index.ts', 'src/host/chat/surfaces/chatSurfaces.ts', 'src/core/chat/chatEngine.ts',
      'src/host/localEndpoint/controller.ts', 'src/core/localEndpoint/server.ts',
      'src/host/usage/usagePanel.ts', 'src/host/images/generateImage.ts',
      'src/host/suggestions/index.ts', 'src/core/suggestions/suggester.ts', 'src/core/suggestions/postProcess.ts',
    ];
    for (const file of deferred) {
      assert.ok(graph.all.includes(file), `${file} is in the bundle (the test names a real module)`);
      assert.ok(!graph.eager.has(file), `${file} is not loaded at activation`);
    }
    const eagerChat = [...graph.eager].filter((file) => /^src\/(core|host)\/chat\//.test(file));
    assert.deepEqual(eagerChat.filter((file) => !ALLOWED_EAGER_CHAT.has(file)), [], 'chat modules activation loads');
  });

  it('registers every command of package.json once: at activation, or as a stand-in for its feature', () => {
    const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { contributes: { commands: { command: string }[] } };
    const declared = manifest.contributes.commands.map((c) => c.command).sort();
    const eager = [...graph.eager].filter((f) => f.startsWith('src/')).flatMap(commandsRegisteredIn);
    const lazy = Object.values(LAZY_COMMANDS).flat();
    assert.deepEqual(eager.filter((command) => lazy.includes(command as never)), [], 'no command is both eager and lazy');
    assert.deepEqual([...eager, ...lazy].sort(), declared);
  });
});

/** What the shell (src/startup.ts) is made of: the only source modules in dist/extension.js. */
const SHELL_MODULES = new Set([
  'src/startup.ts', 'src/host/shell/codeCache.ts', 'src/host/shared/statusSnapshot.ts', 'src/host/shell/standIns.ts',
  'src/host/chat/surfaces/chatViewIds.ts', 'src/host/languageModels/vendor.ts',
]);

/**
 * Chat modules the eager code may load: the shell (commands, serializer, view provider, view ids);
 * the settings readers the status bar's settings check uses; and the language-model provider's way to
 * the service (VS Code asks it for models at start-up), none of which runs the chat engine.
 */
const ALLOWED_EAGER_CHAT = new Set([
  'src/host/chat/chatShell.ts', 'src/host/chat/surfaces/chatViewIds.ts',
  'src/core/chat/chatImages.ts', 'src/core/chat/protocol/chatProtocol.ts', 'src/core/chat/attachmentViews.ts',
  'src/core/chat/mentions/mentionText.ts', 'src/core/chat/mentions/sizes.ts', 'src/core/chat/params.ts',
  'src/host/chat/surfaces/chatBackend.ts', 'src/host/chat/chatSettings.ts',
]);
