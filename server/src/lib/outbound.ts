// Outbound HTTP to addresses a user or an operator sets (partner push, the SMS gateways): only to
// public internet addresses, unless the platform's OUTBOUND_ALLOW names the network. The host is
// resolved once per connection and the connection goes to exactly the addresses that were checked
// (a lookup of our own handed to the socket), so a name that answers differently the second time
// (DNS rebinding) gains nothing; the Host header and the TLS server name stay the URL's. Redirects
// are never followed: a 3xx is the answer.
import { promises as dns, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { Logger } from 'pino';
import { Agent, buildConnector, fetch, type RequestInit, type Response } from 'undici';
import { addressMatcher } from './addresses.js';

/** Every address a host name resolves to. */
export type HostLookup = (hostname: string) => Promise<LookupAddress[]>;

export const systemLookup: HostLookup = (hostname) => dns.lookup(hostname, { all: true });

/**
 * The special-purpose range (ipaddr.js's name: loopback, private, linkLocal, uniqueLocal,
 * carrierGradeNat, unspecified, multicast, broadcast, reserved …) an address belongs to, or
 * undefined for a public unicast address. IPv4 inside IPv6 (mapped ::ffff:a.b.c.d, and the
 * deprecated compatible ::a.b.c.d) is judged as the IPv4 address it carries.
 */
export function specialRange(address: string): string | undefined {
  if (!ipaddr.isValid(address)) return 'invalid';
  let a = ipaddr.parse(address);
  if (a.kind() === 'ipv6') {
    const v6 = a as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) a = v6.toIPv4Address();
    else if (v6.range() === 'unicast' && v6.match(IPV4_COMPATIBLE)) a = ipaddr.fromByteArray(v6.toByteArray().slice(12));
  }
  const range = a.range();
  return range === 'unicast' ? undefined : range;
}

const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96');

/** An address the platform does not connect to. `message` names the host only, never the address or its range. */
export class OutboundRefused extends Error {
  constructor(
    readonly host: string,
    readonly address: string,
    readonly range: string,
  ) {
    super(`refused: ${host} is not a public internet address (requests to internal networks are not sent)`);
    this.name = 'OutboundRefused';
  }
}

/** The reason of an HTTP answer that is not a success, for a delivery log. */
export function httpFailure(status: number): string {
  return status >= 300 && status < 400 ? `HTTP ${status}: redirects are not followed` : `HTTP ${status}`;
}

export interface OutboundOptions {
  /** Networks reached although not public (OUTBOUND_ALLOW: addresses, CIDR ranges, range names). */
  allow: string[];
  lookup?: HostLookup;
  /** Where refusals are told with the address and its range (the error names the host only). */
  log?: Logger;
}

export interface Outbound {
  /** Why the URL's host may not be reached (every address it resolves to is checked); undefined when it may, or when it cannot be resolved now. */
  refusal(url: string): Promise<OutboundRefused | undefined>;
  /** fetch, connected only to checked addresses, redirects answered as they are; throws OutboundRefused. */
  fetch(url: string | URL, init?: Omit<RequestInit, 'dispatcher' | 'redirect'>): Promise<Response>;
  close(): Promise<void>;
}

const unbracket = (host: string) => (host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host);

/** Judges addresses against the allowed networks: the refusal, or undefined when the address may be reached. */
function refuser(allow: string[]): (host: string, address: string) => OutboundRefused | undefined {
  const allowed = addressMatcher(allow);
  return (host, address) => {
    if (allowed(ipaddr.isValid(address) ? ipaddr.process(address).toString() : address)) return undefined;
    const range = specialRange(address);
    return range ? new OutboundRefused(host, address, range) : undefined;
  };
}

/** For the configuration, where nothing is resolved yet: the refusal of a URL whose host is an IP address. */
export function literalRefusal(url: string, allow: string[]): OutboundRefused | undefined {
  const host = unbracket(new URL(url).hostname);
  return isIP(host) ? refuser(allow)(host, host) : undefined;
}

export function createOutbound(opts: OutboundOptions): Outbound {
  const judge = refuser(opts.allow);
  const refused = (host: string, address: string) => {
    const refusal = judge(host, address);
    if (refusal) opts.log?.warn({ host, address, range: refusal.range }, 'outbound request refused: not a public address (OUTBOUND_ALLOW)');
    return refusal;
  };
  const lookup = opts.lookup ?? systemLookup;

  /** The host's addresses, every one checked: a name with one internal address is refused whole. */
  const resolve = async (host: string): Promise<LookupAddress[]> => {
    const literal = isIP(host);
    const addresses = literal ? [{ address: host, family: literal }] : await lookup(host);
    if (!addresses.length) throw Object.assign(new Error(`${host} has no address`), { code: 'ENOTFOUND' });
    for (const a of addresses) {
      const refusal = refused(host, a.address);
      if (refusal) throw refusal;
    }
    return addresses;
  };

  // net.connect / tls.connect call this once per connection and connect to what it answers.
  const socketLookup: LookupFunction = (host, o, cb) => {
    resolve(host).then(
      (list) => {
        if (o.all) return cb(null, list);
        const a = list.find((x) => !o.family || x.family === o.family) ?? list[0]!;
        cb(null, a.address, a.family);
      },
      (err: Error) => cb(err, ''),
    );
  };
  const connector = buildConnector({ lookup: socketLookup });
  // An IP literal is connected to without a lookup: it is checked here.
  const agent = new Agent({
    connect: (o, cb) => {
      const host = unbracket(o.hostname);
      const refusal = isIP(host) ? refused(host, host) : undefined;
      if (refusal) queueMicrotask(() => cb(refusal, null));
      else connector(o, cb);
    },
  });

  return {
    async refusal(url) {
      let host: string;
      try {
        host = unbracket(new URL(url).hostname);
      } catch {
        return undefined;
      }
      try {
        await resolve(host);
        return undefined;
      } catch (err) {
        return err instanceof OutboundRefused ? err : undefined;
      }
    },
    async fetch(url, init = {}) {
      try {
        return await fetch(url, { ...init, redirect: 'manual', dispatcher: agent });
      } catch (err) {
        const cause = (err as { cause?: unknown }).cause;
        throw cause instanceof OutboundRefused ? cause : err;
      }
    },
    close: () => agent.close(),
  };
}
