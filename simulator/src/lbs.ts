// Cell towers and Wi-Fi access points around a position, stable for a place so that repeated
// indoor reports from the same building carry the same towers and networks, as real ones do.
import type { CellTower, WifiAccessPoint } from '@wt/protocols';
import type { City } from './cities.js';
import { hash32, type Rng } from './rng.js';

const CELL = 600; // metres per serving-cell square
const AREA = 4000; // metres per location area

export function cellsAt(city: City, u: number, v: number, rng: Rng, count = 3): CellTower[] {
  const out: CellTower[] = [];
  const cu = Math.floor(u / CELL);
  const cv = Math.floor(v / CELL);
  const lac = 1000 + (hash32(`${Math.floor(u / AREA)},${Math.floor(v / AREA)}`, city.mcc) % 60000);
  const neighbours: [number, number][] = [
    [0, 0],
    [1, 0],
    [0, 1],
    [-1, 0],
    [0, -1],
  ];
  for (let i = 0; i < Math.min(count, neighbours.length); i++) {
    const [a, b] = neighbours[i];
    const cid = 10000 + (hash32(`${cu + a},${cv + b}`, city.mnc + 7) % 200000);
    out.push({ mcc: city.mcc, mnc: city.mnc, lac, cid, rssi: Math.round(-60 - i * 12 - rng.range(0, 10)) });
  }
  return out;
}

function mac(h: number, k: number): string {
  const bytes = [
    0x02 | ((h >>> 24) & 0xfc),
    (h >>> 16) & 0xff,
    (h >>> 8) & 0xff,
    h & 0xff,
    (k * 37) & 0xff,
    (k * 91 + 3) & 0xff,
  ];
  return bytes.map((b) => b.toString(16).padStart(2, '0')).join(':');
}

export function wifiAt(u: number, v: number, rng: Rng, count = 3): WifiAccessPoint[] {
  const h = hash32(`${Math.round(u / 40)},${Math.round(v / 40)}`, 0x5f);
  const out: WifiAccessPoint[] = [];
  for (let k = 0; k < count; k++) {
    out.push({
      ssid: `net-${((h >>> (k * 4)) & 0xffff).toString(16)}`,
      mac: mac(h, k),
      rssi: Math.round(-45 - k * 9 - rng.range(0, 8)),
    });
  }
  return out;
}
