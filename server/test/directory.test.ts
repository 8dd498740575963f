// The device directory: everything in memory after one query at start, lookups for the rest, and
// a changed device forgotten under every identity it was cached by.
import { describe, expect, it } from 'vitest';
import pino from 'pino';
import { DeviceDirectory } from '../src/pipeline/directory.js';
import { Metrics } from '../src/pipeline/metrics.js';
import type { Config } from '../src/config.js';
import type { Database } from '../src/db/client.js';

const row = (id: number, imei: string, extId: string | null = null) => ({
  id, imei, name: `D${id}`, accountId: 1, accountPath: '/1/', protocol: 'watch', shortId: imei.slice(-10), extId,
});

function directory(rows: ReturnType<typeof row>[]) {
  const queries: string[] = [];
  const database = {
    async query(sqlText: string, params: unknown[] = []) {
      queries.push(sqlText);
      if (!sqlText.includes('WHERE')) return rows;
      const v = String(params[0]);
      return rows.filter((r) => r.imei === v || r.shortId === v || r.extId === v);
    },
  } as unknown as Database;
  const config = { AUTO_REGISTER: false } as Config;
  return { dir: new DeviceDirectory(database, config, pino({ level: 'silent' }), new Metrics()), queries };
}

describe('device directory', () => {
  it('answers every device from memory after the preload, under IMEI, short id and ext id', async () => {
    const { dir, queries } = directory([row(1, '865000000000001'), row(2, '865000000000002', 'a0b1c2d3e4f50607')]);
    expect(await dir.preload()).toBe(2);
    expect(dir.cached('865000000000001')?.id).toBe(1);
    expect(dir.cached('0000000001')?.id).toBe(1);
    expect(dir.cached('a0b1c2d3e4f50607')?.id).toBe(2);
    expect(dir.cached('865000000000009')).toBeUndefined();
    expect(queries).toHaveLength(1);
  });

  it('leaves a 10-digit id two IMEIs share to the lookup', async () => {
    const { dir } = directory([row(1, '865000000000001'), row(2, '866000000000001')]);
    await dir.preload();
    expect(dir.cached('0000000001')).toBeUndefined();
    expect(await dir.resolve('0000000001', 'watch')).toBeNull();
  });

  it('forgets a changed device under all its identities, by id or by IMEI', async () => {
    const { dir } = directory([row(1, '865000000000001'), row(2, '865000000000002', 'a0b1c2d3e4f50607'), row(3, '865000000000003')]);
    await dir.preload();
    dir.invalidate({ deviceId: 1 });
    expect(dir.cached('865000000000001')).toBeUndefined();
    expect(dir.cached('0000000001')).toBeUndefined();
    expect(dir.cached('865000000000003')?.id).toBe(3);
    dir.invalidate({ imei: '865000000000002' });
    expect(dir.cached('a0b1c2d3e4f50607')).toBeUndefined();
    expect(dir.cached('865000000000002')).toBeUndefined();
    // Looked up again, and remembered.
    expect((await dir.resolve('865000000000002', 'watch'))?.id).toBe(2);
    expect(dir.cached('865000000000002')?.id).toBe(2);
  });

  it('forgets an identity cached as nobody once a device takes it', async () => {
    const rows = [row(1, '865000000000001')];
    const { dir } = directory(rows);
    expect(await dir.resolve('865000000000007', 'watch')).toBeNull();
    expect(dir.cached('865000000000007')).toBeNull();
    rows.push(row(7, '865000000000007'));
    dir.invalidate({ imei: '865000000000007' });
    expect((await dir.resolve('865000000000007', 'watch'))?.id).toBe(7);
  });
});
