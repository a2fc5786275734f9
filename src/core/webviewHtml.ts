import * as l10n from '@vscode/l10n';
import { randomBytes } from 'node:crypto';
import { WEBVIEW_L10N_ATTRIBUTE } from './chat/protocol/chatProtocol';

export interface ChatHtmlOptions {
  /** `webview.cspSource` */
  cspSource: string;
  scriptUri: string;
  styleUris: string[];
  /** Fresh per render; tests may pass a fixed one. */
  nonce?: string;
  /** VS Code's runtime-string bundle for the display language (`vscode.l10n.bundle`), for the webview's own text. */
  l10nBundle?: Record<string, string>;
  /** The display language (`vscode.env.language`), for the document's `lang`. */
  language?: string;
}

/** What a page's policy adds to the defaults: the chat shows attached images from `blob:` URLs its script makes. */
interface PolicyAdditions {
  blobImages?: boolean;
}

export function createNonce(): string {
  return randomBytes(18).toString('base64');
}

/**
 * The chat webview's only HTML. The policy allows our own bundle (by nonce), our stylesheets and the
 * codicon font, and nothing else: no inline style or script, no network (`connect-src 'none'`), no
 * frames, no forms, and images only from the extension itself, so model output can never load
 * remote content even if it got past the sanitiser. The chat also allows `blob:` images: the
 * thumbnails of attached images, made by its own script from bytes the host sent (a blob URL names
 * an object of this page only; `data:` stays refused).
 */
export function contentSecurityPolicy(cspSource: string, nonce: string, { blobImages = false }: PolicyAdditions = {}): string {
  return [
    "default-src 'none'",
    `img-src ${cspSource}${blobImages ? ' blob:' : ''}`,
    `style-src ${cspSource}`,
    `font-src ${cspSource}`,
    `script-src 'nonce-${nonce}'`,
    "connect-src 'none'",
    "frame-src 'none'",
    "form-action 'none'",
    "base-uri 'none'",
  ].join('; ');
}

export function chatHtml(options: ChatHtmlOptions): string {
  return webviewHtml({ ...options, rootId: 'chat-root', title: l10n.t('Chat'), blobImages: true });
}

/** The HTML of any of our webviews: one root element, our styles, our bundle by nonce, the policy above. */
export function webviewHtml(options: ChatHtmlOptions & PolicyAdditions & { rootId: string; title: string }): string {
  const nonce = options.nonce ?? createNonce();
  // The bundle travels as an attribute (data, not script, so the policy stays nonce-only); the
  // webview reads it before it builds any text.
  const bundle = options.l10nBundle ? ` ${WEBVIEW_L10N_ATTRIBUTE}="${escapeAttr(JSON.stringify(options.l10nBundle))}"` : '';
  const styles = options.styleUris.map((href) => `<link rel="stylesheet" href="${escapeAttr(href)}">`).join('\n    ');
  return `<!DOCTYPE html>
<html lang="${escapeAttr(options.language ?? 'en')}">
  <head>
    <meta charset="UTF-8">
    <meta http-equiv="Content-Security-Policy" content="${escapeAttr(contentSecurityPolicy(options.cspSource, nonce, options))}">
    <meta name="viewport" content="width=device-width, initial-scale=1.0">
    ${styles}
    <title>${escapeAttr(options.title)}</title>
  </head>
  <body>
    <div id="${escapeAttr(options.rootId)}" class="${escapeAttr(options.rootId)}"${bundle}></div>
    <script nonce="${escapeAttr(nonce)}" src="${escapeAttr(options.scriptUri)}"></script>
  </body>
</html>`;
}

function escapeAttr(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}
