import { isIP } from 'node:net';

/**
 * Which IP addresses a webhook may reach: parsed, never compared as text, so every spelling of an
 * address (`::ffff:127.0.0.1`, `::ffff:7f00:1`, `0:0:0:0:0:ffff:7f00:1`) is the same address.
 * IPv4-mapped and IPv4-compatible IPv6 addresses are judged as the IPv4 address they carry; NAT64
 * (64:ff9b::/96, 64:ff9b:1::/48) and 6to4 (2002::/16) reach IPv4 networks through a gateway and are
 * refused whole.
 */

/** IPv4 ranges that are not the public internet (RFC 6890 special-purpose registry). */
const NON_PUBLIC_V4: [string, number][] = [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, the instance metadata service
  ['172.16.0.0', 12],
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and the broadcast address
];

/** IPv6 ranges that are not the public internet, or that reach IPv4 through a translator. */
const NON_PUBLIC_V6: [string, number][] = [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['64:ff9b::', 96], // NAT64
  ['64:ff9b:1::', 48], // local-use NAT64
  ['100::', 64], // discard-only
  ['2001::', 23], // IETF protocol assignments (Teredo included)
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
];

function v4Bytes(address: string): number[] {
  return address.split('.').map(Number);
}

/** The 16 bytes of an IPv6 address in any textual form (`::` compression, a trailing dotted quad). */
function v6Bytes(address: string): number[] {
  let text = address.toLowerCase().replace(/%.*$/, '');
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted?.[1]) {
    const [a = 0, b = 0, c = 0, d = 0] = v4Bytes(dotted[1]);
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const groups = (part: string) =>
    part === '' ? [] : part.split(':').map((group) => Number.parseInt(group, 16));
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  const words = [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
  return words.flatMap((word) => [word >> 8, word & 0xff]);
}

function inRange(bytes: number[], base: number[], prefix: number): boolean {
  for (let bit = 0; bit < prefix; bit++) {
    const mask = 0x80 >> (bit % 8);
    if (((bytes[bit >> 3] ?? 0) & mask) !== ((base[bit >> 3] ?? 0) & mask)) return false;
  }
  return true;
}

const isZero = (bytes: number[]) => bytes.every((byte) => byte === 0);

/** True when the address is a public unicast address a webhook may be delivered to. */
export function isPublicAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  const family = isIP(bare.replace(/%.*$/, ''));
  if (family === 4) {
    const bytes = v4Bytes(bare);
    return !NON_PUBLIC_V4.some(([base, prefix]) => inRange(bytes, v4Bytes(base), prefix));
  }
  if (family !== 6) return false;
  const bytes = v6Bytes(bare);
  const first10 = bytes.slice(0, 10);
  // ::ffff:a.b.c.d (mapped) and ::a.b.c.d (compatible, deprecated): the IPv4 address they carry.
  if (isZero(first10) && ((bytes[10] === 0xff && bytes[11] === 0xff) || isZero(bytes.slice(10, 12)))) {
    const carried = bytes.slice(12).join('.');
    if (!(isZero(bytes.slice(10, 12)) && isZero(bytes.slice(12, 14)))) return isPublicAddress(carried);
  }
  return !NON_PUBLIC_V6.some(([base, prefix]) => inRange(bytes, v6Bytes(base), prefix));
}
