// The PROXY protocol on the device TCP ports: a connection from a listed load balancer starts with
// a v1 or v2 header naming the device's address, which the session then carries; a check of the
// balancer's own (LOCAL, UNKNOWN) keeps the socket's address; a listed balancer that sends no header
// is refused. The reader finds a header's end in a stream that arrives byte by byte. A device's
// allowed networks are checked against the address the header names.
import { Command, IPv4Address, IPv4ProxyAddress, IPv6Address, IPv6ProxyAddress, TransportProtocol, UnspecProxyAddress, V2ProxyProtocol } from 'proxy-protocol-js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildWatchFrame, watchContent } from '@wt/protocols';
import { ProxyHeaderReader } from '../src/gateway/proxy-protocol.js';
import { databases, startTestPlatform, type TestPlatform } from './helpers.js';
import { FakeDevice, eventually, watchData } from './gateway-helpers.js';

const v2 = (src: number[], port: number) =>
  Buffer.from(new V2ProxyProtocol(Command.PROXY, TransportProtocol.STREAM, new IPv4ProxyAddress(IPv4Address.createFrom(src), port, IPv4Address.createFrom([10, 0, 0, 1]), 5093)).build());

describe('the PROXY header reader', () => {
  it('reads v1 and v2 headers split anywhere, with what follows them', () => {
    const lk = Buffer.from('[3G*1234567890*0002*LK]');
    for (const header of [Buffer.from('PROXY TCP4 203.0.113.7 10.0.0.1 40001 5093\r\n'), v2([203, 0, 113, 7], 40001)]) {
      const stream = Buffer.concat([header, lk]);
      const r = new ProxyHeaderReader();
      let out;
      for (let i = 0; i < stream.length && (!out || out.state === 'more'); i++) out = r.push(stream.subarray(i, i + 1));
      expect(out).toMatchObject({ state: 'done', remote: '203.0.113.7:40001', address: '203.0.113.7' });
    }
    const whole = new ProxyHeaderReader().push(Buffer.concat([Buffer.from('PROXY TCP6 2001:db8::5 2001:db8::1 40002 5093\r\n'), lk]));
    expect(whole).toEqual({ state: 'done', remote: '[2001:db8::5]:40002', address: '2001:db8::5', rest: lk });
    const six = new V2ProxyProtocol(
      Command.PROXY,
      TransportProtocol.STREAM,
      new IPv6ProxyAddress(IPv6Address.createFrom([0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 9]), 7, IPv6Address.createWithEmptyAddress(), 5093),
    ).build();
    expect(new ProxyHeaderReader().push(Buffer.from(six))).toMatchObject({ state: 'done', remote: '[2001:db8:0:0:0:0:0:9]:7', address: '2001:db8:0:0:0:0:0:9' });
    // The balancer's own checks: no address of a device.
    expect(new ProxyHeaderReader().push(Buffer.from('PROXY UNKNOWN\r\n'))).toMatchObject({ state: 'done', remote: undefined });
    const local = new V2ProxyProtocol(Command.LOCAL, TransportProtocol.UNSPEC, new UnspecProxyAddress()).build();
    expect(new ProxyHeaderReader().push(Buffer.from(local))).toMatchObject({ state: 'done', remote: undefined });
    // Not a header, a line that never ends, a v1 line that is not one.
    expect(new ProxyHeaderReader().push(lk)).toMatchObject({ state: 'invalid' });
    expect(new ProxyHeaderReader().push(Buffer.from(`PROXY TCP4 ${'9'.repeat(120)}`))).toMatchObject({ state: 'invalid' });
    expect(new ProxyHeaderReader().push(Buffer.from('PROXY TCP4 a b c d\r\n'))).toMatchObject({ state: 'invalid' });
  });
});

