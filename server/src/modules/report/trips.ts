// Trips and stops of one device from its position history, and its figures per day. Pure functions
// over positions (any order, duplicates allowed): the report calls read the positions and hand them here.
//
// A stop is a stay of at least `stopMinutes` during which every fix lies within `stopRadius` metres of
// the stay's running centre and reports no speed above `stopSpeed` km/h. A stationary GPS wandering by
// tens of metres therefore stays one stop; two stays whose centres lie within the radius of each other
// are one stop (a single stray fix between them is jitter, not a trip). A gap in the fixes inside a
// stay (the device off while parked) is part of the stop; a gap across which the device moved (a
// tunnel) is part of the trip, counted in a straight line, unless it is longer than `gapMinutes`, which
// ends the trip before the gap and starts another after it. Trips shorter than `minTripMeters` are
// dropped: they are what is left of jitter at the edges of a period.
import { haversine } from '../history/path.js';

export interface Fix {
  lat: number;
  lon: number;
  /** Epoch milliseconds. */
  time: number;
  /** km/h as reported by the device, null when not reported. */
  speed: number | null;
}

export interface TripOptions {
  stopMinutes: number;
  stopRadius: number;
  stopSpeed: number;
  gapMinutes: number;
  minTripMeters: number;
}

/** The defaults of the trips and stops report (docs/decisions.md, "Reports"). */
export const TRIP_DEFAULTS: TripOptions = { stopMinutes: 5, stopRadius: 100, stopSpeed: 5, gapMinutes: 60, minTripMeters: 200 };

export interface Stop {
  start: number;
  end: number;
  lat: number;
  lon: number;
}

export interface Trip {
  start: number;
  end: number;
  startLat: number;
  startLon: number;
  endLat: number;
  endLon: number;
  /** Metres. */
  distance: number;
  /** km/h. */
  maxSpeed: number;
  /** km/h: distance over duration. */
  avgSpeed: number;
  /** The fixes of the trip, first to last. */
  points: Fix[];
}

export interface TripsAndStops {
  trips: Trip[];
  stops: Stop[];
}

/** Fixes by time, one per instant (of fixes at the same instant, the last one read wins), without invalid coordinates. */
export function orderFixes(fixes: readonly Fix[]): Fix[] {
  const valid = fixes.filter((f) => Number.isFinite(f.lat) && Number.isFinite(f.lon) && Number.isFinite(f.time) && Math.abs(f.lat) <= 90 && Math.abs(f.lon) <= 180);
  let sorted = true;
  for (let i = 1; i < valid.length && sorted; i++) sorted = valid[i]!.time >= valid[i - 1]!.time;
  // Read by time from the database, the fixes are usually in order already; the sort is stable.
  if (!sorted) valid.sort((a, b) => a.time - b.time);
  const out: Fix[] = [];
  for (const f of valid) {
    if (out.length && out[out.length - 1]!.time === f.time) out[out.length - 1] = f;
    else out.push(f);
  }
  return out;
}

interface Stay {
  from: number;
  to: number;
  lat: number;
  lon: number;
  n: number;
}

/** Index ranges where the device stayed (before the minimum duration is applied). */
function stays(p: Fix[], o: TripOptions): Stay[] {
  const out: Stay[] = [];
  const stopMs = o.stopMinutes * 60_000;
  let i = 0;
  while (i < p.length) {
    const first = p[i]!;
    if ((first.speed ?? 0) > o.stopSpeed) {
      i++;
      continue;
    }
    let lat = first.lat;
    let lon = first.lon;
    let n = 1;
    let j = i;
    while (j + 1 < p.length) {
      const next = p[j + 1]!;
      if ((next.speed ?? 0) > o.stopSpeed) break;
      if (haversine({ lat, lon }, next) > o.stopRadius) break;
      j++;
      n++;
      lat += (next.lat - lat) / n;
      lon += (next.lon - lon) / n;
    }
    if (p[j]!.time - first.time >= stopMs) {
      out.push({ from: i, to: j, lat, lon, n });
      i = j + 1;
    } else {
      i++;
    }
  }
  // Stays whose centres are within the radius of each other are one stay: what lies between is jitter.
  const merged: Stay[] = [];
  for (const s of out) {
    const last = merged[merged.length - 1];
    if (last && haversine(last, s) <= o.stopRadius) {
      const n = last.n + s.n;
      merged[merged.length - 1] = { from: last.from, to: s.to, lat: (last.lat * last.n + s.lat * s.n) / n, lon: (last.lon * last.n + s.lon * s.n) / n, n };
    } else {
      merged.push(s);
    }
  }
  return merged;
}

