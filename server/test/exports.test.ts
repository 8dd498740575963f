// Exports read their rows page by page by keyset: the pages together are exactly the list, in its
// order, even where rows share a time (two devices reporting the same second, alarms of one moment)
// and times carry microseconds. And an export larger than a sheet is refused before anything is sent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthedContext } from '../src/calls.js';
import { EXPORT_MAX_ROWS, checkExportSize } from '../src/lib/export-sheet.js';
import { recordPages } from '../src/modules/alarm/export.js';
import { queryRecords } from '../src/modules/alarm/service.js';
import { queryReadings, readingPages } from '../src/modules/health/service.js';
import { addDevice } from './alarm-fixtures.js';
import { databases, startTestPlatform, type TestPlatform } from './helpers.js';

describe.each(databases())('exports page by page on %s', (kind) => {
  let p: TestPlatform;
  let ctx: AuthedContext;
  beforeAll(async () => {
    p = await startTestPlatform(kind);
    const [a] = await p.deps.database.query<{ id: number; login_name: string; path: string; user_type: number; kind: string }>(
      "SELECT id, login_name, path, user_type, kind FROM accounts WHERE login_name = 'agent01'",
    );
    ctx = {
      deps: p.deps,
      user: { id: a!.id, loginName: a!.login_name, path: a!.path, userType: a!.user_type, kind: a!.kind, sessionId: 0, mustChangePassword: false, actions: 'all', timeZoneOffset: 480 },
      locale: 'en',
      ip: '127.0.0.1',
      userAgent: 'test',
      request: {} as never,
    };
  });
  afterAll(() => p?.stop());

  async function all<T>(pages: AsyncIterable<T[]>): Promise<T[]> {
    const out: T[] = [];
    for await (const page of pages) out.push(...page);
    return out;
  }

  it('health reports: the pages are the list, ties and microseconds included', async () => {
    const a = await addDevice(p, 'clinic01', '865000000009501');
    const b = await addDevice(p, 'clinic01', '865000000009502');
    const q = p.deps.database.query.bind(p.deps.database);
    // Five report times with microseconds, each reported by both watches, each as two stored rows.
    for (const d of [a, b]) {
      await q(
        `INSERT INTO health_readings (device_id, time, received_at, heart_rate)
         SELECT $1, date_trunc('minute', now()) - make_interval(secs => g) + interval '123456 microseconds', now(), 60 + g FROM generate_series(1, 5) g`,
        [d.id],
      );
      await q(
        `INSERT INTO health_readings (device_id, time, received_at, blood_oxygen)
         SELECT $1, date_trunc('minute', now()) - make_interval(secs => g) + interval '123456 microseconds', now(), 95 FROM generate_series(1, 5) g`,
        [d.id],
      );
    }
    const f = { Imei: '86500000000950' };
    const key = (r: Record<string, unknown>) => `${String(r.deviceId)} ${String(r.cursorTime)} ${String(r.heartRate)} ${String(r.bloodOxygen)}`;
    const list = await queryReadings(ctx, f, 1000, 0);
    expect(list).toHaveLength(10);
    for (const size of [1, 3, 4]) expect((await all(readingPages(ctx, f, size))).map(key), `pages of ${size}`).toEqual(list.map(key));
  });

  it('alarm records: the pages are the list, alarms of one moment included', async () => {
    const d = await addDevice(p, 'clinic01', '865000000009503');
    await p.deps.database.query(
      `INSERT INTO alarms (type, device_id, account_id, status, created_at, last_at)
       SELECT 5, $1, $2, 1, date_trunc('minute', now()) - make_interval(secs => g / 3) + interval '654321 microseconds', now() FROM generate_series(1, 8) g`,
      [d.id, d.accountId],
    );
    const f = { Imei: d.imei };
    const list = (await queryRecords(ctx, f, 1000, 0)).map((r) => Number(r.id));
    expect(list).toHaveLength(8);
    for (const size of [1, 3]) expect((await all(recordPages(ctx, f, size))).map((r) => Number(r.id)), `pages of ${size}`).toEqual(list);
  });

  it('refuses an export larger than a sheet, naming the count and the limit', () => {
    expect(() => checkExportSize(EXPORT_MAX_ROWS)).not.toThrow();
    expect(() => checkExportSize(EXPORT_MAX_ROWS + 1)).toThrow(expect.objectContaining({ key: 'export.tooMany', params: { count: EXPORT_MAX_ROWS + 1, limit: EXPORT_MAX_ROWS } }));
  });
});
