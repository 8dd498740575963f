// Master-slave bindings: the calls with good and bad input and the subtree scope, one master per
// slave; a slave walks away from its master (its scans stop naming it) and the separation alarm
// comes once on the master, then "back" when heard again; a slave that is a tag device is placed at
// its master's position while heard.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALARM_CODES as C } from '@wt/contract';
import type { DeviceMessage } from '@wt/protocols';
import { separationWatches } from '../src/modules/master-slave/watch.js';
import { rows } from '../src/lib/sql.js';
import { addDevice, engineOf, type TestDevice } from './alarm-fixtures.js';
import { databases, startTestPlatform, type TestPlatform } from './helpers.js';
import { positionTenants } from './position-fixtures.js';

type Fields = { Fields?: { Field: string; Message: string }[] };

describe.each(databases())('master-slave binding on %s', (kind) => {
  let p: TestPlatform;
  let agent: string;
  let operator: string;
  let n = 0;
  const fields = (body: Fields) => (body.Fields ?? []).map((f) => [f.Field, f.Message]);

  beforeAll(async () => {
    p = await startTestPlatform(kind);
    // The binding page and its calls are the administrators' (SPEC §6): agent01 and operator01 administer their branches.
    ({ agent, operator } = await positionTenants(p));
  });
  afterAll(() => p?.stop());

  it('refuses every binding call to an account that is not an administrator, as its page is', async () => {
    const editor = (await p.login('clinic01')).token;
    const m = await device();
    for (const [path, body] of [
      ['/Bluetooth/addBTMasterSlaveInfo', { Imei: m.imei, Slaves: [{ Mac: 'AC:23:3F:D0:0F:01' }], TimeoutSeconds: 120 }],
      ['/Bluetooth/updateMasterSlaveInfo', { BindingId: 1, Imei: m.imei, Slaves: [{ Mac: 'AC:23:3F:D0:0F:01' }], TimeoutSeconds: 120 }],
      ['/Bluetooth/updateMasterSlaveDel', { BindingIds: [1] }],
      ['/Bluetooth/allMasterSlaveList', {}],
      ['/Bluetooth/searchMasterSlaveListById', { Imei: m.imei }],
      ['/Bluetooth/bindDeviceListByUserId', {}],
    ] as const) {
      const r = await p.call(path, body, editor);
      expect([path, r.status, r.body.Message]).toEqual([path, 403, 'common.forbidden']);
    }
    expect((await p.call('/Bluetooth/allMasterSlaveList', {}, agent)).status).toBe(200);
  });

  const device = () => addDevice(p, 'clinic01', `86520000000${1000 + ++n}`, `妈妈${n}`);
  const settle = async () => {
    await separationWatches.get(p.deps)!.settled();
    await engineOf(p).idle();
  };
  const send = async (m: DeviceMessage) => {
    await p.deps.ingest.ingest([m], { transport: 'indoor', remote: 'test', mode: 'short' });
    await settle();
  };
  /** The master's scan, hearing the MACs given. */
  const scan = (d: TestDevice, time: number, ...macs: string[]) =>
    send({ deviceId: d.imei, protocol: 'uplink', kind: 'beacon', type: 'scan', time: new Date(time), beacon: { kind: 'ble', beacons: macs.map((mac) => ({ mac, rssi: -70 })) } });
  const alarms = async (d: TestDevice) => {
    const r = await p.call('/ExceptionMessage/allExceptionMsgPage', { Imei: d.imei, Type: [C.slaveSeparated, C.slaveBack], PageCount: 50 }, agent, { 'accept-language': 'en' });
    return (r.body.Items as { Type: number; Message: string; Count: number }[]).map((a) => [a.Type, a.Message, a.Count]).sort();
  };

  it('binds, lists, searches, rebinds and deletes, each check naming its field', async () => {
    const m = await device();
    const other = await device();
    const made = await p.call('/Bluetooth/addBTMasterSlaveInfo', { Imei: m.imei, Slaves: [{ Mac: 'ac233fd00001', Name: 'Bag' }, { Mac: 'AC-23-3F-D0-00-02' }], TimeoutSeconds: 120 }, agent);
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const id = made.body.BindingId as number;
    const listed = await p.call('/Bluetooth/allMasterSlaveList', { Keyword: 'AC:23:3F:D0:00:02' }, agent);
    expect(listed.body.Total).toBe(1);
    expect(listed.body.Items[0]).toMatchObject({ BindingId: id, Imei: m.imei, AccountName: 'clinic01', TimeoutSeconds: 120 });
    expect(listed.body.Items[0].Slaves.map((s: { Mac: string; Name: string; Separated: boolean }) => [s.Mac, s.Name, s.Separated])).toEqual([
      ['AC:23:3F:D0:00:01', 'Bag', false],
      ['AC:23:3F:D0:00:02', '', false],
    ]);
    expect((await p.call('/Bluetooth/searchMasterSlaveListById', { Imei: m.imei }, agent)).body.Item.BindingId).toBe(id);
    const cands = await p.call('/Bluetooth/bindDeviceListByUserId', { Keyword: m.imei }, agent);
    expect(cands.body.Items).toEqual([{ DeviceId: m.id, Imei: m.imei, Name: m.name, Bound: true }]);

    const cases: [string, Record<string, unknown>, string, string][] = [
      ['/Bluetooth/addBTMasterSlaveInfo', { Imei: '123', Slaves: [{ Mac: 'AC:23:3F:D0:00:09' }] }, 'Imei', 'validation.imeiInvalid'],
      ['/Bluetooth/addBTMasterSlaveInfo', { Imei: other.imei, Slaves: [] }, 'Slaves', 'bind.slavesRequired'],
      ['/Bluetooth/addBTMasterSlaveInfo', { Imei: other.imei, Slaves: [{ Mac: 'xx' }] }, 'Slaves.0.Mac', 'bind.slaveMacInvalid'],
      ['/Bluetooth/addBTMasterSlaveInfo', { Imei: other.imei, Slaves: [{ Mac: 'AC:23:3F:D0:00:09' }], TimeoutSeconds: 5 }, 'TimeoutSeconds', 'validation.min'],
      ['/Bluetooth/addBTMasterSlaveInfo', { Imei: '865999999999999', Slaves: [{ Mac: 'AC:23:3F:D0:00:09' }] }, 'Imei', 'bind.masterNotFound'],
      ['/Bluetooth/addBTMasterSlaveInfo', { Imei: other.imei, Slaves: [{ Mac: 'AC:23:3F:D0:00:09' }, { Mac: 'ac233fd00009' }] }, 'Slaves.1.Mac', 'bind.slaveTwice'],
      // A slave belongs to one master at a time.
      ['/Bluetooth/addBTMasterSlaveInfo', { Imei: other.imei, Slaves: [{ Mac: 'ac233fd00001' }] }, 'Slaves.0.Mac', 'bind.slaveTaken'],
      ['/Bluetooth/searchMasterSlaveListById', {}, 'BindingId', 'bind.searchRequired'],
    ];
    for (const [path, body, field, key] of cases) {
      const r = await p.call(path, body, agent);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(fields(r.body), JSON.stringify(body)).toContainEqual([field, key]);
    }
    const again = await p.call('/Bluetooth/addBTMasterSlaveInfo', { Imei: m.imei, Slaves: [{ Mac: 'AC:23:3F:D0:00:08' }] }, agent);
    expect([again.status, again.body.Message]).toEqual([409, 'bind.masterBound']);

    // The sibling sees nothing and reaches nothing.
    expect((await p.call('/Bluetooth/allMasterSlaveList', {}, operator)).body.Total).toBe(0);
    const foreign = await p.call('/Bluetooth/updateMasterSlaveInfo', { BindingId: id, Imei: m.imei, Slaves: [{ Mac: 'AC:23:3F:D0:00:03' }] }, operator);
    expect([foreign.status, foreign.body.Message]).toEqual([404, 'bind.notFound']);
    expect((await p.call('/Bluetooth/searchMasterSlaveListById', { BindingId: id }, operator)).body.Message).toBe('bind.notFound');
    expect((await p.call('/Bluetooth/addBTMasterSlaveInfo', { Imei: other.imei, Slaves: [{ Mac: 'AC:23:3F:D0:00:07' }] }, operator)).body.Fields[0].Message).toBe('bind.masterNotFound');
    expect((await p.call('/Bluetooth/updateMasterSlaveDel', { BindingIds: [id] }, operator)).body).toMatchObject({ Succeeded: 0, Failed: [{ Message: 'bind.notFound' }] });

    // Rebinding keeps one slave and frees the other for another master.
    const re = await p.call('/Bluetooth/updateMasterSlaveInfo', { BindingId: id, Imei: m.imei, Slaves: [{ Mac: 'AC:23:3F:D0:00:02', Name: 'Keys' }] }, agent);
    expect(re.status).toBe(200);
    const freed = await p.call('/Bluetooth/addBTMasterSlaveInfo', { Imei: other.imei, Slaves: [{ Mac: 'AC:23:3F:D0:00:01' }] }, agent);
    expect(freed.status).toBe(200);
    expect((await p.call('/Bluetooth/updateMasterSlaveDel', { BindingIds: [id, freed.body.BindingId] }, agent)).body).toMatchObject({ Succeeded: 2 });
    expect(Number((await rows<{ n: number }>(p.deps.database.db, sql`SELECT count(*)::int AS n FROM master_slaves`))[0]!.n)).toBe(0);
  });

  it('a slave walking away from its master raises "separated" once, and "back" when heard again', async () => {
    const m = await device();
    const tag = await addDevice(p, 'clinic01', `86520000000${1900 + ++n}`, 'Child tag');
    await p.deps.database.db.execute(sql`UPDATE devices SET ext_id = 'ac:23:3f:d0:01:01' WHERE id = ${tag.id}`);
    const r = await p.call('/Bluetooth/addBTMasterSlaveInfo', { Imei: m.imei, Slaves: [{ Mac: 'AC:23:3F:D0:01:01', Name: 'Child' }], TimeoutSeconds: 60 }, agent);
    expect(r.status).toBe(200);
    await settle();
    const watch = separationWatches.get(p.deps)!;
    const t = Date.now();
    // The master has a position; its scans hear the child.
    await send({ deviceId: m.imei, protocol: 'uplink', kind: 'position', type: 'gps', time: new Date(t - 5000), fix: { time: new Date(t - 5000), valid: true, lat: 22.55, lon: 113.95, accuracy: 12 } });
    await scan(m, t - 4000, 'ac233fd00101');
    await scan(m, t, 'AC:23:3F:D0:01:01', 'AC:23:3F:FF:00:00');
    // Shown at the master's position.
    const [pos] = await rows<{ lat: number; lon: number }>(p.deps.database.db, sql`SELECT lat, lon FROM device_state WHERE device_id = ${tag.id}`);
    expect([Number(pos!.lat), Number(pos!.lon)]).toEqual([22.55, 113.95]);

    await watch.sweep(t + 59_000);
    expect(await alarms(m)).toEqual([]);
    // The child walks away: the master's scans no longer name it.
    await scan(m, t + 30_000, 'AC:23:3F:FF:00:00');
    await watch.sweep(t + 60_000);
    await watch.sweep(t + 90_000);
    await settle();
    expect(await alarms(m)).toEqual([[C.slaveSeparated, 'Tag Child not heard for 60 s', 1]]);
    const listed = (await p.call('/Bluetooth/searchMasterSlaveListById', { Imei: m.imei }, agent)).body.Item;
    expect(listed.Slaves[0]).toMatchObject({ Mac: 'AC:23:3F:D0:01:01', Separated: true, DeviceId: tag.id });
    expect(listed).toMatchObject({ Lat: 22.55, Lon: 113.95 });

    await scan(m, t + 100_000, 'AC:23:3F:D0:01:01');
    await scan(m, t + 101_000, 'AC:23:3F:D0:01:01');
    expect(await alarms(m)).toEqual([
      [C.slaveSeparated, 'Tag Child not heard for 60 s', 1],
      [C.slaveBack, 'Tag Child is near again', 1],
    ]);
    expect((await p.call('/Bluetooth/searchMasterSlaveListById', { Imei: m.imei }, agent)).body.Item.Slaves[0].Separated).toBe(false);
  });
});