function tripOf(points: Fix[]): Trip {
  const first = points[0]!;
  const last = points[points.length - 1]!;
  let distance = 0;
  let maxSpeed = 0;
  for (let k = 0; k < points.length; k++) {
    const s = points[k]!.speed;
    if (s !== null && Number.isFinite(s)) maxSpeed = Math.max(maxSpeed, s);
    if (k > 0) distance += haversine(points[k - 1]!, points[k]!);
  }
  const hours = (last.time - first.time) / 3_600_000;
  const avgSpeed = hours > 0 ? distance / 1000 / hours : 0;
  // A device that reports no speed: the fastest leg between two fixes at least a minute apart.
  if (maxSpeed === 0 && points.some((pt) => pt.speed === null)) {
    for (let k = 1; k < points.length; k++) {
      const h = (points[k]!.time - points[k - 1]!.time) / 3_600_000;
      if (h >= 1 / 60) maxSpeed = Math.max(maxSpeed, haversine(points[k - 1]!, points[k]!) / 1000 / h);
    }
    maxSpeed = Math.max(maxSpeed, avgSpeed);
  }
  return {
    start: first.time,
    end: last.time,
    startLat: first.lat,
    startLon: first.lon,
    endLat: last.lat,
    endLon: last.lon,
    distance,
    maxSpeed,
    avgSpeed,
    points,
  };
}

/** Trips and stops of a device's fixes (any order). */
export function tripsAndStops(fixes: readonly Fix[], options: Partial<TripOptions> = {}): TripsAndStops {
  const o = { ...TRIP_DEFAULTS, ...options };
  const p = orderFixes(fixes);
  if (p.length < 2) return { trips: [], stops: [] };
  const found = stays(p, o);
  const stops: Stop[] = found.map((s) => ({ start: p[s.from]!.time, end: p[s.to]!.time, lat: s.lat, lon: s.lon }));
  // The moving stretches: between the stays, from the last fix of one to the first of the next.
  const stretches: [number, number][] = [];
  let from = 0;
  for (const s of found) {
    if (s.from > from) stretches.push([from, s.from]);
    from = s.to;
  }
  if (from < p.length - 1) stretches.push([from, p.length - 1]);
  const gapMs = o.gapMinutes * 60_000;
  const trips: Trip[] = [];
  for (const [a, b] of stretches) {
    let start = a;
    for (let k = a + 1; k <= b; k++) {
      const long = p[k]!.time - p[k - 1]!.time > gapMs;
      if (long || k === b) {
        const end = long ? k - 1 : k;
        if (end > start) {
          const trip = tripOf(p.slice(start, end + 1));
          if (trip.distance >= o.minTripMeters) trips.push(trip);
        }
        start = k;
      }
    }
  }
  return { trips, stops };
}

export interface DaySummary {
  /** YYYY-MM-DD in the viewer's zone. */
  day: string;
  /** Metres moved on trips that day. */
  distance: number;
  movingMs: number;
  stoppedMs: number;
  /** km/h, 0 when the device did not move. */
  maxSpeed: number;
  first: Fix | null;
  last: Fix | null;
}

const DAY_MS = 86_400_000;

/** The day (YYYY-MM-DD) of an instant in a zone `offsetMinutes` east of UTC. */
export function dayOf(time: number, offsetMinutes: number): string {
  return new Date(time + offsetMinutes * 60_000).toISOString().slice(0, 10);
}

/** The first instant of a day in a zone `offsetMinutes` east of UTC. */
export function dayStart(day: string, offsetMinutes: number): number {
  return Date.parse(`${day}T00:00:00Z`) - offsetMinutes * 60_000;
}

function overlap(a: number, b: number, from: number, to: number): number {
  return Math.max(0, Math.min(b, to) - Math.max(a, from));
}

/**
 * Figures per day of the viewer's zone for the days of [from, to): trips and stops are cut at
 * midnight, so a stop across midnight counts on both days; a trip's legs count on the day of their end.
 */
export function daySummaries(fixes: readonly Fix[], r: TripsAndStops, offsetMinutes: number, from: number, to: number): DaySummary[] {
  const p = orderFixes(fixes).filter((f) => f.time >= from && f.time < to);
  const days: DaySummary[] = [];
  for (let d = dayOf(from, offsetMinutes); dayStart(d, offsetMinutes) < to; d = dayOf(dayStart(d, offsetMinutes) + DAY_MS, offsetMinutes)) {
    days.push({ day: d, distance: 0, movingMs: 0, stoppedMs: 0, maxSpeed: 0, first: null, last: null });
  }
  // Days by their index since the epoch in the zone: no date text per fix.
  const shift = offsetMinutes * 60_000;
  const firstIndex = Math.floor((dayStart(days[0]?.day ?? dayOf(from, offsetMinutes), offsetMinutes) + shift) / DAY_MS);
  const dayAt = (time: number) => days[Math.floor((time + shift) / DAY_MS) - firstIndex];
  for (const d of days) {
    const a = Math.max(from, dayStart(d.day, offsetMinutes));
    const b = Math.min(to, dayStart(d.day, offsetMinutes) + DAY_MS);
    for (const t of r.trips) d.movingMs += overlap(t.start, t.end, a, b);
    for (const s of r.stops) d.stoppedMs += overlap(s.start, s.end, a, b);
  }
  for (const t of r.trips) {
    for (let k = 0; k < t.points.length; k++) {
      const pt = t.points[k]!;
      const d = dayAt(pt.time);
      if (!d) continue;
      if (k > 0) d.distance += haversine(t.points[k - 1]!, pt);
      if (pt.speed !== null && Number.isFinite(pt.speed)) d.maxSpeed = Math.max(d.maxSpeed, pt.speed);
    }
  }
  for (const f of p) {
    const d = dayAt(f.time);
    if (!d) continue;
    d.first ??= f;
    d.last = f;
  }
  return days;
}
