import vscode = require('vscode');
import {
  comparisonsIn, exportComparisonMarkdown, parseExportComparisonArgs, recentComparisons, type ComparisonRef, type ComparisonSources,
} from '../../core/chat/comparison/comparisonReport';
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
  let ref: Pick<ComparisonRef, 'conversationId' | 'turnId'> | undefined;
  if (args.conversationId !== undefined) {
    const conversation = await sources.conversation(args.conversationId);
    if (!conversation) throw new Error(vscode.l10n.t('That conversation is not in the chat history.'));
    ref = args.turnId !== undefined ? { conversationId: conversation.id, turnId: args.turnId } : await pickComparison(comparisonsIn(conversation));
  } else {
    ref = await pickComparison(await recentComparisons(sources));
  }
  if (!ref) return undefined;
  const conversation = await sources.conversation(ref.conversationId);
  if (!conversation) throw new Error(vscode.l10n.t('That conversation is not in the chat history.'));
  return openInNewFile(exportComparisonMarkdown(conversation, ref.turnId), 'markdown');
}

/** The one comparison there is, or the user's pick; undefined (and said so) when there is none. */
async function pickComparison(refs: readonly ComparisonRef[]): Promise<ComparisonRef | undefined> {
  if (!refs.length) {
    void vscode.window.showInformationMessage(vscode.l10n.t('No comparison found in the conversations shown or the recent chat history.'));
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
