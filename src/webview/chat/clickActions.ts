import { describeLinkTarget } from '../../core/chat/protocol/linkTarget';
import type { ErrorActionId } from '../../core/chat/protocol/chatProtocol';
import type { ChatMethod, ChatRequests, ChatResponses } from '../../core/chat/protocol/chatRequests';
import { codeBlockOf } from './codeBlocks';
import type { Composer } from './composer';
import { blockIndexOf, fenceInfoOf } from './fenceInfo';

/** The requests that answer with the composer's chips. */
export type AttachmentMethod = 'attach' | 'attachImage' | 'removeAttachment';

/** What a click in the chat can reach: the host (one request per click), the composer, the messages' text. */
export interface ClickContext {
  call<M extends ChatMethod>(method: M, params: ChatRequests[M]): Promise<{ result: ChatResponses[M] } | undefined>;
  updateAttachments<M extends AttachmentMethod>(method: M, params: ChatRequests[M]): Promise<void>;
  composer: Composer;
  /** The text of a message as received so far (what Copy copies). */
  messageText(messageId: string): string | undefined;
}

/** One delegated listener (capture phase) for every link and `data-action` button in the chat. */
export function routeClick(event: MouseEvent, ctx: ClickContext): void {
  const target = event.target instanceof Element ? event.target : null;
  const link = target?.closest('a');
  if (link) {
    // Never let the webview navigate, and keep the click from VS Code's webview shell too: it opens
    // any clicked link itself (a second open, and mailto without asking). The host decides, once.
    event.preventDefault();
    event.stopPropagation();
    const href = link.getAttribute('href');
    if (href) void ctx.call('openLink', { href });
    return;
  }
  const button = target?.closest<HTMLElement>('[data-action]');
  if (!button) return;
  const messageId = button.closest<HTMLElement>('[data-message-id]')?.dataset.messageId;
  runAction(button, messageId, ctx);
}

function runAction(button: HTMLElement, messageId: string | undefined, ctx: ClickContext): void {
  const action = button.dataset.action;
  const code = codeBlockOf(button);
  const text = messageId ? ctx.messageText(messageId) : undefined;
  switch (action) {
    case 'send': return void ctx.composer.submit();
    case 'stop': return void ctx.call('stop', {});
    case 'pickModel': return ctx.composer.toggleModelMenu();
    case 'attachSelection': return void ctx.updateAttachments('attach', { kind: 'selection' });
    case 'attachFile': return void ctx.updateAttachments('attach', { kind: 'file' });
    case 'attachImage': return void ctx.updateAttachments('attach', { kind: 'image' });
    case 'removeAttachment': return void ctx.updateAttachments('removeAttachment', { id: button.dataset.attachmentId ?? '' });
    case 'newConversation': case 'openHistory': case 'renameConversation': case 'exportMarkdown':
      return void ctx.call(action, {});
    case 'copyCode': return void (code && ctx.call('copyText', { text: code.code }));
    case 'insertCode': return void (code && ctx.call('insertCode', { code: code.code }));
    case 'openInNewFile': return void (code && ctx.call('openInNewFile', { code: code.code, language: code.language }));
    case 'applyCode': {
      if (!code) return;
      const info = text === undefined ? undefined : fenceInfoOf(text, code.code, blockIndexOf(code.pre));
      return void ctx.call('applyCode', { code: code.code, ...(info !== undefined && { info }) });
    }
    case 'copyAnswer': return void (text !== undefined && ctx.call('copyText', { text }));
    case 'regenerate': return void ctx.call('regenerate', {});
    // A comparison's buttons: its columns name themselves (data-column-id), its turn (data-turn-id).
    case 'stopComparison': return void ctx.call('stop', {});
    case 'stopColumn': {
      const columnId = button.closest<HTMLElement>('[data-column-id]')?.dataset.columnId;
      return void (columnId && ctx.call('stopColumn', { columnId }));
    }
    case 'continueWith': {
      const columnId = button.closest<HTMLElement>('[data-column-id]')?.dataset.columnId;
      const turnId = button.closest<HTMLElement>('[data-turn-id]')?.dataset.turnId;
      return void (columnId && turnId && ctx.call('continueWith', { turnId, columnId }));
    }
    case 'exportComparison':
    case 'comparisonUsage': {
      const turnId = button.closest<HTMLElement>('[data-turn-id]')?.dataset.turnId;
      return void (turnId && ctx.call(action, { turnId }));
    }
    case 'compareModels': return ctx.composer.toggleCompareMenu();
    case 'removeComparedModel': return ctx.composer.removeComparedModel(button.dataset.model ?? '');
    case 'cancelComparison': return ctx.composer.clearComparison();
    case 'editLast':
      if (text !== undefined) ctx.composer.startEditing(text);
      return;
    case 'errorAction':
      if (!messageId) return;
      // Models are picked in the panel's own menu; the host answers again once one is picked.
      if (button.dataset.errorAction === 'pickModel') return ctx.composer.pickModelToAnswerAgain(messageId);
      return void ctx.call('errorAction', { messageId, action: button.dataset.errorAction as ErrorActionId });
  }
}

/** The real target of a link (punycode host, a user name before the host) shows on hover, before any click. */
export function showLinkTarget(target: EventTarget | null): void {
  const link = target instanceof Element ? target.closest('a') : null;
  const href = link?.getAttribute('href');
  if (link && href && !link.title) link.title = describeLinkTarget(href);
}
