// A device's allowed source networks: set by an administrator (checked, stored in canonical form),
// and enforced by the gateway: a frame from elsewhere is not stored, earns no session, is logged
// and counted; a live connection from elsewhere loses the device's commands when the list changes.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildWatchFrame, watchContent } from '@wt/protocols';
import { MAX_ALLOWED_NETWORKS } from '@wt/contract';
import { databases, startTestPlatform, type TestPlatform } from './helpers.js';
import { FakeDevice, connectWatch, eventually, watchData } from './gateway-helpers.js';

describe.each(databases())('allowed source networks of a device on %s', (kind) => {
  let p: TestPlatform;
  let admin: string;

  beforeAll(async () => {
    p = await startTestPlatform(kind);
    admin = (await p.login('admin')).token;
  });
  afterAll(async () => {
    await p?.stop();
  });

  const idOf = async (imei: string) => (await p.deps.database.query<{ id: number }>('SELECT id FROM devices WHERE imei = $1', [imei]))[0]!.id;
  const edit = (id: number, networks: unknown, token = admin) => p.call('/Device/EditDevice', { DeviceId: id, AllowedNetworks: networks }, token);
  const healthCount = async (id: number) => (await p.deps.database.query<{ n: number }>('SELECT count(*)::int AS n FROM health_readings WHERE device_id = $1', [id]))[0]!.n;

  it('are set by an administrator, checked entry by entry and stored in canonical form', async () => {
    const imei = '865000000000045';
    const id = await idOf(imei);
    const bad = await edit(id, ['203.0.113.0/24', '10.0.0.300/8']);
    expect(bad.status).toBe(400);
    expect(bad.body.Fields).toEqual([expect.objectContaining({ Field: 'AllowedNetworks.1', Message: 'device.networkInvalid', Params: { value: '10.0.0.300/8' } })]);
    expect(bad.body.Fields[0].Text).toContain('10.0.0.300/8');
    for (const entry of ['10.1', 'example.com', '2001:db8::/129', '10.0.0.0/33', 'fe80::1%eth0']) {
      expect((await edit(id, [entry])).body.Fields?.[0]).toMatchObject({ Field: 'AllowedNetworks.0', Message: 'device.networkInvalid' });
    }
    const many = Array.from({ length: MAX_ALLOWED_NETWORKS + 1 }, (_, i) => `10.0.${i}.0/24`);
    expect((await edit(id, many)).body.Fields).toEqual([
      expect.objectContaining({ Field: 'AllowedNetworks', Message: 'device.networksTooMany', Params: { max: MAX_ALLOWED_NETWORKS } }),
    ]);
    expect((await edit(id, ['x'.repeat(60)])).body.Fields?.[0]).toMatchObject({ Field: 'AllowedNetworks.0', Message: 'validation.tooLong' });

    const ok = await edit(id, ['203.0.113.9/24', ' 2001:DB8::5/32 ', '198.51.100.7', '203.0.113.0/24']);
    expect(ok.status).toBe(200);
    expect(ok.body.Item).toMatchObject({ Imei: imei, AllowedNetworks: ['203.0.113.0/24', '2001:db8::/32', '198.51.100.7'] });
    expect((await p.call('/Device/DeviceDetail', { Imei: imei }, admin)).body.Item.AllowedNetworks).toEqual(['203.0.113.0/24', '2001:db8::/32', '198.51.100.7']);
    expect((await edit(id, [])).body.Item.AllowedNetworks).toEqual([]);

    // Administrators only, and only devices in reach.
    const clinic = await p.login('clinic01');
    const refused = await edit(await idOf('865000000000001'), ['203.0.113.0/24'], clinic.token);
    expect(refused.status).toBe(403);
    expect((await edit(2_000_000, [])).body).toMatchObject({ State: 404, Message: 'device.notFound' });
  });

  it('refuse frames from elsewhere: not stored, no session, logged and counted', async () => {
    const imei = '865000000000046';
    const id = await idOf(imei);
    expect((await edit(id, ['203.0.113.0/24', '2001:db8::/32'])).status).toBe(200);
    const queued = (await p.call('/Command/SendCommand', { Imei: imei, Code: 'FIND' }, admin)).body.Item;
    expect(queued.Status).toBe('queued');
    const before = { outside: p.deps.ingest.metrics.outsideNetwork, health: await healthCount(id) };
    const warn = vi.spyOn(p.deps.log, 'warn');
    // From 127.0.0.1, outside the list.
    const dev = await FakeDevice.connect(p.deps.ingest.ports.watch!);
    try {
      dev.send(buildWatchFrame('3G', imei, watchContent.lk()));
      dev.send(watchData(imei));
      await eventually(() => p.deps.ingest.metrics.outsideNetwork === before.outside + 2);
      expect(warn).toHaveBeenCalledWith(
        expect.objectContaining({ imei, deviceId: id, address: '127.0.0.1', transport: 'watch' }),
        'message refused: the device may not connect from this address',
      );
      expect(dev.text()).toBe('');
      expect(await healthCount(id)).toBe(before.health);
      expect(p.deps.ingest.sessions.get(id)).toBeUndefined();
      expect((await p.call('/Command/CommandList', { Imei: imei, PageNo: 1, PageCount: 5 }, admin)).body.Items[0]).toMatchObject({ Id: queued.Id, Status: 'queued' });
      // OsmAnd from elsewhere too.
      const osm = await fetch(`${p.url}/osmand?id=${imei}&lat=22.5&lon=114.05&timestamp=${Math.floor(Date.now() / 1000)}`);
      expect(osm.status).toBe(403);
      expect(p.deps.ingest.metrics.outsideNetwork).toBe(before.outside + 3);

      // Allowed from here now: the same connection is answered, stored, and gets the waiting command.
      expect((await edit(id, ['127.0.0.0/8'])).status).toBe(200);
      dev.send(buildWatchFrame('3G', imei, watchContent.lk()));
      await dev.untilText(`[3G*${imei}*0002*LK]`);
      dev.send(watchData(imei));
      await dev.untilText(`[3G*${imei}*0004*FIND]`);
      expect(await healthCount(id)).toBeGreaterThan(before.health);
    } finally {
      warn.mockRestore();
      dev.close();
      await edit(id, []);
    }
  });

  it('take the commands from a live connection outside a list set later', async () => {
    const imei = '865000000000047';
    const id = await idOf(imei);
    const dev = await connectWatch(p.deps.ingest.ports.watch!, imei);
    try {
      await eventually(() => p.deps.ingest.sessions.has(id));
      expect((await edit(id, ['203.0.113.0/24'])).status).toBe(200);
      await eventually(() => !p.deps.ingest.sessions.has(id));
      const item = (await p.call('/Command/SendCommand', { Imei: imei, Code: 'FIND' }, admin)).body.Item;
      expect(item.Status).toBe('queued');
      // Its frames are refused from now on.
      const outside = p.deps.ingest.metrics.outsideNetwork;
      dev.send(watchData(imei));
      await eventually(() => p.deps.ingest.metrics.outsideNetwork === outside + 1);
      expect(p.deps.ingest.sessions.has(id)).toBe(false);
      expect(dev.text()).not.toContain('FIND');
    } finally {
      dev.close();
      await edit(id, []);
    }
  });
});
