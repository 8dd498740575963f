// The demo with its simulation on: the care home's locations and assets are there from the start,
// so the location and asset pages of operator01 (the account with the inner map) are not empty.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, startTestPlatform, type TestPlatform } from './helpers.js';

describe.each(databases())('demo locations and assets on %s', (kind) => {
  let p: TestPlatform;
  beforeAll(async () => {
    p = await startTestPlatform(kind, { SIMULATE: '1' });
  });
  afterAll(() => p?.stop());

  it('seeds the care home rooms as locations and the asset tags as assets, each with where it belongs', async () => {
    const { token } = await p.login('operator01');
    const locations = (await p.call('/Bluetooth/allBeaconLocationList', {}, token)).body;
    expect(locations.State).toBe(200);
    expect(locations.Items.map((l: { Name: string }) => l.Name).sort()).toEqual(['休息厅', '护士站', '餐厅']);
    const assets = (await p.call('/Asset/List', { PageCount: 100 }, token)).body;
    expect(assets.Total).toBe(8);
    expect(assets.Items.every((a: { ExpectedLocationName: string | null }) => !!a.ExpectedLocationName)).toBe(true);
    expect(new Set(assets.Items.map((a: { Category: number }) => a.Category))).toEqual(new Set([1, 2, 4, 5]));
    // Another tenant sees none of them.
    const agent = (await p.login('agent01')).token;
    expect((await p.call('/Asset/List', { PageCount: 100 }, agent)).body.Total).toBe(0);
  });
});
