import * as l10n from '@vscode/l10n';
import { WEBVIEW_L10N_ATTRIBUTE } from '../../core/chat/protocol/chatProtocol';

/**
 * Configures `l10n.t` with the bundle the host put on the root element, before any text is built.
 * Without one (English, or an unreadable attribute) `l10n.t` returns the English text it is given.
 */
export function configureLocalization(root: HTMLElement): void {
  const raw = root.getAttribute(WEBVIEW_L10N_ATTRIBUTE);
  if (!raw) return;
  try {
    const contents = JSON.parse(raw) as unknown;
    if (contents && typeof contents === 'object') l10n.config({ contents: contents as Record<string, string> });
  } catch {
    // A broken bundle must not cost the user the chat: the text stays English.
  }
}
