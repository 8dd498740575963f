// The device export (POST /api/export/devices): the list's filters and sort, the caller's subtree,
// column titles in the caller's language, every row read back with ExcelJS; and an account with
// 100 000 devices exported whole while the server's memory stays flat. Figures are printed, not
// asserted (timings belong to benchmarks).
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../src/lib/passwords.js';
import { devicePages } from '../src/modules/device/export.js';
import { listDevices } from '../src/modules/device/repo.js';
import { insertAccount } from '../src/modules/user/repo.js';
import { addDevice } from './alarm-fixtures.js';
import { databases, startTestPlatform, type TestPlatform } from './helpers.js';

const N = 100_000;

function exportDevices(p: TestPlatform, token: string, body: unknown, language = 'en') {
  return fetch(`${p.url}/api/export/devices`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-language': language, authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
}

/** The rows of the file's first sheet, read with ExcelJS's streaming reader (header first). */
async function readRows(file: string): Promise<string[][]> {
  const out: string[][] = [];
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(file, { worksheets: 'emit', sharedStrings: 'cache', styles: 'ignore', hyperlinks: 'ignore' });
  for await (const sheet of reader) {
    for await (const row of sheet) out.push((row.values as unknown[]).slice(1).map((v) => (v === null || v === undefined ? '' : String(v))));
    break;
  }
  return out;
}

describe.each(databases())('device export on %s', (kind) => {
  let p: TestPlatform;
  let stopped = false;
  let dir: string;
  beforeAll(async () => {
    p = await startTestPlatform(kind);
    dir = mkdtempSync(path.join(tmpdir(), 'wt-export-'));
  });
  afterAll(async () => {
    if (!stopped) await p?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  async function download(res: Response, name: string) {
    const file = path.join(dir, name);
    await pipeline(Readable.fromWeb(res.body as never), createWriteStream(file));
    return file;
  }

  it('exports the filtered devices of the subtree with titles in the caller language', async () => {
    const agent = (await p.login('agent01')).token;
    const operator = (await p.login('operator01')).token;
    await addDevice(p, 'clinic01', '865000000009901', 'Export Zhang');
    await addDevice(p, 'clinic01', '865000000009902', 'Export Li');
    const list = await p.call('/Device/devicesByUserId', { PageNo: 1, PageCount: 1000, Name: 'Export' }, agent);

    const res = await exportDevices(p, agent, { Name: 'Export', SortField: 'Name', SortOrder: 'asc' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('spreadsheetml');
    expect(res.headers.get('x-total-rows')).toBe(String(list.body.Total));
    const rows = await readRows(await download(res, 'small.xlsx'));
    expect(rows[0]!.slice(0, 5)).toEqual(['IMEI', 'Name', 'Model', 'Account', 'Status']);
    expect(rows.slice(1).map((r) => [r[0], r[1], r[3]])).toEqual([
      ['865000000009902', 'Export Li', 'clinic01'],
      ['865000000009901', 'Export Zhang', 'clinic01'],
    ]);

    const tw = await readRows(await download(await exportDevices(p, agent, { Name: 'Export' }, 'zh-TW'), 'tw.xlsx'));
    expect(tw[0]!.slice(0, 5)).toEqual(['IMEI', '裝置名稱', '型號', '所屬帳戶', '狀態']);
    expect(tw[1]![4]).toBe('已繫結');

    // Another branch of the tree: none of those devices, and naming the account is refused.
    const foreign = await readRows(await download(await exportDevices(p, operator, { Name: 'Export' }), 'foreign.xlsx'));
    expect(foreign).toHaveLength(1);
    const clinic = (await p.login('clinic01')).userId;
    const refused = await exportDevices(p, operator, { UserId: clinic });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ Message: 'account.notInScope' });
    // A bad filter is a validation failure naming the field, not a server error.
    const bad = await exportDevices(p, agent, { SortField: 'Password' });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ Message: 'common.validation', Fields: [expect.objectContaining({ Field: 'SortField' })] });
  });

  it('reads page by page in the order of the list, ties and empty values included', async () => {
    const { db } = p.deps.database;
    const admin = await p.login();
    const [me] = await p.deps.database.query<{ path: string }>('SELECT path FROM accounts WHERE id = $1', [admin.userId]);
    for (const [SortField, SortOrder] of [['Name', 'asc'], ['LastCommunication', 'desc'], ['SoftwareVersion', 'asc'], ['AccountName', 'desc'], [undefined, 'desc']] as const) {
      const q = { IncludeSubAccounts: true, SortField, SortOrder } as const;
      const expected = (await listDevices(db, me!.path, true, admin.userId, { ...q, PageNo: 1, PageCount: 1000 })).items.map((d) => d.Imei);
      const got: string[] = [];
      // Pages of 7 cut through runs of equal values (all demo devices share a software version).
      for await (const page of devicePages(db, { path: me!.path, id: admin.userId }, q, 7)) got.push(...page.map((d) => d.imei));
      expect(got, `${SortField} ${SortOrder}`).toEqual(expected);
    }
  });

  it('exports every one of 100 000 devices with flat memory', async () => {
    const { db } = p.deps.database;
    const admin = (await p.login()).userId;
    const [parent] = await p.deps.database.query<{ path: string }>('SELECT path FROM accounts WHERE id = $1', [admin]);
    const bulk = await insertAccount(db, { parentId: admin, parentPath: parent!.path, loginName: 'bulk02', passwordHash: await hashPassword('abc123') });
    const seed = performance.now();
    await p.deps.database.query(
      `INSERT INTO devices (imei, short_id, name, model_name, protocol, account_id, iccid, software_version, bound, stock_in_at)
       SELECT lpad((880000000000000 + g)::text, 15, '0'), lpad(g::text, 10, '0'), '设备 ' || g, 'Y6 4G 健康手表', 'watch', $1,
              '8986' || lpad(g::text, 16, '0'), 'V' || (g % 7), g % 10 <> 0, now() - g * interval '1 minute'
       FROM generate_series(1, ${N}) g`,
      [bulk.id],
    );
    await p.deps.database.query(
      `INSERT INTO device_state (device_id, online, last_seen, lat, lon, fix_time)
       SELECT id, id % 3 = 0, now(), 22.5, 113.9, now() FROM devices WHERE account_id = $1`,
      [bulk.id],
    );
    await p.deps.database.query('ANALYZE');
    const seeded = performance.now() - seed;
    const token = (await p.login('bulk02', 'abc123')).token;

    // The server runs in this process: sample its memory while the file streams. The live heap is
    // read after a collection (garbage would hide what is held); `external` is left out, as an
    // embedded PGlite's WebAssembly memory lives there and only grows.
    v8.setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const live = () => {
      gc();
      return process.memoryUsage().heapUsed;
    };
    const base = { rss: process.memoryUsage().rss, heap: live() };
    const peak = { ...base };
    const sampler = setInterval(() => {
      peak.rss = Math.max(peak.rss, process.memoryUsage().rss);
      peak.heap = Math.max(peak.heap, live());
    }, 250);
    const t0 = performance.now();
    const res = await exportDevices(p, token, { SortField: 'Imei', SortOrder: 'asc' }, 'zh-CN');
    expect(res.headers.get('x-total-rows')).toBe(String(N));
    let firstByte = 0;
    let bytes = 0;
    const body = Readable.fromWeb(res.body as never).on('data', (c: Buffer) => {
      if (!firstByte) firstByte = performance.now() - t0;
      bytes += c.length;
    });
    const file = path.join(dir, 'all.xlsx');
    await pipeline(body, createWriteStream(file));
    const took = performance.now() - t0;
    clearInterval(sampler);

    const rows = await readRows(file);
    expect(rows[0]![0]).toBe('IMEI');
    expect(rows).toHaveLength(N + 1);
    const imeis = rows.slice(1).map((r) => r[0]);
    expect(new Set(imeis).size).toBe(N);
    expect(imeis[0]).toBe('880000000000001');
    expect(imeis.at(-1)).toBe(String(880000000000000 + N));
    expect(rows[1]!.slice(1, 5)).toEqual(['设备 1', 'Y6 4G 健康手表', 'bulk02', '已绑定']);
    expect(rows[1]![6]).toBe('89860000000000000001');
    expect(rows[10]![4]).toBe('未绑定');
    const growth = (peak.rss - base.rss) / 2 ** 20;
    const heapGrowth = (peak.heap - base.heap) / 2 ** 20;
    console.log(
      `[${kind}] device export of ${N} devices: seed ${Math.round(seeded)} ms, first byte ${Math.round(firstByte)} ms, ` +
        `whole file ${Math.round(took)} ms, ${(bytes / 2 ** 20).toFixed(1)} MiB, peak RSS growth ${growth.toFixed(0)} MiB, peak live heap growth ${heapGrowth.toFixed(1)} MiB`,
    );
    // Holding the 100 000 rows (as a workbook, or as the XML of the file) would take hundreds of MiB.
    expect(heapGrowth).toBeLessThan(48);
  }, 600_000);

  it('closes while an export is half read: a reader that stopped does not hold the shutdown', async () => {
    const token = (await p.login('bulk02', 'abc123')).token;
    const res = await exportDevices(p, token, {});
    const reader = res.body!.getReader();
    expect((await reader.read()).done).toBe(false);
    // The server is left with a sheet it cannot send: closing cuts it.
    await p.stop();
    stopped = true;
    await expect(
      (async () => {
        for (;;) if ((await reader.read()).done) return;
      })(),
    ).rejects.toThrow();
  }, 60_000);
});