describe.each(databases())('PROXY protocol on the device ports on %s', (kind) => {
  let p: TestPlatform;
  const imei = '865000000000001';
  let id = 0;

  beforeAll(async () => {
    p = await startTestPlatform(kind, { PROXY_PROTOCOL_FROM: 'loopback' });
    id = (await p.deps.database.query<{ id: number }>('SELECT id FROM devices WHERE imei = $1', [imei]))[0]!.id;
  });
  afterAll(async () => {
    await p?.stop();
  });

  it('takes the device address from a v1 or v2 header of a listed balancer', async () => {
    for (const [header, remote] of [
      [Buffer.from('PROXY TCP4 203.0.113.7 10.0.0.1 40001 5093\r\n'), '203.0.113.7:40001'],
      [v2([198, 51, 100, 9], 5555), '198.51.100.9:5555'],
    ] as const) {
      const dev = await FakeDevice.connect(p.deps.ingest.ports.watch!);
      try {
        // The header and the device's first frame in one write, as a balancer forwards them.
        dev.send(Buffer.concat([header, buildWatchFrame('3G', imei, watchContent.lk({ steps: 1, tumbles: 0, battery: 90 }))]));
        await dev.untilText(`[3G*${imei}*0002*LK]`);
        dev.send(watchData(imei));
        const session = await eventually(() => (p.deps.ingest.sessions.get(id)?.remote === remote ? p.deps.ingest.sessions.get(id) : undefined));
        expect(session.remote).toBe(remote);
      } finally {
        dev.close();
      }
    }
  });

  it('refuses a connection of a listed balancer that does not start with a header', async () => {
    const before = p.deps.ingest.metrics.malformed;
    const dev = await FakeDevice.connect(p.deps.ingest.ports.watch!);
    dev.send(buildWatchFrame('3G', imei, watchContent.lk({ steps: 1, tumbles: 0, battery: 90 })));
    await dev.waitClosed();
    expect(dev.text()).toBe('');
    expect(p.deps.ingest.metrics.malformed).toBe(before + 1);
  });

  it("checks a device's allowed networks against the address the balancer names", async () => {
    const admin = (await p.login('admin')).token;
    const tracked = '865000000000002';
    const trackedId = (await p.deps.database.query<{ id: number }>('SELECT id FROM devices WHERE imei = $1', [tracked]))[0]!.id;
    expect((await p.call('/Device/EditDevice', { DeviceId: trackedId, AllowedNetworks: ['203.0.113.0/24'] }, admin)).status).toBe(200);
    const warn = vi.spyOn(p.deps.log, 'warn');
    const outsider = await FakeDevice.connect(p.deps.ingest.ports.watch!);
    const inside = await FakeDevice.connect(p.deps.ingest.ports.watch!);
    try {
      // From 198.51.100.9: refused, logged with that address, counted.
      const before = p.deps.ingest.metrics.outsideNetwork;
      outsider.send(Buffer.concat([v2([198, 51, 100, 9], 6000), buildWatchFrame('3G', tracked, watchContent.lk()), watchData(tracked)]));
      await eventually(() => p.deps.ingest.metrics.outsideNetwork === before + 2);
      expect(warn).toHaveBeenCalledWith(expect.objectContaining({ imei: tracked, address: '198.51.100.9', remote: '198.51.100.9:6000' }), 'message refused: the device may not connect from this address');
      expect(outsider.text()).toBe('');
      expect(p.deps.ingest.sessions.has(trackedId)).toBe(false);
      // From 203.0.113.7, inside the list: answered, and its connection carries the device's commands.
      inside.send(Buffer.concat([Buffer.from('PROXY TCP4 203.0.113.7 10.0.0.1 40001 5093\r\n'), buildWatchFrame('3G', tracked, watchContent.lk())]));
      await inside.untilText(`[3G*${tracked}*0002*LK]`);
      inside.send(watchData(tracked));
      await eventually(() => p.deps.ingest.sessions.get(trackedId)?.remote === '203.0.113.7:40001');
      await p.call('/Command/SendCommand', { Imei: tracked, Code: 'FIND' }, admin);
      await inside.untilText(`[3G*${tracked}*0004*FIND]`);
      expect(outsider.text()).toBe('');
    } finally {
      warn.mockRestore();
      outsider.close();
      inside.close();
    }
  });
});
