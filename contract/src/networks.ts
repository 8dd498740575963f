// The networks a device may connect from (its allowed source networks): single addresses and CIDR
// ranges, IPv4 and IPv6, read and matched with ipaddr.js. The device form checks entries with
// parseNetwork, the server stores them in canonical form and the gateway matches with inNetworks.
import ipaddr from 'ipaddr.js';

/** At most this many entries per device. */
export const MAX_ALLOWED_NETWORKS = 16;
/** Longest entry: a full IPv6 address with a prefix is 43 characters. */
export const MAX_NETWORK_LENGTH = 49;

export type NetworkRange = [ipaddr.IPv4 | ipaddr.IPv6, number];

/**
 * An address (`203.0.113.7`, `2001:db8::1`) or a range (`203.0.113.0/24`, `2001:db8::/32`); null
 * when it is neither. IPv4 only in its four-part decimal form: `10.1` or `0x0a.0.0.1` are refused.
 */
export function parseNetwork(entry: string): NetworkRange | null {
  const e = entry.trim();
  try {
    if (e.includes('/')) {
      if (ipaddr.IPv4.isValidCIDRFourPartDecimal(e)) return ipaddr.IPv4.parseCIDR(e);
      if (ipaddr.IPv6.isValidCIDR(e) && !e.includes('%')) return ipaddr.IPv6.parseCIDR(e);
      return null;
    }
    if (ipaddr.IPv4.isValidFourPartDecimal(e)) return [ipaddr.IPv4.parse(e), 32];
    if (ipaddr.IPv6.isValid(e) && !e.includes('%')) return [ipaddr.IPv6.parse(e), 128];
  } catch {
    // ipaddr.js throws on what its checks let through but cannot parse: not a network.
  }
  return null;
}

/** The canonical text of an entry (the range's first address, IPv6 compressed); null when invalid. */
export function canonicalNetwork(entry: string): string | null {
  const r = parseNetwork(entry);
  if (!r) return null;
  const [addr, bits] = r;
  const full = addr.kind() === 'ipv4' ? 32 : 128;
  if (bits === full && !entry.includes('/')) return addr.toString();
  const base = addr.kind() === 'ipv4' ? ipaddr.IPv4.networkAddressFromCIDR(`${addr.toString()}/${bits}`) : ipaddr.IPv6.networkAddressFromCIDR(`${addr.toString()}/${bits}`);
  return `${base.toString()}/${bits}`;
}

/** The ranges of a stored list (entries that do not parse are left out). */
export function parseNetworks(entries: readonly string[]): NetworkRange[] {
  return entries.map(parseNetwork).filter((r): r is NetworkRange => r !== null);
}

/** Whether an address (an IPv4-mapped IPv6 address counts as its IPv4) lies in one of the ranges. */
export function inNetworks(address: string, ranges: readonly NetworkRange[]): boolean {
  let a: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    a = ipaddr.process(address);
  } catch {
    return false;
  }
  return ranges.some(([net, bits]) => net.kind() === a.kind() && a.match(net, bits));
}
