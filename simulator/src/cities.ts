// Built-in cities: a centre, a radius the devices stay within, and a street grid (block size and
// orientation) the walkers and vehicles follow. Cell identities use the country's real MCC/MNC so
// the LBS data looks like what a device in that city would report.

export interface City {
  name: string;
  lat: number;
  lon: number;
  /** IANA zone, for nights, sleep and the midnight step reset. */
  timeZone: string;
  /** Devices stay within this distance of the centre (metres). */
  radius: number;
  /** Street grid: spacing between parallel streets (metres) and rotation from north (degrees). */
  block: number;
  gridAngle: number;
  mcc: number;
  mnc: number;
}

export const CITIES: Record<string, City> = {
  shenzhen: {
    name: 'shenzhen',
    lat: 22.5431,
    lon: 114.0579,
    timeZone: 'Asia/Shanghai',
    radius: 9000,
    block: 120,
    gridAngle: 8,
    mcc: 460,
    mnc: 0,
  },
  beijing: {
    name: 'beijing',
    lat: 39.9042,
    lon: 116.4074,
    timeZone: 'Asia/Shanghai',
    radius: 10000,
    block: 150,
    gridAngle: 0,
    mcc: 460,
    mnc: 0,
  },
  shanghai: {
    name: 'shanghai',
    lat: 31.2304,
    lon: 121.4737,
    timeZone: 'Asia/Shanghai',
    radius: 9000,
    block: 130,
    gridAngle: 15,
    mcc: 460,
    mnc: 1,
  },
  hongkong: {
    name: 'hongkong',
    lat: 22.3193,
    lon: 114.1694,
    timeZone: 'Asia/Hong_Kong',
    radius: 5000,
    block: 100,
    gridAngle: 20,
    mcc: 454,
    mnc: 0,
  },
  london: {
    name: 'london',
    lat: 51.5074,
    lon: -0.1278,
    timeZone: 'Europe/London',
    radius: 8000,
    block: 110,
    gridAngle: 12,
    mcc: 234,
    mnc: 10,
  },
  newyork: {
    name: 'newyork',
    lat: 40.758,
    lon: -73.9855,
    timeZone: 'America/New_York',
    radius: 7000,
    block: 80,
    gridAngle: 29,
    mcc: 310,
    mnc: 260,
  },
};

export function getCity(name: string | City | undefined): City {
  if (name === undefined) return CITIES.shenzhen;
  if (typeof name !== 'string') return name;
  const c = CITIES[name.toLowerCase().replace(/[^a-z]/g, '')];
  if (!c) throw new Error(`unknown city ${name} (known: ${Object.keys(CITIES).join(', ')})`);
  return c;
}

const M_PER_DEG = 111_320;

/** Grid coordinates (metres along the two street directions) to WGS-84. */
export function gridToLatLon(city: City, u: number, v: number): { lat: number; lon: number } {
  const a = (city.gridAngle * Math.PI) / 180;
  // u runs "east-ish", v "north-ish"; the grid is rotated clockwise by gridAngle.
  const east = u * Math.cos(a) + v * Math.sin(a);
  const north = -u * Math.sin(a) + v * Math.cos(a);
  return {
    lat: city.lat + north / M_PER_DEG,
    lon: city.lon + east / (M_PER_DEG * Math.cos((city.lat * Math.PI) / 180)),
  };
}

/** Compass bearing (0 = north, clockwise) of a movement along the grid by (du, dv). */
export function gridBearing(city: City, du: number, dv: number): number {
  const a = (city.gridAngle * Math.PI) / 180;
  const east = du * Math.cos(a) + dv * Math.sin(a);
  const north = -du * Math.sin(a) + dv * Math.cos(a);
  const deg = (Math.atan2(east, north) * 180) / Math.PI;
  return (deg + 360) % 360;
}

/** Great-circle distance in metres. */
export function haversine(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const r = 6_371_000;
  const p1 = (lat1 * Math.PI) / 180;
  const p2 = (lat2 * Math.PI) / 180;
  const dp = p2 - p1;
  const dl = ((lon2 - lon1) * Math.PI) / 180;
  const h = Math.sin(dp / 2) ** 2 + Math.cos(p1) * Math.cos(p2) * Math.sin(dl / 2) ** 2;
  return 2 * r * Math.asin(Math.min(1, Math.sqrt(h)));
}

// Offsets change twice a year, so the last answer per zone is reused for the rest of its hour:
// keeps Intl off the hot path.
const offsetCache = new Map<string, { from: number; to: number; off: number }>();

/** Minutes to add to UTC to get the city's local time at `ms`. */
export function utcOffsetMinutes(timeZone: string, ms: number): number {
  const hit = offsetCache.get(timeZone);
  if (hit && ms >= hit.from && ms < hit.to) return hit.off;
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
  }).formatToParts(new Date(ms));
  const get = (t: string) => Number(parts.find((p) => p.type === t)?.value ?? 0);
  const local = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'));
  const off = Math.round((local - Math.floor(ms / 60_000) * 60_000) / 60_000);
  const from = Math.floor(ms / 3_600_000) * 3_600_000;
  offsetCache.set(timeZone, { from, to: from + 3_600_000, off });
  return off;
}

/** Local clock of the city: day number (for the midnight reset) and hour of day as a fraction. */
export function localTime(city: City, ms: number): { day: number; hour: number; msOfDay: number } {
  const local = ms + utcOffsetMinutes(city.timeZone, ms) * 60_000;
  const day = Math.floor(local / 86_400_000);
  const msOfDay = local - day * 86_400_000;
  return { day, hour: msOfDay / 3_600_000, msOfDay };
}
