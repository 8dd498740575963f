// The device-side health threshold commands keep SPEC §5's ranges on the server: temperature
// 16.0-60.0, blood oxygen 80-100, heart rate 20-200, systolic and diastolic 20-100 each. A value
// in range is sent; one out of range is refused with a message in the caller's language naming the
// field and the range, and nothing is queued. Demo watches 865000000000001-020 are the clinic's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, startTestPlatform, type TestPlatform } from './helpers.js';

describe.each(databases())('threshold command ranges on %s', (kind) => {
  let p: TestPlatform;
  let clinic: string;
  let operator: string;
  const imei = '865000000000002';
  beforeAll(async () => {
    p = await startTestPlatform(kind);
    clinic = (await p.login('clinic01')).token;
    operator = (await p.login('operator01')).token;
    // A fresh PGlite platform takes long to start on a busy machine.
  }, 180_000);
  afterAll(() => p?.stop());

  const queued = async () =>
    (await p.deps.database.query<{ n: number }>(`SELECT count(*)::int AS n FROM commands c JOIN devices d ON d.id = c.device_id WHERE d.imei = $1`, [imei]))[0]!.n;
  const send = (Code: string, Params: Record<string, unknown>, token = clinic, language = 'en') =>
    p.call('/Command/SendCommand', { Imei: imei, Code, Params }, token, { 'x-language': language });

  it('sends systolic and diastolic limits within 20-100, each pair on its own', async () => {
    const before = await queued();
    const r = await send('BLOOD_PRESSURE_THRESHOLD', { systolicMin: 20, systolicMax: 100, diastolicMin: 55, diastolicMax: 90 });
    expect(r.status).toBe(200);
    expect(r.body.Item.Params).toEqual({ systolicMin: 20, systolicMax: 100, diastolicMin: 55, diastolicMax: 90 });
    const closed = await send('BLOOD_PRESSURE_THRESHOLD', { systolicMin: '', systolicMax: '', diastolicMin: 60, diastolicMax: 85 });
    expect(closed.status).toBe(200);
    expect(await queued()).toBe(before + 2);
  });

  const refused: [string, Record<string, unknown>, string, { min: number; max: number }][] = [
    ['BLOOD_PRESSURE_THRESHOLD', { systolicMin: 90, systolicMax: 140, diastolicMin: 60, diastolicMax: 90 }, 'systolicMax', { min: 20, max: 100 }],
    ['BLOOD_PRESSURE_THRESHOLD', { systolicMin: 90, systolicMax: 100, diastolicMin: 19, diastolicMax: 90 }, 'diastolicMin', { min: 20, max: 100 }],
    ['BLOOD_PRESSURE_THRESHOLD', { systolicMin: 90, systolicMax: 100, diastolicMin: 60, diastolicMax: 100.5 }, 'diastolicMax', { min: 20, max: 100 }],
    ['HEART_RATE_THRESHOLD', { min: 19, max: 120 }, 'min', { min: 20, max: 200 }],
    ['HEART_RATE_THRESHOLD', { min: 50, max: 201 }, 'max', { min: 20, max: 200 }],
    ['TEMPERATURE_THRESHOLD', { min: 15.9, max: 38 }, 'min', { min: 16, max: 60 }],
    ['TEMPERATURE_THRESHOLD', { min: 35, max: 60.1 }, 'max', { min: 16, max: 60 }],
    ['BLOOD_OXYGEN_THRESHOLD', { min: 79, max: 100 }, 'min', { min: 80, max: 100 }],
  ];
  for (const [code, params, field, range] of refused) {
    it(`${code} refuses ${field} out of ${range.min}-${range.max} with the field and the range, queueing nothing`, async () => {
      const before = await queued();
      const r = await send(code, params);
      expect(r.status).toBe(400);
      expect(r.body.Fields).toEqual([expect.objectContaining({ Field: `Params.${field}`, Message: 'validation.thresholdRange', Params: range })]);
      expect(r.body.Text).toContain(`Params.${field} The threshold must be between ${range.min} and ${range.max}`);
      expect(await queued()).toBe(before);
    });
  }

  it('says it in the caller language', async () => {
    const zh = await send('BLOOD_PRESSURE_THRESHOLD', { systolicMin: 90, systolicMax: 140, diastolicMin: 60, diastolicMax: 90 }, clinic, 'zh-CN');
    expect(zh.status).toBe(400);
    expect(zh.body.Text).toMatch(/Params\.systolicMax .*20.*100/);
    expect(zh.body.Text).not.toContain('The threshold');
  });

  it('accepts the values in range at the ends of each range', async () => {
    for (const [code, params] of [
      ['HEART_RATE_THRESHOLD', { min: 20, max: 200 }],
      ['TEMPERATURE_THRESHOLD', { min: 16, max: 60 }],
      ['BLOOD_OXYGEN_THRESHOLD', { min: 80, max: 100 }],
    ] as const) {
      expect((await send(code, params)).status).toBe(200);
    }
  });

  it('leaves another branch no way to the device', async () => {
    const before = await queued();
    const r = await send('BLOOD_PRESSURE_THRESHOLD', { systolicMin: 90, systolicMax: 100, diastolicMin: 60, diastolicMax: 90 }, operator);
    expect(r.status).toBe(404);
    expect(await queued()).toBe(before);
  });
});
