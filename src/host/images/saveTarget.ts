import vscode = require('vscode');
import { parseImageFolderSetting, workspaceRefusal } from '../../core/images/containment';
import type { SaveResolution } from '../../core/images/imageGeneration';
import { readSetting } from '../shared/config';
import { checkTarget, type SaveTarget } from './imageWriter';

export type TargetResolution = SaveResolution<SaveTarget>;

/** Asks where to save when no folder is open; undefined when the user declines. */
export type ChooseFolder = () => Promise<vscode.Uri | undefined>;

/** The workspace folder of the active editor, else the first one. */
function workspaceFolder(): vscode.WorkspaceFolder | undefined {
  const active = vscode.window.activeTextEditor?.document.uri;
  return (active && vscode.workspace.getWorkspaceFolder(active)) ?? vscode.workspace.workspaceFolders?.[0];
}

function refusalFor(root: vscode.Uri): string | undefined {
  return workspaceRefusal({ trusted: vscode.workspace.isTrusted, writable: vscode.workspace.fs.isWritableFileSystem(root.scheme) });
}

/**
 * Decides where an image will be saved before anything is requested, so that no credits are spent
 * on a result that cannot be kept: untrusted or read-only workspaces and a folder setting that leaves
 * the workspace are refused; without a workspace folder the user picks one.
 */
export async function resolveSaveTarget(chooseFolder: ChooseFolder, here?: vscode.Uri): Promise<TargetResolution> {
  if (here) return resolveChosenFolder(here);
  const folder = workspaceFolder();
  if (!folder) {
    const chosen = await chooseFolder();
    if (!chosen) return { ok: false };
    const refusal = refusalFor(chosen);
    return refusal ? { ok: false, reason: refusal } : { ok: true, target: { root: chosen, folder: chosen } };
  }
  const refusal = refusalFor(folder.uri);
  if (refusal) return { ok: false, reason: refusal, fix: vscode.workspace.isTrusted ? undefined : 'trust' };
  const setting = parseImageFolderSetting(readSetting('inference.images.folder'));
  if (!setting.ok) return { ok: false, reason: setting.problem, fix: 'settings' };
  const target = { root: folder.uri, folder: vscode.Uri.joinPath(folder.uri, ...setting.segments) };
  const problem = await checkTarget(target);
  return problem ? { ok: false, reason: problem, fix: 'settings' } : { ok: true, target };
}

/**
 * "Generate Image Here" on a folder of the Explorer: the same checks, with that folder instead of the
 * setting. It must belong to an open workspace folder, and no existing part of it may lead outside.
 */
async function resolveChosenFolder(here: vscode.Uri): Promise<TargetResolution> {
  const folder = vscode.workspace.getWorkspaceFolder(here);
  if (!folder) return { ok: false, reason: vscode.l10n.t('"{0}" is not inside an open workspace folder, so no image is saved there. Nothing was generated.', here.toString(true)) };
  const refusal = refusalFor(folder.uri);
  if (refusal) return { ok: false, reason: refusal, fix: vscode.workspace.isTrusted ? undefined : 'trust' };
  const target = { root: folder.uri, folder: here };
  const problem = await checkTarget(target);
  return problem ? { ok: false, reason: `${problem} ${vscode.l10n.t('Nothing was generated.')}` } : { ok: true, target };
}

/** The interactive answer to "no folder is open": pick a folder to save into, or open one. */
export async function askForFolder(): Promise<vscode.Uri | undefined> {
  const choose = vscode.l10n.t('Choose Folder…');
  const open = vscode.l10n.t('Open Folder…');
  const choice = await vscode.window.showWarningMessage(vscode.l10n.t('No folder is open. Where should the generated image be saved?'), choose, open);
  if (choice === open) {
    await vscode.commands.executeCommand('vscode.openFolder');
    return undefined;
  }
  if (choice !== choose) return undefined;
  const picked = await vscode.window.showOpenDialog({
    canSelectFiles: false,
    canSelectFolders: true,
    canSelectMany: false,
    openLabel: vscode.l10n.t('Save Images Here'),
    title: vscode.l10n.t('Folder for generated images'),
  });
  return picked?.[0];
}
