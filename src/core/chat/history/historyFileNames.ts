import * as l10n from '@vscode/l10n';
import * as path from 'node:path';
import { isImageFileName } from '../chatImages';

/**
 * The names of a history folder's files, made and recognised in one place (see historyLog.ts for what
 * they hold): `<id>.json` a conversation's log, `<id>.<pid>.stream` the journal of an answer that
 * process `pid` is streaming, `<id>.json.<pid>.tmp` a log being rewritten. The pid in a name tells a
 * live window's file from a crashed one's. `history.index` is the summaries' index (historyIndex.ts),
 * rewritten through `history.index.<pid>.tmp`. `images/<id>/` holds the images attached to a
 * conversation's messages (historyImages.ts), named by their content's hash.
 */

const LOG = /^([\w-]+)\.json$/;
const JOURNAL = /^([\w-]+)\.(\d+)\.stream$/;
const TEMP = /^[\w-]+\.(?:json|index)\.(\d+)\.tmp$/;
const INDEX = 'history.index';

/** The log of a conversation; an id that could reach outside the folder is refused. */
export function logFile(dir: string, id: string): string {
  if (!/^[\w-]+$/.test(id)) throw new Error(l10n.t('Invalid conversation id "{0}"', id));
  return path.join(dir, `${id}.json`);
}

/** The folder of a conversation's images; the id is checked as for its log. */
export function imageFolder(dir: string, id: string): string {
  return path.join(path.dirname(logFile(dir, id)), 'images', id);
}

/** One image of a conversation; only names that chatImages.ts makes (a hash and an extension) are accepted. */
export function imageFile(dir: string, id: string, file: string): string {
  if (!isImageFileName(file)) throw new Error(l10n.t('Invalid image file name "{0}"', file));
  return path.join(imageFolder(dir, id), file);
}

export function indexFile(dir: string): string {
  return path.join(dir, INDEX);
}

export function journalFile(dir: string, id: string, pid: number): string {
  return path.join(dir, `${id}.${pid}.stream`);
}

export function tempFile(log: string, pid: number): string {
  return `${log}.${pid}.tmp`;
}

/** The conversation id of a log's name, or undefined for any other file. */
export function logId(name: string): string | undefined {
  return LOG.exec(name)?.[1];
}

/** The conversation and writing process of a journal's name, or undefined for any other file. */
export function parseJournalName(name: string): { id: string; pid: number } | undefined {
  const match = JOURNAL.exec(name);
  return match ? { id: match[1], pid: Number(match[2]) } : undefined;
}

/** The process that wrote a temporary file, or undefined for any other file. */
export function tempFilePid(name: string): number | undefined {
  const match = TEMP.exec(name);
  return match ? Number(match[1]) : undefined;
}
