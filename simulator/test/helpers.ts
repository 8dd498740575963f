export { CITIES, getCity } from '../src/cities.js';
export { DeviceModel } from '../src/model.js';

/** Local hour in Shenzhen (UTC+8, no DST). */
export function localTimeForTest(ms: number): number {
  return (((ms / 3_600_000 + 8) % 24) + 24) % 24;
}
