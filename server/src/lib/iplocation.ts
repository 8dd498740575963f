// IP location from the offline ip2region database shipped in its npm package (no network).
import ip2region from 'ip2region';

// The package is CommonJS with an `exports.default`; under Node's ESM loader that arrives nested.
const IP2Region = ((ip2region as unknown as { default?: typeof ip2region }).default ?? ip2region) as typeof ip2region;
let searcher: InstanceType<typeof IP2Region> | undefined;

export interface IpLocation {
  country: string;
  province: string;
  city: string;
  isp: string;
}

export function lookupIp(ip: string): IpLocation {
  const clean = ip.replace(/^::ffff:/, '');
  if (!clean || clean === '::1' || clean.startsWith('127.')) return { country: '', province: '', city: '', isp: 'localhost' };
  searcher ??= new IP2Region();
  try {
    const r = searcher.search(clean);
    if (!r) return { country: '', province: '', city: '', isp: '' };
    return { country: r.country ?? '', province: r.province ?? '', city: r.city ?? '', isp: r.isp ?? '' };
  } catch {
    return { country: '', province: '', city: '', isp: '' };
  }
}

/** "中国 广东省 深圳市" style text; empty for unknown addresses. */
export function ipLocationText(ip: string): string {
  const l = lookupIp(ip);
  return [l.country, l.province, l.city].filter((p) => p && p !== '0').join(' ') || l.isp;
}
