// Address of a coordinate for the device card (/device/reverse_Geocoding_gaode). By default the
// offline geocoder names the province, city and district from the boundaries shipped with the
// platform. With an online geocoder (AMap with GCJ-02 coordinates, or Nominatim) answers come from a
// cache table first, then the geocoder, and when it is unreachable or slow, the offline answer; the
// card never waits longer than GEOCODER_TIMEOUT_MS. Coordinates are answered only where nothing
// else names the place (at sea) or with GEOCODER=none.
import gcoord from 'gcoord';
import { eq } from 'drizzle-orm';
import type { AppDeps } from '../../deps.js';
import { geocodeCache } from '../../db/schema/index.js';
import { offlineAddress } from './offline-geocoder.js';

export interface Address {
  Address: string;
  Source: string;
}

/** Failures are remembered briefly so an offline server does not wait on every card. */
const FAILURE_TTL_MS = 5 * 60_000;
const failedUntil = new WeakMap<AppDeps, number>();

export function coordinatesText(lat: number, lon: number): string {
  return `${lat.toFixed(6)}, ${lon.toFixed(6)}`;
}

async function fetchJson(
  url: string,
  timeoutMs: number,
  headers: Record<string, string> = {},
): Promise<unknown> {
  const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), headers });
  if (!res.ok) throw new Error(`geocoder answered ${res.status}`);
  return res.json();
}

async function amap(deps: AppDeps, lat: number, lon: number, lang: string): Promise<string | null> {
  const key = deps.config.GEOCODER_KEY;
  if (!key) return null;
  // AMap expects GCJ-02; positions are stored as WGS-84.
  const [glon, glat] = gcoord.transform([lon, lat], gcoord.WGS84, gcoord.GCJ02);
  const base = deps.config.GEOCODER_URL ?? 'https://restapi.amap.com';
  const url = `${base}/v3/geocode/regeo?key=${encodeURIComponent(key)}&location=${glon.toFixed(6)},${glat.toFixed(6)}&language=${lang.startsWith('zh') ? 'zh' : 'en'}`;
  const body = (await fetchJson(url, deps.config.GEOCODER_TIMEOUT_MS)) as {
    status?: string;
    regeocode?: { formatted_address?: unknown };
  };
  const addr = body.status === '1' ? body.regeocode?.formatted_address : null;
  return typeof addr === 'string' && addr ? addr : null;
}

async function nominatim(deps: AppDeps, lat: number, lon: number, lang: string): Promise<string | null> {
  const base = deps.config.GEOCODER_URL ?? 'https://nominatim.openstreetmap.org';
  const url = `${base}/reverse?format=jsonv2&lat=${lat}&lon=${lon}&accept-language=${encodeURIComponent(lang)}`;
  const body = (await fetchJson(url, deps.config.GEOCODER_TIMEOUT_MS, {
    'user-agent': `${deps.config.PLATFORM_TITLE} geocoder`,
  })) as { display_name?: unknown };
  return typeof body.display_name === 'string' && body.display_name ? body.display_name : null;
}

function offline(lat: number, lon: number, lang: string): Address {
  const address = offlineAddress(lat, lon, lang);
  return address
    ? { Address: address, Source: 'offline' }
    : { Address: coordinatesText(lat, lon), Source: 'coordinates' };
}

export async function reverseGeocode(
  deps: AppDeps,
  lat: number,
  lon: number,
  lang: string,
): Promise<Address> {
  const kind = deps.config.GEOCODER;
  if (kind === 'none') return { Address: coordinatesText(lat, lon), Source: 'coordinates' };
  if (kind === 'offline') return offline(lat, lon, lang);
  const key = `${lat.toFixed(4)},${lon.toFixed(4)},${lang}`;
  const db = deps.database.db;
  const [hit] = await db.select().from(geocodeCache).where(eq(geocodeCache.key, key)).limit(1);
  if (hit) return { Address: hit.address, Source: 'cache' };
  if ((failedUntil.get(deps) ?? 0) < Date.now()) {
    try {
      const address =
        kind === 'amap' ? await amap(deps, lat, lon, lang) : await nominatim(deps, lat, lon, lang);
      if (address) {
        await db.insert(geocodeCache).values({ key, address, source: kind }).onConflictDoNothing();
        return { Address: address, Source: kind };
      }
    } catch (err) {
      failedUntil.set(deps, Date.now() + FAILURE_TTL_MS);
      deps.log.warn(
        { err: (err as Error).message, geocoder: kind },
        'reverse geocoding failed; answering the offline address',
      );
    }
  }
  return offline(lat, lon, lang);
}
