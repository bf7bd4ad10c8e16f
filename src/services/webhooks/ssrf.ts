import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { DomainError } from '../../domain/errors.js';

/**
 * Addresses a webhook may not reach unless its endpoint was added with `--allow-private` (SSRF): loopback,
 * link-local, private, unique-local, CGNAT, multicast, unspecified, reserved and documentation ranges, IPv4 and IPv6.
 * An IPv4-mapped IPv6 address (::ffff:127.0.0.1) is judged by its IPv4 address.
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
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  blocked.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  blocked.addSubnet(net, bits, 'ipv6');

/** The IPv4 address inside an IPv4-mapped or -compatible IPv6 address, if it is one. */
function mappedV4(address: string): string | undefined {
  const m = /^::(?:ffff:)?(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (m) return m[1];
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (!hex) return undefined;
  const hi = parseInt(hex[1]!, 16);
  const lo = parseInt(hex[2]!, 16);
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/** Whether an IP address lies in a range a webhook may reach only with --allow-private. */
export function isPrivateAddress(address: string): boolean {
  const plain = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const v4 = isIP(plain) === 4 ? plain : mappedV4(plain);
  if (v4) return blocked.check(v4, 'ipv4');
  return isIP(plain) === 6 ? blocked.check(plain, 'ipv6') : true;
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
