import * as l10n from '@vscode/l10n';
/**
 * What a link in a model's answer really points at. Model output is untrusted: a link's text, an
 * international host name that looks like another (`аpple.com` with a Cyrillic а) or a user name
 * placed before the host (`https://bank.example@evil.example/`) can all disguise the target. The
 * chat shows this on hover and the host shows it again, with the warnings, before anything opens.
 */
export type LinkScheme = 'http' | 'https' | 'mailto';

export interface LinkTarget {
  scheme: LinkScheme;
  /** The normalised link, host in its ASCII (punycode) form: what is really opened. */
  href: string;
  /** The host for web links, the address(es) for mailto. */
  destination: string;
  /** Reasons to look twice, in plain sentences; empty when nothing is unusual. */
  warnings: string[];
}

export type LinkInspection = { ok: true; target: LinkTarget } | { ok: false; reason: string };

const SCHEMES: Record<string, LinkScheme> = { 'http:': 'http', 'https:': 'https', 'mailto:': 'mailto' };

export function inspectLink(raw: string): LinkInspection {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return { ok: false, reason: l10n.t('This is not a valid link.') };
  }
  const scheme = SCHEMES[url.protocol];
  if (!scheme) return { ok: false, reason: l10n.t('Links with the "{0}" scheme are not opened from the chat.', url.protocol) };
  if (scheme === 'mailto') return inspectMailto(url);
  const warnings: string[] = [];
  if (url.username || url.password) {
    warnings.push(l10n.t('The link puts "{0}" before the host: it goes to {1}, not there.', `${decodeSafely(url.username)}${url.password ? ':…' : ''}`, url.hostname));
    url.username = '';
    url.password = '';
  }
  if (url.hostname.split('.').some((label) => label.startsWith('xn--'))) {
    warnings.push(l10n.t('The host name uses international characters; its real form is {0}.', url.hostname));
  }
  if (/^\d+(\.\d+){3}$/.test(url.hostname) || url.hostname.startsWith('[')) {
    warnings.push(l10n.t('The link goes to a bare IP address ({0}), not a named host.', url.hostname));
  }
  if (scheme === 'http') warnings.push(l10n.t('The link is not encrypted (http).'));
  return { ok: true, target: { scheme, href: url.href, destination: url.host, warnings } };
}

function inspectMailto(url: URL): LinkInspection {
  const recipients = decodeSafely(url.pathname);
  if (!recipients) return { ok: false, reason: l10n.t('This mail link names no address.') };
  const warnings: string[] = [];
  const extra = [...url.searchParams.keys()].filter((key) => key.toLowerCase() !== 'subject');
  if (extra.length > 0) warnings.push(l10n.t('The mail link also fills in {0}: read the message before sending it.', extra.join(', ')));
  return { ok: true, target: { scheme: 'mailto', href: url.href, destination: recipients, warnings } };
}

function decodeSafely(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** One line for a hover: where the link goes, and the first reason to look twice. */
export function describeLinkTarget(raw: string): string {
  const inspection = inspectLink(raw);
  if (!inspection.ok) return inspection.reason;
  const { target } = inspection;
  const where = target.scheme === 'mailto' ? l10n.t('Mail to {0}', target.destination) : target.href;
  return target.warnings.length > 0 ? `${where}\n⚠ ${target.warnings.join('\n⚠ ')}` : where;
}
