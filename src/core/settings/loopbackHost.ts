/**
 * Whether a URL's host name is the local machine: `localhost` (and `*.localhost`, which resolvers map
 * to loopback), the IPv4 block 127.0.0.0/8 and IPv6 `::1` (also as an IPv4-mapped address).
 * Plain http is acceptable only there, because nothing leaves the machine.
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (host === '::1' || host === '0:0:0:0:0:0:0:1') return true;
  const mapped = /^::ffff:(.+)$/.exec(host)?.[1];
  const v4 = mapped ?? host;
  const octets = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(v4);
  if (octets) return octets.slice(1).every((part) => Number(part) <= 255) && Number(octets[1]) === 127;
  // WHATWG URL writes an IPv4-mapped IPv6 address in hex (::ffff:7f00:1).
  const hexMapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(host);
  return hexMapped !== null && parseInt(hexMapped[1], 16) >> 8 === 127;
}
