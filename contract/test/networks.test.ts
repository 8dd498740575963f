// Allowed source networks: what an entry may be, its canonical form, and matching addresses
// (an IPv4-mapped IPv6 address is its IPv4 address), with the device form's schema.
import { describe, expect, it } from 'vitest';
import { canonicalNetwork, inNetworks, parseNetworks, device } from '../src/index.js';

describe('allowed networks', () => {
  it('reads addresses and CIDR ranges, and nothing else', () => {
    expect(canonicalNetwork('203.0.113.9/24')).toBe('203.0.113.0/24');
    expect(canonicalNetwork(' 2001:DB8::5/32 ')).toBe('2001:db8::/32');
    expect(canonicalNetwork('198.51.100.7')).toBe('198.51.100.7');
    expect(canonicalNetwork('198.51.100.7/32')).toBe('198.51.100.7/32');
    expect(canonicalNetwork('::1')).toBe('::1');
    for (const bad of ['', '10.1', '0x0a.0.0.1', '10.0.0.256', '10.0.0.0/33', '2001:db8::/129', 'fe80::1%eth0', 'example.com', '10.0.0.0/8/8']) {
      expect(canonicalNetwork(bad), bad).toBeNull();
    }
  });

  it('matches addresses against the ranges', () => {
    const ranges = parseNetworks(['203.0.113.0/24', '2001:db8::/32', '198.51.100.7']);
    expect(inNetworks('203.0.113.200', ranges)).toBe(true);
    expect(inNetworks('::ffff:203.0.113.5', ranges)).toBe(true);
    expect(inNetworks('2001:db8:1::9', ranges)).toBe(true);
    expect(inNetworks('198.51.100.7', ranges)).toBe(true);
    expect(inNetworks('198.51.100.8', ranges)).toBe(false);
    expect(inNetworks('127.0.0.1', ranges)).toBe(false);
    expect(inNetworks('not an address', ranges)).toBe(false);
  });

  it('checks the device form: each entry, the count, repeats dropped', () => {
    const ok = device.editDeviceRequest.safeParse({ DeviceId: 1, AllowedNetworks: ['203.0.113.9/24', '203.0.113.0/24', '2001:DB8::/32'] });
    expect(ok.success && ok.data.AllowedNetworks).toEqual(['203.0.113.0/24', '2001:db8::/32']);
    const bad = device.editDeviceRequest.safeParse({ DeviceId: 1, AllowedNetworks: ['203.0.113.0/24', 'nowhere'] });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]).toMatchObject({ path: ['AllowedNetworks', 1], message: 'device.networkInvalid', params: { value: 'nowhere' } });
  });
});
