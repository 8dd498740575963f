// The PROXY protocol (v1 text, v2 binary) on the device TCP ports, for connections from the load
// balancers listed in PROXY_PROTOCOL_FROM (HAProxy `send-proxy` / `send-proxy-v2`): the header
// before the device's first byte names the device's own address, which the connection then logs
// and reports as its remote. A connection from a listed proxy must start with a header (it is
// closed otherwise, as HAProxy's own `accept-proxy` does); from anywhere else nothing is read as a
// header, so a device cannot claim another address. The headers are parsed by proxy-protocol-js;
// this reader only finds where a header ends in the stream.
import { Command, IPv4ProxyAddress, IPv6ProxyAddress, V1ProxyProtocol, V2ProxyProtocol } from 'proxy-protocol-js';

const V2_SIGNATURE = Buffer.from([0x0d, 0x0a, 0x0d, 0x0a, 0x00, 0x0d, 0x0a, 0x51, 0x55, 0x49, 0x54, 0x0a]);
const V1_SIGNATURE = Buffer.from('PROXY ', 'latin1');
/** A v1 line is at most 107 bytes with its CRLF. */
const V1_MAX = 107;
/** v2 headers carry TLVs after the addresses; more than this is not a header we accept. */
const V2_MAX = 1024;

export type ProxyRead =
  /** More bytes are needed. */
  | { state: 'more' }
  /**
   * The header was read: the device's address and port as `remote`, its IP alone as `address`
   * (both undefined: a proxy's own check, `LOCAL` or `UNKNOWN`), and what followed it.
   */
  | { state: 'done'; remote: string | undefined; address?: string; rest: Buffer }
  | { state: 'invalid'; reason: string };

function ipv6Text(bytes: readonly number[]): string {
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(((bytes[i]! << 8) | bytes[i + 1]!).toString(16));
  return groups.join(':');
}

/** An address with its port as the gateway logs it (`[v6]:port`), and the address alone. */
function withPort(address: string, port: number): { remote: string; address: string } {
  return { remote: address.includes(':') ? `[${address}]:${port}` : `${address}:${port}`, address };
}

/** Reads the PROXY header at the start of a stream, chunk by chunk. */
export class ProxyHeaderReader {
  private buf: Buffer = Buffer.alloc(0);

  push(chunk: Buffer): ProxyRead {
    this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : chunk;
    const b = this.buf;
    const prefix = (sig: Buffer) => b.subarray(0, Math.min(b.length, sig.length)).equals(sig.subarray(0, Math.min(b.length, sig.length)));
    if (prefix(V2_SIGNATURE)) {
      if (b.length < 16) return { state: 'more' };
      const total = 16 + b.readUInt16BE(14);
      if (total > V2_MAX) return { state: 'invalid', reason: `PROXY v2 header of ${total} bytes` };
      if (b.length < total) return { state: 'more' };
      try {
        const h = V2ProxyProtocol.parse(new Uint8Array(b.subarray(0, total)));
        const a = h.proxyAddress;
        const rest = b.subarray(total);
        if (h.command === Command.PROXY && a instanceof IPv4ProxyAddress) return { state: 'done', ...withPort(a.sourceAddress.address.join('.'), a.sourcePort), rest };
        if (h.command === Command.PROXY && a instanceof IPv6ProxyAddress) return { state: 'done', ...withPort(ipv6Text(a.sourceAddress.address), a.sourcePort), rest };
        return { state: 'done', remote: undefined, rest };
      } catch (err) {
        return { state: 'invalid', reason: `PROXY v2 header: ${(err as Error).message}` };
      }
    }
    if (prefix(V1_SIGNATURE)) {
      const end = b.indexOf('\r\n', 0, 'latin1');
      if (end < 0) return b.length >= V1_MAX ? { state: 'invalid', reason: 'PROXY v1 line without its end' } : { state: 'more' };
      if (end + 2 > V1_MAX) return { state: 'invalid', reason: 'PROXY v1 line too long' };
      const line = b.subarray(0, end + 2).toString('latin1');
      const rest = b.subarray(end + 2);
      if (line.startsWith('PROXY UNKNOWN')) return { state: 'done', remote: undefined, rest };
      try {
        const h = V1ProxyProtocol.parse(line);
        return { state: 'done', ...withPort(h.source.ipAddress, h.source.port), rest };
      } catch (err) {
        return { state: 'invalid', reason: `PROXY v1 line: ${(err as Error).message}` };
      }
    }
    return { state: 'invalid', reason: 'no PROXY header from a proxy that must send one' };
  }
}
