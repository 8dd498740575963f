// Lists of network addresses from the configuration (TRUSTED_PROXIES, METRICS_ALLOW): single
// addresses, CIDR ranges, or the names proxy-addr (Fastify's trustProxy) knows for common ranges.
import { BlockList, isIP } from 'node:net';

export const NAMED_RANGES: Record<string, string[]> = {
  loopback: ['127.0.0.1/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

/** Why an entry is not an address, a range or a known name; undefined when it is one. */
export function addressEntryError(entry: string): string | undefined {
  if (NAMED_RANGES[entry]) return undefined;
  const [addr, bits, extra] = entry.split('/');
  const family = isIP(addr ?? '');
  if (!family || extra !== undefined) return `"${entry}" is not an IP address, a CIDR range or one of ${Object.keys(NAMED_RANGES).join(', ')}`;
  if (bits === undefined) return undefined;
  const n = Number(bits);
  if (!/^\d+$/.test(bits) || n > (family === 4 ? 32 : 128)) return `"${entry}" has a wrong prefix length`;
  return undefined;
}

/** Splits a comma-separated list; `none` is the empty list. */
export function splitAddressList(value: string): string[] {
  const list = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return list.length === 1 && list[0] === 'none' ? [] : list;
}

/** The IPv4 address inside an IPv4-mapped IPv6 address (::ffff:10.0.0.1), else the address. */
export function plainAddress(ip: string): string {
  const m = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  return m ? m[1]! : ip;
}

/** A matcher for a list of entries (checked with addressEntryError first). */
export function addressMatcher(entries: string[]): (ip: string | undefined) => boolean {
  const list = new BlockList();
  for (const e of entries.flatMap((x) => NAMED_RANGES[x] ?? [x])) {
    const [addr, bits] = e.split('/');
    const type = isIP(addr!) === 6 ? 'ipv6' : 'ipv4';
    if (bits === undefined) list.addAddress(addr!, type);
    else list.addSubnet(addr!, Number(bits), type);
  }
  return (ip) => {
    if (!ip) return false;
    const a = plainAddress(ip);
    const family = isIP(a);
    return family !== 0 && list.check(a, family === 6 ? 'ipv6' : 'ipv4');
  };
}

export const isLoopback = addressMatcher(['loopback']);

/**
 * Whether a request says it was forwarded (X-Forwarded-For) by a peer that is not a trusted proxy:
 * its real client is unknown, so it gets nothing the peer's own address would get.
 */
export function forwardedByUntrusted(request: { ip: string; headers: Record<string, unknown>; socket: { remoteAddress?: string } }): boolean {
  if (!request.headers['x-forwarded-for']) return false;
  return plainAddress(request.ip) === plainAddress(request.socket.remoteAddress ?? '');
}
