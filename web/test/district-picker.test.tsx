// @vitest-environment jsdom
// The district picker of district-shaped fences: provinces, prefectures and counties in the
// console's language; picking a path hands the last code over (a province or city alone too);
// a city without counties in the data says so. And the data behind it: the levels of the tree and
// the simplified boundaries.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import pointInPolygon from 'point-in-polygon-hao';
import i18n from '../src/i18n';
import { DistrictPicker } from '../src/components/DistrictPicker';
import { districtLabel, loadDistrictOutline, loadDistrictShape, loadDistrictTree, type DistrictNode } from '../src/map/districts';
import { polyfillDom } from './dom';

beforeAll(async () => {
  polyfillDom();
  await i18n.changeLanguage('en');
});
afterEach(cleanup);

const find = (nodes: DistrictNode[] | undefined, code: string) => nodes?.find((n) => n.code === code);
const inside = (shape: GeoJSON.MultiPolygon, lon: number, lat: number) =>
  shape.coordinates.some((polygon) => pointInPolygon([lon, lat], polygon) !== false);

async function pick(label: string) {
  fireEvent.click(await screen.findByText(label, { selector: '.ant-cascader-menu-item-content' }));
}

describe('district picker', () => {
  it('picks province, city and county; onChange gets the code of the last one chosen', async () => {
    const changes: (string | undefined)[] = [];
    render(<DistrictPicker onChange={(code) => changes.push(code)} />);
    fireEvent.mouseDown(screen.getByRole('combobox'));
    await pick('Guangdong');
    await pick('Shenzhen');
    await pick('Futian District');
    expect(changes).toEqual(['440000', '440300', '440304']);
  });

  it('shows the chosen code\'s path and notes a city without counties in the data', async () => {
    const { rerender } = render(<DistrictPicker value="440304" />);
    await screen.findByText('Guangdong / Shenzhen / Futian District');
    expect(screen.queryByTestId('district-note')).toBeNull();
    rerender(<DistrictPicker value="441900" />);
    await screen.findByText('Guangdong / Dongguan');
    expect(screen.getByTestId('district-note').textContent).toBe(i18n.t('districts:noCounties'));
  });

  it('searches names in the console\'s language', async () => {
    await i18n.changeLanguage('zh-TW');
    try {
      const changes: (string | undefined)[] = [];
      render(<DistrictPicker onChange={(code) => changes.push(code)} />);
      const input = screen.getByRole('combobox');
      fireEvent.mouseDown(input);
      fireEvent.change(input, { target: { value: '福田區' } });
      const hit = await screen.findByText((_, el) => el?.classList.contains('ant-cascader-menu-item-content') === true && /廣東省.*深圳市.*福田區/.test(el.textContent ?? ''));
      fireEvent.click(hit);
      await waitFor(() => expect(changes.at(-1)).toBe('440304'));
    } finally {
      await i18n.changeLanguage('en');
    }
  });
});

describe('district data', () => {
  it('has provinces, prefectures and counties; municipalities hold their districts directly', async () => {
    const tree = await loadDistrictTree();
    expect(tree).toHaveLength(34);
    const guangdong = find(tree, '440000');
    expect(guangdong).toMatchObject({ zh: '广东省', tw: '廣東省', en: 'Guangdong' });
    const shenzhen = find(guangdong?.children, '440300');
    expect(shenzhen?.en).toBe('Shenzhen');
    expect(find(shenzhen?.children, '440304')).toMatchObject({ zh: '福田区', en: 'Futian District' });
    expect(find(guangdong?.children, '441900')).toMatchObject({ zh: '东莞市', missing: 'below' });
    expect(find(find(tree, '110000')?.children, '110101')).toMatchObject({ zh: '东城区' });
    expect(find(tree, '710000')).toMatchObject({ en: 'Taiwan', missing: 'all' });
    const counties = tree.flatMap((p) => p.children ?? []).flatMap((c) => c.children ?? [c]);
    expect(counties.length).toBeGreaterThan(2800);
    expect(await districtLabel('440304', 'zh-CN')).toBe('广东省 深圳市 福田区');
    expect(await districtLabel('440304', 'en')).toBe('Futian District, Shenzhen, Guangdong');
  });

  it('gives simplified boundaries of a county, a city and a province in WGS-84', async () => {
    const futian = await loadDistrictShape('440304');
    const shenzhen = await loadDistrictShape('440300');
    const guangdong = await loadDistrictShape('440000');
    const dongcheng = await loadDistrictShape('110101');
    // Shenzhen's civic centre (Futian); Luohu; Wangfujing (Dongcheng).
    expect(inside(futian!, 114.0545, 22.5415)).toBe(true);
    expect(inside(futian!, 114.13, 22.56)).toBe(false);
    expect(inside(shenzhen!, 114.13, 22.56)).toBe(true);
    expect(inside(guangdong!, 114.13, 22.56)).toBe(true);
    expect(inside(guangdong!, 116.4045, 39.91)).toBe(false);
    expect(inside(dongcheng!, 116.4045, 39.91)).toBe(true);
    // A prefecture is its counties' polygons; its outline leaves out the borders between them.
    expect(shenzhen!.coordinates.length).toBeGreaterThanOrEqual(futian!.coordinates.length + 7);
    const outline = await loadDistrictOutline('440300');
    const points = outline!.coordinates.flat();
    const nearest = (lon: number, lat: number) => Math.min(...points.map(([x, y]) => Math.hypot(x! - lon, y! - lat)));
    // A point of the Futian-Luohu border (shared, so not on the outline) and of Futian's coast.
    const futianPoints = futian!.coordinates.flat(2);
    expect(futianPoints.some(([x, y]) => nearest(x!, y!) > 0.01)).toBe(true);
    expect(futianPoints.some(([x, y]) => nearest(x!, y!) === 0)).toBe(true);
    expect(await loadDistrictShape('710000')).toBeNull();
    expect(await loadDistrictOutline('710000')).toBeNull();
    expect(await loadDistrictShape('999999')).toBeNull();
  });
});
