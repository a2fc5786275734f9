/**
 * Whether a URL host name is this machine's loopback interface: `localhost`, 127.0.0.0/8 or `::1`
 * (also an IPv4-mapped `::ffff:127.x.y.z`). Plain `http:` is allowed only there, because a key sent
 * unencrypted over a loopback connection never leaves the machine.
 *
 * Expects `URL.hostname`, which the WHATWG parser has already normalised: lower case, IPv4 shorthand
 * (`127.1`, `2130706433`) written out, IPv6 in brackets and compressed.
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (host === 'localhost') return true;
  if (/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)) return true;
  const bare = host.replace(/^\[|\]$/g, '');
  if (bare === '::1' || bare === '0:0:0:0:0:0:0:1') return true;
  // ::ffff:127.0.0.1 is written ::ffff:7f00:1 by the URL parser.
  return /^::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}$/.test(bare) || /^::ffff:127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bare);
}

/** Whether `http:` (no TLS) may be used for this URL: only for loopback hosts. https is always fine. */
export function isAllowedProtocol(url: URL): boolean {
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && isLoopbackHost(url.hostname);
}
