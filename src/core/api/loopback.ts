/**
 * Whether a base URL's host name is this machine's loopback interface, the only place plain `http:`
 * may carry a key (it never leaves the machine): `localhost`, the IPv4 block 127.0.0.0/8 and IPv6
 * `::1` (also as an IPv4-mapped address). The one predicate for base URLs: Add Environment, the
 * settings check, Set API Key and the client all ask it through `checkBaseUrl` (baseUrl.ts).
 *
 * `*.localhost` (e.g. `app.localhost`) is not loopback here, deliberately: browsers pin those names
 * to 127.0.0.1, but Node resolves them with the system's resolver, which may pass them to a DNS
 * server that answers with any address, and the key would travel there unencrypted. Use `localhost`
 * or `127.0.0.1` with a port instead. (The local endpoint's Host-header check is another question:
 * which names that server answers under; see localEndpoint/auth.ts.)
 *
 * Takes `URL.hostname` (lower case, IPv4 shorthand such as `127.1` or `0x7f.1` written out, IPv6 in
 * brackets and compressed), and also a bare IPv6 address.
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '');
  if (host === 'localhost') return true;
  if (host === '::1' || host === '0:0:0:0:0:0:0:1') return true;
  const mapped = /^::ffff:(.+)$/.exec(host)?.[1];
  const v4 = mapped ?? host;
  const octets = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(v4);
  if (octets) return octets.slice(1).every((part) => Number(part) <= 255) && Number(octets[1]) === 127;
  // WHATWG URL writes an IPv4-mapped IPv6 address in hex (::ffff:7f00:1).
  const hexMapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(host);
  return hexMapped !== null && parseInt(hexMapped[1], 16) >> 8 === 127;
}
