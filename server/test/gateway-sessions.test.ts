// Which TCP connection a device's commands go down, over real sockets: a connection that only says
// hello with a live device's IMEI captures nothing, a device that reconnects gets its next command
// on its new connection (a watch once the old one has been silent past its rhythm, a GT06 tracker at
// once when its serials go on), and a connection the device contradicts by talking elsewhere is never
// believed.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildWatchFrame, gt06Device, watchContent } from '@wt/protocols';
import { databases, startTestPlatform, type TestPlatform } from './helpers.js';
import { FakeDevice, connectWatch, eventually, watchData } from './gateway-helpers.js';

const QUIET_SECONDS = 3;

describe.each(databases())('device sessions on %s', (kind) => {
  let p: TestPlatform;
  let admin: string;

  beforeAll(async () => {
    p = await startTestPlatform(kind, { GATEWAY_SESSION_QUIET_SECONDS: String(QUIET_SECONDS) });
    admin = (await p.login('admin')).token;
  });
  afterAll(async () => {
    await p?.stop();
  });

  const idOf = async (imei: string) => (await p.deps.database.query<{ id: number }>('SELECT id FROM devices WHERE imei = $1', [imei]))[0]!.id;
  /** The remote address of a client socket as the gateway sees it. */
  const remoteOf = (dev: FakeDevice) => `${dev.socket.localAddress}:${dev.socket.localPort}`;
  const heartRate = async (id: number) => (await p.deps.database.query<{ hr: number }>('SELECT heart_rate AS hr FROM device_state WHERE device_id = $1', [id]))[0]?.hr;
  /** A watch talking on its connection (it holds the device's commands), and a second connection. */
  const deviceAndIntruder = async (imei: string) => {
    const id = await idOf(imei);
    const device = await connectWatch(p.deps.ingest.ports.watch!, imei);
    const intruder = await FakeDevice.connect(p.deps.ingest.ports.watch!);
    await eventually(() => p.deps.ingest.sessions.get(id)?.remote === remoteOf(device));
    return { id, device, intruder };
  };
  /** The intruder says hello with the IMEI, and is answered as any watch is. */
  const hello = async (intruder: FakeDevice, imei: string) => {
    intruder.send(buildWatchFrame('3G', imei, watchContent.lk()));
    await intruder.untilText(`[3G*${imei}*0002*LK]`);
  };
  const command = async (imei: string, code = 'FIND') => (await p.call('/Command/SendCommand', { Imei: imei, Code: code }, admin)).body.Item;

  it('sends a command to the live watch, not to a second connection that said hello with its IMEI', async () => {
    const imei = '865000000000016';
    const warn = vi.spyOn(p.deps.log, 'warn');
    const { id, device, intruder } = await deviceAndIntruder(imei);
    try {
      const seconds = p.deps.ingest.metrics.secondConnections;
      // The device keeps talking; the intruder says hello once.
      await hello(intruder, imei);
      device.send(watchData(imei, 75));
      await eventually(() => p.deps.ingest.metrics.secondConnections === seconds + 1);
      expect(warn).toHaveBeenCalledWith(
        expect.objectContaining({ imei, deviceId: id, remote: remoteOf(intruder), live: [remoteOf(device)] }),
        'a second connection names a device that has a live one',
      );

      const item = await command(imei);
      expect(item.Status).toBe('sent');
      await device.untilText(`[3G*${imei}*0004*FIND]`);
      // A second command goes the same way: the intruder never sees one.
      await command(imei, 'RESET');
      await device.untilText(`[3G*${imei}*0005*RESET]`);
      expect(intruder.text()).not.toContain('FIND');
      expect(intruder.text()).not.toContain('RESET');
    } finally {
      warn.mockRestore();
      device.close();
      intruder.close();
    }
  });

  it('never believes a connection that sent data while the device kept talking on its own', async () => {
    const imei = '865000000000017';
    const { id, device, intruder } = await deviceAndIntruder(imei);
    try {
      const belied = p.deps.ingest.metrics.sessionsBelied;
      await hello(intruder, imei);
      intruder.send(watchData(imei, 80));
      // Wait until the intruder's data frame is stored (its heart rate is the device's latest).
      await eventually(async () => (await heartRate(id)) === 80);
      // The device speaks after the intruder qualified: the intruder is belied.
      device.send(watchData(imei, 76));
      await eventually(() => p.deps.ingest.metrics.sessionsBelied === belied + 1);
      // The intruder keeps talking: still nothing (nor once the device falls silent: device-sessions.test.ts).
      intruder.send(watchData(imei, 81));
      await eventually(async () => (await heartRate(id)) === 81);
      expect(p.deps.ingest.sessions.get(id)?.remote).toBe(remoteOf(device));
      await command(imei);
      await device.untilText(`[3G*${imei}*0004*FIND]`);
      expect(intruder.text()).not.toContain('FIND');
    } finally {
      device.close();
      intruder.close();
    }
  });

  it('sends the next command to a watch on its new connection once the old one is silent past its rhythm', async () => {
    const imei = '865000000000018';
    const id = await idOf(imei);
    const old = await connectWatch(p.deps.ingest.ports.watch!, imei);
    let fresh: FakeDevice | undefined;
    try {
      await eventually(() => p.deps.ingest.sessions.get(id)?.remote === remoteOf(old));
      // A network change: the watch connects again and talks there; the old connection stays half-open.
      fresh = await connectWatch(p.deps.ingest.ports.watch!, imei);
      const reconnectedAt = Date.now();
      const moved = await eventually(() => p.deps.ingest.sessions.get(id)?.remote === remoteOf(fresh!), QUIET_SECONDS * 1000 + 5000);
      expect(moved).toBe(true);
      expect(Date.now() - reconnectedAt).toBeGreaterThanOrEqual(QUIET_SECONDS * 1000 - 500);
      await command(imei);
      await fresh.untilText(`[3G*${imei}*0004*FIND]`);
      expect(old.text()).not.toContain('FIND');
    } finally {
      old.close();
      fresh?.close();
    }
  });

  it('sends the next command to a GT06 tracker on its new connection at once when its serials go on', async () => {
    const imei = '865000000000032';
    const id = await idOf(imei);
    const fix = { time: new Date(), valid: true, lat: 22.54, lon: 113.95, speed: 0, course: 0, satellites: 7 };
    const old = await FakeDevice.connect(p.deps.ingest.ports.gt06!);
    let fresh: FakeDevice | undefined;
    try {
      old.send(gt06Device.login(imei, 1));
      await old.until((b) => b.includes(Buffer.from('787805010001', 'hex')));
      old.send(gt06Device.location(fix, 2));
      await eventually(() => p.deps.ingest.sessions.get(id)?.remote === remoteOf(old));
      // A stranger's login and status with serials of its own: nothing.
      const stranger = await FakeDevice.connect(p.deps.ingest.ports.gt06!);
      stranger.send(gt06Device.login(imei, 1));
      await stranger.until((b) => b.includes(Buffer.from('787805010001', 'hex')));
      stranger.send(gt06Device.heartbeat(2));
      await stranger.until((b) => b.includes(Buffer.from('787805130002', 'hex')));
      expect(p.deps.ingest.sessions.get(id)?.remote).toBe(remoteOf(old));
      stranger.close();
      // The tracker reconnects, its serials going on (a frame lost on the old connection).
      fresh = await FakeDevice.connect(p.deps.ingest.ports.gt06!);
      fresh.send(gt06Device.login(imei, 4));
      await fresh.until((b) => b.includes(Buffer.from('787805010004', 'hex')));
      fresh.send(gt06Device.heartbeat(5));
      await fresh.until((b) => b.includes(Buffer.from('787805130005', 'hex')));
      // No quiet margin to wait for: the new connection has the commands as soon as its status is stored.
      expect(p.deps.ingest.sessions.get(id)?.remote).toBe(remoteOf(fresh));
      await command(imei, 'RESET');
      await fresh.until((b) => b.includes(Buffer.from('RESET#')));
      expect(old.received.includes(Buffer.from('RESET#'))).toBe(false);
    } finally {
      old.close();
      fresh?.close();
    }
  });
});
