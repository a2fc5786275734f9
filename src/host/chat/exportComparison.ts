import vscode = require('vscode');
import {
  comparisonsIn, exportComparisonMarkdown, parseExportComparisonArgs, recentComparisons, type ComparisonRef, type ComparisonSources,
} from '../../core/chat/comparison/comparisonReport';
import type { Conversation } from '../../core/chat/conversation';
import { openInNewFile } from './context/editorContext';

/**
 * "Inference: Export Comparison": one comparison as a Markdown report (core/chat/comparison/comparisonReport.ts),
 * opened as a new document, as the conversation's export is, for the user to save where they choose.
 * With `{ conversationId, turnId }` (the chat's call) it exports that turn; with a conversation alone,
 * its one comparison or a pick of its comparisons; with nothing, a pick of the comparisons in the
 * conversations shown and the most recent ones of the history. Resolves to the document, or undefined
 * when the user picked none.
 */
export async function exportComparison(sources: ComparisonSources, rawArgs: unknown): Promise<vscode.TextDocument | undefined> {
  const args = parseExportComparisonArgs(rawArgs);
  const load = async (id: string) => {
    const conversation = await sources.conversation(id);
    if (!conversation) throw new Error(vscode.l10n.t('That conversation is not in the chat history.'));
    return conversation;
  };
  let conversation: Conversation;
  let turnId: string | undefined;
  if (args.conversationId !== undefined) {
    conversation = await load(args.conversationId);
    turnId = args.turnId ?? (await pickComparison(comparisonsIn(conversation), vscode.l10n.t('This conversation has no comparison.')))?.turnId;
  } else {
    const ref = await pickComparison(await recentComparisons(sources), vscode.l10n.t('No comparison found in the conversations shown or the recent chat history.'));
    if (!ref) return undefined;
    // Read again: the pick may have stayed open while the conversation went on.
    conversation = await load(ref.conversationId);
    turnId = ref.turnId;
  }
  return turnId === undefined ? undefined : openInNewFile(exportComparisonMarkdown(conversation, turnId), 'markdown');
}

/** The one comparison there is, or the user's pick; undefined (and `none` said) when there is none. */
async function pickComparison(refs: readonly ComparisonRef[], none: string): Promise<ComparisonRef | undefined> {
  if (!refs.length) {
    void vscode.window.showInformationMessage(none);
    return undefined;
  }
  if (refs.length === 1) return refs[0];
  const picked = await vscode.window.showQuickPick(refs.map((ref) => ({
    ref,
    label: ref.prompt.split('\n')[0]?.trim() || vscode.l10n.t('(no text)'),
    description: ref.models.join(' · '),
    detail: `${ref.conversationTitle} · ${new Date(ref.createdAt).toLocaleString()}`,
  })), { title: vscode.l10n.t('Export Comparison'), placeHolder: vscode.l10n.t('Pick the comparison to export'), matchOnDescription: true, matchOnDetail: true });
  return picked?.ref;
}

/** After a conversation's export: its comparisons can also go to a report of their own. */
export async function offerComparisonExport(conversationId: string): Promise<void> {
  const exportOne = vscode.l10n.t('Export Comparison…');
  const choice = await vscode.window.showInformationMessage(vscode.l10n.t('This conversation has comparisons: export one as a report with its figures?'), exportOne);
  if (choice === exportOne) await vscode.commands.executeCommand('inference.exportComparison', { conversationId });
}
