// Deleting a device takes its alarms along: afterwards every count of alarms (the record list's
// Total, the dashboard's alarms of today, the analysis by type and by day, "this type has records")
// equals what the lists show, for every account of the tree, and the device's undelivered partner
// pushes are gone with them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALARM_CODES as C } from '@wt/contract';
import { databases, startTestPlatform, type TestPlatform } from './helpers.js';
import { addDevice, deviceAlarm, engineOf, healthReading, type TestDevice } from './alarm-fixtures.js';

describe.each(databases())('deleting a device with alarms on %s', (kind) => {
  let p: TestPlatform;
  const tokens: Record<string, string> = {};
  let gone: TestDevice;
  let kept: TestDevice;

  beforeAll(async () => {
    // A partner that cannot be reached: pushes stay pending (the next try is a minute away).
    p = await startTestPlatform(kind, { PUSH_RETRY_BASE_MS: '60000', OUTBOUND_ALLOW: '127.0.0.1/32' });
    for (const name of ['admin', 'agent01', 'clinic01']) tokens[name] = (await p.login(name)).token;
    const saved = await p.call(
      '/Push/SaveCompany',
      {
        Name: 'Closed Desk',
        PushUrl: 'http://127.0.0.1:9/alarms',
        VerificationCode: 'closed-desk-1',
        PushModel: 1,
        DefaultFormat: 1,
      },
      tokens.admin,
    );
    expect(saved.body.State).toBe(200);
    gone = await addDevice(p, 'clinic01', '865000000009301', 'Gone');
    kept = await addDevice(p, 'clinic01', '865000000009302', 'Kept');
  });
  afterAll(() => p?.stop());

  /** Every count the console shows of one account's alarms, and the list itself. */
  async function counts(token: string) {
    const list = await p.call('/ExceptionMessage/allExceptionMsgPage', { PageNo: 1, PageCount: 100 }, token);
    const dashboard = await p.call('/User/allAdminCount', {}, token);
    const analysis = await p.call('/User/adminPageAnalysis', { Days: 1 }, token);
    expect([list.body.State, dashboard.body.State, analysis.body.State]).toEqual([200, 200, 200]);
    return {
      total: list.body.Total as number,
      shown: (list.body.Items as { DeviceId: number }[]).length,
      devices: new Set((list.body.Items as { DeviceId: number }[]).map((i) => i.DeviceId)),
      today: dashboard.body.AlarmsToday as number,
      byType: (analysis.body.AlarmsByType as { Count: number }[]).reduce((n, t) => n + t.Count, 0),
      byDay: (analysis.body.Activity as { Alarms: number }[]).reduce((n, d) => n + d.Alarms, 0),
    };
  }
  const expectConsistent = async (token: string) => {
    const c = await counts(token);
    expect([c.total, c.today, c.byType, c.byDay], 'list Total, dashboard today, by type, by day').toEqual([
      c.shown,
      c.shown,
      c.shown,
      c.shown,
    ]);
    return c;
  };
  const pendingPushes = async (d: TestDevice) =>
    (
      await p.deps.database.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM push_outbox o JOIN alarms a ON a.id = o.alarm_id WHERE a.device_id = $1 AND o.status = 'pending'`,
        [d.id],
      )
    )[0]!.n;

  it('deletes the alarms and their undelivered pushes with the device; every total equals the list', async () => {
    for (const k of ['sos', 'fall', 'removal'] as const) await deviceAlarm(p, gone, k);
    await healthReading(p, gone, { heartRate: 150 });
    await deviceAlarm(p, kept, 'sos');
    const before = await expectConsistent(tokens.clinic01!);
    expect(before.devices).toEqual(new Set([gone.id, kept.id]));
    expect(before.shown).toBe(5);
    expect(await pendingPushes(gone)).toBe(4);
    // A type with records cannot be deleted: removal has one, of the device about to go.
    const types = await p.call('/ExceptionMessage/ExcdeptionListWhitoutCode', {}, tokens.admin);
    const removal = (types.body.Items as { Id: number; Code: number }[]).find((t) => t.Code === C.removal)!;
    expect(
      (await p.call('/ExceptionMessage/DeleteExceptionType', { Id: removal.Id }, tokens.admin)).body.Message,
    ).toBe('alarm.typeInUse');

    const del = await p.call('/Device/BatchDelDevices', { Imeis: [gone.imei] }, tokens.clinic01);
    expect(del.body).toMatchObject({ State: 200, Succeeded: 1, Failed: [] });

    for (const name of ['clinic01', 'agent01', 'admin']) {
      const after = await expectConsistent(tokens[name]!);
      expect(after.devices.has(gone.id), name).toBe(false);
      expect(after.devices.has(kept.id), name).toBe(true);
    }
    expect((await counts(tokens.clinic01!)).shown).toBe(1);
    expect(await p.deps.database.query('SELECT 1 FROM alarms WHERE device_id = $1', [gone.id])).toEqual([]);
    expect(await pendingPushes(kept)).toBe(1);
    expect(
      (
        await p.deps.database.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM push_outbox WHERE status = 'pending'`,
        )
      )[0]!.n,
    ).toBe(1);
    // ... and the type is free again.
    expect(
      (await p.call('/ExceptionMessage/DeleteExceptionType', { Id: removal.Id }, tokens.admin)).body.State,
    ).toBe(200);

    // A crossing reported late for the deleted device raises nothing.
    expect(
      await engineOf(p).raise({
        code: C.deviceFenceOut,
        device: gone,
        messageKey: 'alarm.msg.fenceOut',
        params: { fence: 'Home' },
      }),
    ).toBeNull();
    await expectConsistent(tokens.clinic01!);
  });
});
