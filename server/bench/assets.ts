// The asset inventory's list call on PostgreSQL (`npm run bench:indoor -- --assets`): `--asset-tags`
// tags (20 000) marked as assets in one account, `--locations` zones (50) on the demo floors, each
// tag inside one of them (a tenth nowhere, a twentieth not seen for an hour: missing), its device
// state, and `--asset-fixes` positions (60: two minutes at one every 2 s) for each, a third moving.
// Printed: the latency of /Asset/List over HTTP in this process (first page, a location, the
// missing, a search, a page of 100), p50/p95/max against the 200 ms target, with the load average
// and the COPY ceiling of the machine.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { adminPoster, benchArgs, copyCeiling, copyLines, createPostgresDatabase, fmt, loadAvg, percentile, startDemoPlatform } from './common.js';

const args = benchArgs();
const TAGS = Number(args.get('asset-tags') ?? 20_000);
const LOCS = Number(args.get('locations') ?? 50);
const FIXES = Number(args.get('asset-fixes') ?? 60);
const SAMPLES = Number(args.get('samples') ?? 20);

export async function benchAssets() {
  console.log(
    `asset inventory: ${fmt(TAGS)} tags, ${fmt(LOCS)} locations, ${fmt(FIXES)} positions a tag, PostgreSQL; load average ${loadAvg()}`,
  );
  const database = await createPostgresDatabase('wt_bench_assets');
  const dataDir = mkdtempSync(path.join(tmpdir(), 'wt-bench-assets-'));
  // No worker: the location evaluator must not rewrite the presence written below.
  const platform = await startDemoPlatform(dataDir, database.url);
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    const [admin] = (await client.query<{ id: number }>(`SELECT id FROM accounts WHERE login_name = 'admin'`))
      .rows;
    const floors = (await client.query<{ id: number }>('SELECT id FROM floors ORDER BY id')).rows.map((r) =>
      Number(r.id),
    );
    const t0 = performance.now();
    await client.query('BEGIN');
    const locs: number[] = [];
    for (let i = 0; i < LOCS; i++) {
      const x = (i % 10) * 4;
      const y = Math.floor(i / 10) * 4;
      const [l] = (
        await client.query<{ id: number }>(
          `INSERT INTO beacon_locations (owner_id, name, event, kind, floor_id, points) VALUES ($1, $2, 1, 1, $3, $4::jsonb) RETURNING id`,
          [
            admin!.id,
            `Room ${i + 1}`,
            floors[i % floors.length],
            JSON.stringify([
              [x, y],
              [x + 4, y],
              [x + 4, y + 4],
              [x, y + 4],
            ]),
          ],
        )
      ).rows;
      locs.push(Number(l!.id));
    }
    const first = 869_000_000_000_000;
    await copyLines(
      client,
      'COPY devices (imei, short_id, name, protocol, account_id) FROM STDIN',
      (function* () {
        for (let i = 0; i < TAGS; i++)
          yield `${first + i}\t${String(first + i).slice(-10)}\tAsset ${i + 1}\tuplink\t${admin!.id}\n`;
      })(),
    );
    const ids = (
      await client.query<{ id: number }>(`SELECT id FROM devices WHERE imei >= $1 ORDER BY imei`, [
        String(first),
      ])
    ).rows.map((r) => Number(r.id));
    const now = Date.now();
    const iso = (ms: number) => new Date(ms).toISOString();
    await copyLines(
      client,
      'COPY assets (device_id, category, expected_location_id) FROM STDIN',
      ids.map((id, i) => `${id}\t${(i % 5) + 1}\t${i % 4 === 0 ? '\\N' : locs[i % LOCS]}\n`),
    );
    await copyLines(
      client,
      'COPY device_state (device_id, fix_time, lat, lon, fix_valid, last_seen, online, indoor_floor_id, indoor_x, indoor_y, indoor_method, indoor_time) FROM STDIN',
      ids.map((id, i) => {
        const seen = i % 20 === 0 ? now - 3_600_000 : now - (i % 30) * 1000;
        return `${id}\t${iso(seen)}\t22.54\t113.93\tt\t${iso(seen)}\tt\t${floors[i % floors.length]}\t5\t5\t3\t${iso(seen)}\n`;
      }),
    );
    await copyLines(
      client,
      'COPY beacon_location_presence (location_id, device_id, inside, since, time) FROM STDIN',
      (function* () {
        for (const [i, id] of ids.entries())
          if (i % 10 !== 9)
            yield `${locs[(i * 7) % LOCS]}\t${id}\tt\t${iso(now - 600_000)}\t${iso(now - 2000)}\n`;
      })(),
    );
    await copyLines(
      client,
      'COPY positions (device_id, time, received_at, lat, lon, valid, accuracy, scene_id, floor_id, x, y, method) FROM STDIN',
      (function* () {
        for (const [i, id] of ids.entries())
          for (let k = 0; k < FIXES; k++) {
            const t = iso(now - (FIXES - k) * 2000);
            const x = i % 3 === 0 ? 5 + k * 0.3 : 5 + (k % 2) * 0.1;
            yield `${id}\t${t}\t${t}\t22.54\t113.93\tt\t1.5\t\\N\t${floors[i % floors.length]}\t${x}\t5\t3\n`;
          }
      })(),
    );
    await client.query('COMMIT');
    for (const t of [
      'devices',
      'assets',
      'device_state',
      'beacon_location_presence',
      'positions',
      'beacon_locations',
    ])
      await client.query(`VACUUM ANALYZE ${t}`);
    console.log(`   written in ${fmt((performance.now() - t0) / 1000, 1)} s; load average ${loadAvg()}`);

    const post = await adminPoster(platform.url);
    const call = async (body: unknown) => {
      const s = performance.now();
      const res = await post('/Asset/List', body);
      const json = (await res.json()) as {
        State: number;
        Total: number;
        Items: { Moving: boolean }[];
        PerLocation: unknown[];
      };
      if (json.State !== 200) throw new Error(`/Asset/List: ${JSON.stringify(json).slice(0, 400)}`);
      return { ms: performance.now() - s, json };
    };
    console.log(`   /Asset/List (${SAMPLES} calls after 3 warm-up, HTTP round trip in this process):`);
    const cases: [string, Record<string, unknown>][] = [
      ['first page of 20, whole tenant', { PageNo: 1, PageCount: 20 }],
      ['one location now', { PageNo: 1, PageCount: 20, LocationId: locs[4] }],
      ['missing only', { PageNo: 1, PageCount: 20, State: 2 }],
      ['search by IMEI digits', { PageNo: 1, PageCount: 20, Keyword: '0001' }],
      ['page 50 of 100 rows', { PageNo: 50, PageCount: 100 }],
    ];
    for (const [label, body] of cases) {
      for (let i = 0; i < 3; i++) await call(body);
      const times: number[] = [];
      let last = { Total: 0, Items: [] as { Moving: boolean }[], PerLocation: [] as unknown[] };
      for (let i = 0; i < SAMPLES; i++) {
        const { ms, json } = await call(body);
        times.push(ms);
        last = json;
      }
      times.sort((a, b) => a - b);
      const p95 = percentile(times, 95);
      console.log(
        `     ${label.padEnd(34)} p50 ${fmt(percentile(times, 50), 1).padStart(6)} ms  p95 ${fmt(p95, 1).padStart(6)} ms  max ${fmt(times.at(-1)!, 1).padStart(6)} ms  ` +
          `(Total ${fmt(last.Total)}, ${last.Items.filter((x) => x.Moving).length}/${last.Items.length} moving, ${last.PerLocation.length} locations counted)  ${p95 < 200 ? 'ok' : 'OVER 200 ms'}`,
      );
    }
    console.log(
      `   load average ${loadAvg()}; COPY ceiling of this machine ${fmt(await copyCeiling(database.url, 200_000))} positions/s`,
    );
  } finally {
    await client.end();
    await platform.close();
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
