import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { DomainError } from '../../domain/errors.js';

/**
 * Addresses a webhook may not reach unless its endpoint allows private targets (SSRF): loopback, link-local, private,
 * unique-local, CGNAT, multicast, unspecified, reserved, benchmarking and documentation ranges, IPv4 and IPv6. An IPv6
 * address that carries an IPv4 address (see `embeddedV4`) is judged by that address as well.
 */
const blocked = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  blocked.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  // IPv4-compatible (deprecated; :: and ::1 among them): never a public address
  ['::', 96],
  // NAT64 for a local network (RFC 8215): what it reaches is the network's own
  ['64:ff9b:1::', 48],
  ['100::', 64],
  // Teredo: the addresses inside are obfuscated and the relay on the way is nobody's we know
  ['2001::', 32],
  ['2001:2::', 48],
  ['2001:10::', 28],
  ['2001:20::', 28],
  ['2001:db8::', 32],
  ['3fff::', 20],
  ['5f00::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  blocked.addSubnet(net, bits, 'ipv6');

/** The eight 16-bit groups of an IPv6 address (without brackets or zone), or undefined when it is not one. */
function groupsOf(address: string): number[] | undefined {
  if (isIP(address) !== 6) return undefined;
  let text = address.toLowerCase();
  // a dotted IPv4 tail (::ffff:127.0.0.1) becomes its two groups
  const tail = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (tail) {
    const [a, b, c, d] = tail.slice(1).map(Number) as [number, number, number, number];
    text = text.slice(0, tail.index) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, rest] = text.split('::') as [string, string | undefined];
  const part = (s: string | undefined) => (s ? s.split(':').map((g) => parseInt(g, 16)) : []);
  const left = part(head);
  const right = part(rest);
  return [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
}

const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;

/**
 * The IPv4 addresses an IPv6 address carries and reaches through: IPv4-mapped (::ffff:a.b.c.d), IPv4-translated
 * (::ffff:0:a.b.c.d), the NAT64 well-known prefix (64:ff9b::a.b.c.d) and 6to4 (2002:aabb:ccdd::). A filter that
 * judged only the IPv6 address would let `[::ffff:127.0.0.1]` or `[2002:7f00:1::]` through to loopback.
 */
function embeddedV4(g: number[]): string | undefined {
  const zero = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (zero(0, 5) && g[5] === 0xffff) return v4(g[6]!, g[7]!);
  if (zero(0, 4) && g[4] === 0xffff && g[5] === 0) return v4(g[6]!, g[7]!);
  if (g[0] === 0x64 && g[1] === 0xff9b && zero(2, 6)) return v4(g[6]!, g[7]!);
  if (g[0] === 0x2002) return v4(g[1]!, g[2]!);
  return undefined;
}

/** Whether an IP address lies in a range a webhook may reach only when its endpoint allows private targets. */
export function isPrivateAddress(address: string): boolean {
  const plain = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (isIP(plain) === 4) return blocked.check(plain, 'ipv4');
  const groups = groupsOf(plain);
  if (!groups) return true;
  const inner = embeddedV4(groups);
  return blocked.check(plain, 'ipv6') || (inner !== undefined && blocked.check(inner, 'ipv4'));
}

const refuse = (message: string) => new DomainError('validation', message, [{ path: 'url', message }]);

/** A webhook URL taken apart: http or https, a host, no credentials. */
export function parseWebhookUrl(url: string): URL {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw refuse(`"${url}" is not a URL: expected https://host/path`);
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:')
    throw refuse(`unsupported scheme ${u.protocol} in "${url}": expected https:// or http://`);
  if (u.username || u.password) throw refuse('a webhook URL must not carry a user name or password');
  if (!u.hostname) throw refuse(`"${url}" names no host`);
  return u;
}

export interface ResolvedHost {
  address: string;
  family: 4 | 6;
}

/**
 * Resolves the URL's host (every address) and refuses it when any address is private, unless `allowPrivate`.
 * Called when an endpoint is added and again before every attempt; the attempt then connects to the address checked
 * here, so a name that changes its answer in between (DNS rebinding) cannot slip through.
 */
export async function resolveWebhookHost(url: string, allowPrivate: boolean): Promise<ResolvedHost> {
  const u = parseWebhookUrl(url);
  const host = u.hostname.replace(/^\[|\]$/g, '');
  let addresses: ResolvedHost[];
  if (isIP(host)) addresses = [{ address: host, family: isIP(host) as 4 | 6 }];
  else {
    try {
      addresses = (await lookup(host, { all: true, verbatim: true })) as ResolvedHost[];
    } catch (e) {
      throw refuse(`cannot resolve ${host}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
  }
  if (!addresses.length) throw refuse(`cannot resolve ${host}: no address`);
  if (!allowPrivate) {
    const bad = addresses.find((a) => isPrivateAddress(a.address));
    if (bad)
      throw refuse(
        `${host} resolves to ${bad.address}, a loopback, link-local or private address: refused (add the endpoint with --allow-private to permit it)`,
      );
  }
  return addresses[0]!;
}
