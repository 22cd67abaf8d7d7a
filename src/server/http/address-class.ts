import { isIPv4, isIPv6 } from 'node:net';

/**
 * The network a client address belongs to, as the check log keeps it: an IPv4 address as its
 * /24 (`203.0.113.0/24`), an IPv6 one as its /48 (`2001:db8:1::/48`), a loopback or private one
 * as `local`. The holder learns roughly where a check came from, never who made it.
 */
export function addressClass(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  const ip = mapped ? mapped[1]! : address;
  if (isIPv4(ip)) {
    const [a, b, c] = ip.split('.').map(Number) as [number, number, number];
    const local =
      a === 127 ||
      a === 10 ||
      a === 0 ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      (a === 169 && b === 254) ||
      (a === 100 && b >= 64 && b <= 127);
    return local ? 'local' : `${a}.${b}.${c}.0/24`;
  }
  if (isIPv6(ip)) {
    const groups = expandIPv6(ip);
    const first = groups[0]!;
    const local =
      groups.every((g, i) => (i === 7 ? g <= 1 : g === 0)) || // :: and ::1
      (first & 0xfe00) === 0xfc00 || // unique local fc00::/7
      (first & 0xffc0) === 0xfe80; // link local fe80::/10
    if (local) return 'local';
    return `${groups
      .slice(0, 3)
      .map((g) => g.toString(16))
      .join(':')}::/48`;
  }
  return 'local';
}

/** The eight 16-bit groups of an IPv6 address (a zone index and a dotted tail taken in). */
function expandIPv6(address: string): number[] {
  let text = address.split('%')[0]!.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1]!.split('.').map(Number) as [number, number, number, number];
    text =
      text.slice(0, -dotted[1]!.length) +
      `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const missing = 8 - left.length - right.length;
  const all = tail === undefined ? left : [...left, ...Array<string>(missing).fill('0'), ...right];
  return all.map((g) => parseInt(g || '0', 16));
}
