import * as path from 'node:path';
import vscode = require('vscode');
import { runWithCodeCache } from './host/shell/codeCache';
import type { OpenedExtension, ShellHandover } from './host/shell/handover';
import { drawStatusSnapshots, readStatusSnapshots } from './host/shared/statusSnapshot';
import { contributedCommands, registerChatSurfaces, registerCommandStandIns, registerLanguageModelStandIn } from './host/shell/standIns';

/**
 * The extension's entry (package.json `main`, dist/extension.js): the shell. Activation shows what the
 * window shows at once — the status-bar items as the last window left them — and registers every
 * command and the language model provider as stand-ins. The extension itself (dist/main.js, the
 * bundle of src/extension.ts: services, account, the status bar's live state, the features'
 * registrations) loads right after activation returns, or at once when a stand-in is used first,
 * with the chat's panel serializer and side-bar view; it runs through V8's code cache
 * (host/shell/codeCache.ts).
 */

type Extension = typeof import('./extension');
type TestApi = NonNullable<ReturnType<Extension['activate']>['testApi']>;

interface Loaded {
  readonly extension: Extension;
  readonly opened: OpenedExtension<TestApi>;
}

/** How long loading the extension took, after activation (the activation benchmark reports it beside activation). */
export interface ExtensionLoadTiming {
  /** Registering the chat's panel serializer and side-bar view, then running dist/main.js (compiling it from the code cache and its top level). */
  loadMs: number;
  /** The extension's activate(). */
  activateMs: number;
  /** The shell's own activation, by part: what activation is now. */
  shell: { statusItemsMs: number; commandsMs: number; languageModelsMs: number };
}

let loaded: Loaded | undefined;
let markLoaded: (timing: ExtensionLoadTiming) => void = () => undefined;
const whenLoaded = new Promise<ExtensionLoadTiming>((resolve) => { markLoaded = resolve; });

export function activate(context: vscode.ExtensionContext): Promise<TestApi | undefined> | undefined {
  const marks = [performance.now()];
  const drawnStatusItems = drawStatusSnapshots(readStatusSnapshots(context.globalState));
  marks.push(performance.now());
  const standIns = registerCommandStandIns(contributedCommands(context.extension), load);
  marks.push(performance.now());
  const languageModels = registerLanguageModelStandIn(() => load().opened.languageModels);
  marks.push(performance.now());
  const shell = { statusItemsMs: marks[1]! - marks[0]!, commandsMs: marks[2]! - marks[1]!, languageModelsMs: marks[3]! - marks[2]! };
  context.subscriptions.push(...(languageModels ? [languageModels] : []),
    { dispose: () => { for (const standIn of standIns.splice(0)) standIn.dispose(); } });

  function load(): Loaded {
    if (loaded) return loaded;
    const started = performance.now();
    // Not in activate(), where they were most of its own time (3.5 of 4.3 ms by the activation
    // bench's parts): VS Code holds a panel restored with the window, or the side-bar view shown,
    // until its serializer or provider registers, and this runs in the task after activation.
    context.subscriptions.push(registerChatSurfaces(() => load().opened.chat));
    const bundle = runWithCodeCache<Extension>(path.join(__dirname, 'main.js'), path.join(context.globalStorageUri.fsPath, 'code-cache'), require);
    const activating = performance.now();
    // One task: the stand-ins go and the extension's own registrations come, with nothing between.
    for (const standIn of standIns.splice(0)) standIn.dispose();
    const handover: ShellHandover = { drawnStatusItems, languageModelsRegistered: languageModels !== undefined };
    loaded = { extension: bundle.exports, opened: bundle.exports.activate(context, handover) };
    const activated = performance.now();
    languageModels?.connect();
    // After its activate(): the cache then also holds the functions activation compiled.
    if (!bundle.cached) setImmediate(() => bundle.saveCache());
    markLoaded({ loadMs: activating - started, activateMs: activated - activating, shell });
    return loaded;
  }

  // Not inside activate(): VS Code counts that as this extension's activation, and other extensions
  // starting with the window wait on it. The extension loads in the next task.
  const loading = new Promise<Loaded>((resolve) => setImmediate(() => resolve(load())));
  return context.extensionMode === vscode.ExtensionMode.Test ? loading.then(({ opened }) => opened.testApi) : undefined;
}

/** Resolves once the extension has loaded, with how long that took (the activation benchmark's wrapper reads it). */
export function extensionLoaded(): Promise<ExtensionLoadTiming> {
  return whenLoaded;
}

export function deactivate(): Promise<void> | undefined {
  return loaded?.extension.deactivate();
}
