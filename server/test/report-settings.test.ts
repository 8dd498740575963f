// Thresholds of trips and stops per account: set by an administrator, inherited down the tree (each
// threshold from the nearest account that set it, else the built-in default), used by the report calls
// for what a request leaves out; another tenant neither reads nor changes them; bad input names the
// field and its limit and changes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, startTestPlatform, type TestPlatform } from './helpers.js';
import { addAccount, addDevices } from './monitor-fixtures.js';

const MIN = 60_000;
const LAT = 22.5347;
const LON = 114.0555;
const M_LON = 111_195 * Math.cos((LAT * Math.PI) / 180);
const T0 = Date.parse('2026-03-02T00:00:00Z');
const ADMIN = 3;

describe.each(databases())('report thresholds per account (%s)', (kind) => {
  let p: TestPlatform;
  const tokens: Record<string, string> = {};
  let parent: number;
  let child: number;
  let device: number;

  beforeAll(async () => {
    p = await startTestPlatform(kind);
    parent = (await addAccount(p, 'admin', 'rs_parent', ADMIN)).id;
    child = (await addAccount(p, 'rs_parent', 'rs_child', ADMIN)).id;
    await addAccount(p, 'rs_parent', 'rs_user', 1);
    await addAccount(p, 'admin', 'rs_sibling', ADMIN);
    [{ id: device }] = (await addDevices(p, 'rs_child', [{ name: 'Van' }])) as unknown as [{ id: number }];
    // Parked 20 minutes, 10 km east in 10 minutes, parked 20 minutes: two stops of 20 minutes.
    const fixes: { la: number; lo: number; t: string; s: number }[] = [];
    const at = (m: number) => new Date(T0 + m * MIN).toISOString();
    for (let m = 0; m <= 20; m++) fixes.push({ la: LAT, lo: LON + ((m % 2) * 2 - 1) * 10 / M_LON, t: at(m), s: 0 });
    for (let m = 21; m < 30; m++) fixes.push({ la: LAT, lo: LON + ((m - 20) * 1000) / M_LON, t: at(m), s: 60 });
    for (let m = 30; m <= 50; m++) fixes.push({ la: LAT, lo: LON + (10_000 + ((m % 2) * 2 - 1) * 10) / M_LON, t: at(m), s: 0 });
    await p.deps.database.query(
      `INSERT INTO positions (device_id, time, received_at, lat, lon, valid, speed)
       SELECT $2, t, t, la, lo, true, s FROM json_to_recordset($1::json) AS x(la float8, lo float8, t timestamptz, s real)`,
      [JSON.stringify(fixes), device],
    );
    for (const name of ['rs_parent', 'rs_child', 'rs_user', 'rs_sibling']) tokens[name] = (await p.login(name, 'admin123')).token;
  }, 300_000);
  afterAll(async () => p?.stop());

  const period = { From: '2026-03-02', To: '2026-03-02' };
  const stops = async (who: string, extra: Record<string, unknown> = {}) => {
    const r = await p.call('/Report/Trips', { DeviceId: device, ...period, ...extra }, tokens[who]!);
    expect(r.status).toBe(200);
    return r.body.Devices[0].Stops.length as number;
  };

  it('starts from the built-in defaults, then each threshold from the nearest account that set it', async () => {
    const before = await p.call('/Report/Settings', {}, tokens.rs_child!);
    expect(before.body).toMatchObject({ UserId: child, Own: { StopMinutes: null }, Effective: { StopMinutes: 5, StopRadius: 100, StopSpeed: 5, GapMinutes: 60, MinTripMeters: 200 }, Editable: true });
    expect(await stops('rs_child')).toBe(2);

    // The parent sets 30 minutes for its subtree: the child's 20-minute stays are no stops any more.
    const saved = await p.call('/Report/SaveSettings', { StopMinutes: 30, StopRadius: 150 }, tokens.rs_parent!);
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ UserId: parent, Own: { StopMinutes: 30, StopRadius: 150, StopSpeed: null }, Effective: { StopMinutes: 30, StopRadius: 150, StopSpeed: 5 } });
    const inherited = await p.call('/Report/Settings', {}, tokens.rs_child!);
    expect(inherited.body).toMatchObject({ Own: { StopMinutes: null }, Inherited: { StopMinutes: 30, StopRadius: 150 }, Effective: { StopMinutes: 30, StopRadius: 150, StopSpeed: 5 } });
    expect(await stops('rs_child')).toBe(0);
    // The parent sets it for the child too, by its id; the child's own value wins over the parent's.
    expect((await p.call('/Report/SaveSettings', { UserId: child, StopMinutes: 10 }, tokens.rs_parent!)).status).toBe(200);
    const own = await p.call('/Report/Settings', {}, tokens.rs_child!);
    expect(own.body).toMatchObject({ Own: { StopMinutes: 10, StopRadius: null }, Inherited: { StopMinutes: 30 }, Effective: { StopMinutes: 10, StopRadius: 150 } });
    expect(await stops('rs_child')).toBe(2);
    // A request's own threshold still wins over the account's.
    expect(await stops('rs_child', { StopMinutes: 25 })).toBe(0);
    // The summary and the export read the same thresholds: stopped time is the two 20-minute stops.
    const summary = await p.call('/Report/Summary', { DeviceId: device, ...period }, tokens.rs_child!);
    expect(summary.body.Items[0].StoppedMinutes).toBe(40);
    // Null follows the level above again.
    await p.call('/Report/SaveSettings', { UserId: child, StopMinutes: null }, tokens.rs_parent!);
    expect((await p.call('/Report/Settings', {}, tokens.rs_child!)).body.Effective.StopMinutes).toBe(30);
  });

  it('is set by administrators of the account or above only, never by another tenant', async () => {
    // The child cannot change its parent (outside its subtree), nor can a sibling read it.
    expect((await p.call('/Report/SaveSettings', { UserId: parent, StopMinutes: 1 }, tokens.rs_child!)).status).not.toBe(200);
    expect((await p.call('/Report/Settings', { UserId: parent }, tokens.rs_sibling!)).status).not.toBe(200);
    expect((await p.call('/Report/SaveSettings', { UserId: child, StopMinutes: 1 }, tokens.rs_sibling!)).status).not.toBe(200);
    // An account that is not an administrator reads but does not set.
    const user = await p.call('/Report/Settings', {}, tokens.rs_user!);
    expect(user.body).toMatchObject({ Effective: { StopMinutes: 30 }, Editable: false });
    expect((await p.call('/Report/SaveSettings', { StopMinutes: 1 }, tokens.rs_user!)).status).toBe(403);
    // The sibling's own setting does not reach the parent's subtree.
    expect((await p.call('/Report/SaveSettings', { StopMinutes: 2 }, tokens.rs_sibling!)).status).toBe(200);
    expect((await p.call('/Report/Settings', {}, tokens.rs_parent!)).body.Effective.StopMinutes).toBe(30);
  });

  it('refuses a threshold out of its limits with the field and the limit, changing nothing', async () => {
    const bad = await p.call('/Report/SaveSettings', { StopMinutes: 0, StopRadius: 9000 }, tokens.rs_parent!, { 'x-language': 'en' });
    expect(bad.status).toBe(400);
    const fields = Object.fromEntries((bad.body.Fields as { Field: string; Message: string; Text: string }[]).map((f) => [f.Field, f]));
    expect(fields.StopMinutes).toMatchObject({ Message: 'validation.min' });
    expect(fields.StopMinutes!.Text).toContain('1');
    expect(fields.StopRadius).toMatchObject({ Message: 'validation.max' });
    expect(fields.StopRadius!.Text).toContain('5000');
    const text = await p.call('/Report/SaveSettings', { GapMinutes: 'soon' }, tokens.rs_parent!, { 'x-language': 'zh-CN' });
    expect(text.status).toBe(400);
    expect(text.body.Fields[0].Field).toBe('GapMinutes');
    expect((await p.call('/Report/Settings', {}, tokens.rs_parent!)).body.Own).toMatchObject({ StopMinutes: 30, StopRadius: 150, GapMinutes: null });
  });
});
