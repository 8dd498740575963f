// The offline reverse geocoder: province, city and district of points in China from the shipped
// boundaries, the country elsewhere, nothing at sea; in simplified and traditional Chinese and in
// English. Through the device card's call, the default configuration answers it in the caller's language.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { locate, offlineAddress } from '../src/modules/monitor/offline-geocoder.js';
import { databases, startTestPlatform, type TestPlatform } from './helpers.js';

describe('offline geocoder', () => {
  it('names the province, city and district of known places', () => {
    // Shenzhen, Futian: the CBD.
    expect(locate(22.5347, 114.0555)).toMatchObject({
      country: { zh: '中国', en: 'China' },
      province: { zh: '广东省', en: 'Guangdong' },
      city: { zh: '深圳市', en: 'Shenzhen' },
      district: { zh: '福田区', en: 'Futian District' },
    });
    expect(offlineAddress(22.5347, 114.0555, 'zh-CN')).toBe('广东省深圳市福田区');
    expect(offlineAddress(22.5347, 114.0555, 'en')).toBe('Futian District, Shenzhen, Guangdong');
    // Beijing, Dongcheng (Wangfujing): a municipality is named once.
    expect(offlineAddress(39.914, 116.4108, 'zh-CN')).toBe('北京市东城区');
    expect(offlineAddress(39.914, 116.4108, 'en')).toBe('Dongcheng District, Beijing');
    // Shanghai, Pudong (Century Park), and in traditional characters.
    expect(offlineAddress(31.219, 121.551, 'zh-CN')).toBe('上海市浦东新区');
    expect(offlineAddress(31.219, 121.551, 'zh-TW')).toBe('上海市浦東新區');
    expect(offlineAddress(31.219, 121.551, 'en')).toBe('Pudong New Area, Shanghai');
    // Beijing's Haidian is not Dongcheng: the district is the one holding the point.
    expect(offlineAddress(39.9593, 116.2983, 'zh-CN')).toBe('北京市海淀区');
  });

  it('names the country outside China and nothing at sea', () => {
    expect(offlineAddress(35.68, 139.76, 'zh-CN')).toBe('日本');
    expect(offlineAddress(35.68, 139.76, 'zh-TW')).toBe('日本');
    expect(offlineAddress(35.68, 139.76, 'en')).toBe('Japan');
    expect(offlineAddress(48.8566, 2.3522, 'en')).toBe('France');
    expect(locate(0, -150)).toBeNull();
    expect(offlineAddress(0, -150, 'en')).toBeNull();
  });
});

describe.each(databases())('device card address (%s)', (kind) => {
  let p: TestPlatform;
  let token: string;
  beforeAll(async () => {
    p = await startTestPlatform(kind);
    token = (await p.login()).token;
  });
  afterAll(async () => p?.stop());

  it('answers the offline address in the caller language by default', async () => {
    const zh = await p.call('/device/reverse_Geocoding_gaode', { Lat: 22.5347, Lon: 114.0555 }, token, {
      'x-language': 'zh-CN',
    });
    expect(zh.body).toEqual({ State: 200, Address: '广东省深圳市福田区', Source: 'offline' });
    const en = await p.call('/device/reverse_Geocoding_gaode', { Lat: 22.5347, Lon: 114.0555 }, token, {
      'x-language': 'en',
    });
    expect(en.body.Address).toBe('Futian District, Shenzhen, Guangdong');
    const tw = await p.call(
      '/device/reverse_Geocoding_gaode',
      { Lat: 31.219, Lon: 121.551, Language: 'zh-TW' },
      token,
    );
    expect(tw.body.Address).toBe('上海市浦東新區');
    const sea = await p.call('/device/reverse_Geocoding_gaode', { Lat: 0, Lon: -150 }, token);
    expect(sea.body).toEqual({ State: 200, Address: '0.000000, -150.000000', Source: 'coordinates' });
  });
});
