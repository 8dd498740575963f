// The device list of an account with 100 000 devices: one INSERT ... SELECT generate_series, then
// pages, filters and sorts must answer correctly. The timings are printed, not asserted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../src/lib/passwords.js';
import { insertAccount } from '../src/modules/user/repo.js';
import { databases, startTestPlatform, type TestPlatform } from './helpers.js';

const N = 100_000;

describe.each(databases())('device list with 100 000 devices on %s', (kind) => {
  let p: TestPlatform;
  let token: string;
  const timings: string[] = [];

  beforeAll(async () => {
    p = await startTestPlatform(kind);
    const { db } = p.deps.database;
    const admin = (await p.login()).userId;
    const [parent] = await p.deps.database.query<{ path: string }>('SELECT path FROM accounts WHERE id = $1', [admin]);
    const bulk = await insertAccount(db, { parentId: admin, parentPath: parent!.path, loginName: 'bulk01', passwordHash: await hashPassword('abc123') });
    const t0 = performance.now();
    await p.deps.database.query(
      `INSERT INTO devices (imei, short_id, name, model_name, protocol, account_id, iccid, software_version, bound, stock_in_at, created_at)
       SELECT lpad((870000000000000 + g)::text, 15, '0'), lpad(g::text, 10, '0'), 'Device ' || g, 'Y6 4G 健康手表', 'watch', $1,
              '8986' || lpad(g::text, 16, '0'), 'V' || (g % 7), g % 10 <> 0, now() - g * interval '1 minute', now() - g * interval '1 second'
       FROM generate_series(1, ${N}) g`,
      [bulk.id],
    );
    await p.deps.database.query(
      `INSERT INTO device_state (device_id, online, last_seen, lat, lon, fix_time)
       SELECT id, id % 3 = 0, now(), 22.5, 113.9, now() FROM devices WHERE account_id = $1`,
      [bulk.id],
    );
    await p.deps.database.query('ANALYZE');
    timings.push(`seed ${N}: ${Math.round(performance.now() - t0)} ms`);
    token = (await p.login('bulk01', 'abc123')).token;
  }, 300_000);
  afterAll(async () => {
    console.log(`[${kind}] device list timings, ${N} devices:\n  ${timings.join('\n  ')}`);
    await p?.stop();
  });

  async function timed(label: string, body: Record<string, unknown>) {
    await p.call('/Device/devicesByUserId', body, token); // warm
    const t = performance.now();
    const r = await p.call('/Device/devicesByUserId', body, token);
    timings.push(`${label}: ${(performance.now() - t).toFixed(1)} ms`);
    expect(r.body.State).toBe(200);
    return r.body;
  }

  it('pages, filters and sorts an account with 100 000 devices', async () => {
    const first = await timed('first page (20)', { PageNo: 1, PageCount: 20 });
    expect(first.Total).toBe(N);
    expect(first.Items).toHaveLength(20);
    // Newest first by default.
    expect(first.Items[0].Imei).toBe(String(870000000000000 + N));
    const deep = await timed('page 4000 of 20', { PageNo: 4000, PageCount: 20 });
    expect(deep.Items).toHaveLength(20);
    const last = await timed('last page', { PageNo: N / 100, PageCount: 100 });
    expect(last.Items.at(-1).Imei).toBe('870000000000001');
    const imei = await timed('IMEI substring', { Imei: '0099999' });
    expect(imei.Items.map((d: { Imei: string }) => d.Imei)).toEqual(['870000000099999']);
    const online = await timed('online filter', { Online: 'online', PageCount: 50 });
    expect(online.Total).toBeGreaterThan(N / 3 - 2);
    expect(online.Total).toBeLessThan(N / 3 + 2);
    const unbound = await timed('unbound filter', { Status: 'unbound' });
    expect(unbound.Total).toBe(N / 10);
    const byName = await timed('sorted by name', { SortField: 'Name', SortOrder: 'asc' });
    expect(byName.Items[0].Name).toBe('Device 1');
    const byLast = await timed('sorted by last communication', { SortField: 'LastCommunication' });
    expect(byLast.Items).toHaveLength(20);
    const version = await timed('software version + sort by ICCID', { SoftwareVersion: 'V3', SortField: 'Iccid', SortOrder: 'asc' });
    expect(version.Total).toBe(Math.floor((N - 3) / 7) + 1);
  }, 120_000);
});
