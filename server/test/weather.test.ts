// The weather on the watches, against a local server speaking the Open-Meteo forecast API: the
// WEATHER command with each device's area forecast (asked once per area and hour), the text in the
// owner's language, devices without a position left out, the weather switch, and the daily push
// once a day after its time.
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWatchFrame, watchContent } from '@wt/protocols';
import { databases, startTestPlatform, type TestPlatform } from './helpers.js';
import { connectWatch, eventually } from './gateway-helpers.js';
import { account, addAccount, addDevices } from './monitor-fixtures.js';
import { dailyWeather } from '../src/modules/message/weather.js';

type Row = Record<string, any>;
const hex = (s: string) => Buffer.from(s, 'utf16le').swap16().toString('hex').toUpperCase();

describe.each(databases())('weather push on %s', (kind) => {
  let p: TestPlatform;
  let admin: string;
  let api: Server;
  const asked: URLSearchParams[] = [];

  beforeAll(async () => {
    api = createServer((req, res) => {
      const q = new URL(req.url!, 'http://x').searchParams;
      asked.push(q);
      res.setHeader('content-type', 'application/json');
      // No forecast south of 40°S; rain north of 30°, otherwise a clear day.
      if (Number(q.get('latitude')) < -40) {
        res.statusCode = 503;
        res.end('{}');
        return;
      }
      const north = Number(q.get('latitude')) > 30;
      res.end(JSON.stringify({ latitude: Number(q.get('latitude')), daily_units: { temperature_2m_max: '°C' }, daily: { time: ['2026-11-26'], weather_code: [north ? 63 : 0], temperature_2m_max: [north ? 8.4 : 24.6], temperature_2m_min: [north ? 1.2 : 17.5] } }));
    });
    await new Promise<void>((r) => api.listen(0, '127.0.0.1', r));
    p = await startTestPlatform(kind, { WEATHER_URL: `http://127.0.0.1:${(api.address() as { port: number }).port}/v1/forecast`, WEATHER_API_KEY: 'k-123', WEATHER_PUSH_AT: '07:30' });
    admin = (await p.login()).token;
  });
  afterAll(async () => {
    await p?.stop();
    await new Promise<void>((r) => api.close(() => r()));
  });

  it('sends each device the forecast of its area in its owner language, asking once per area', async () => {
    const clinic = await account(p, 'clinic01');
    await p.deps.database.query(`UPDATE accounts SET language = 'en' WHERE id = $1`, [clinic.id]);
    const [a, b, c] = await addDevices(p, 'clinic01', [
      { name: 'Shenzhen 1', lat: 22.541, lon: 113.951 },
      { name: 'Shenzhen 2', lat: 22.539, lon: 113.953 },
      { name: 'Beijing', lat: 39.9, lon: 116.4 },
    ]);
    await addDevices(p, 'clinic01', [{ name: 'Nowhere' }]);
    const dev = await connectWatch(p.deps.ingest.ports.watch!, a!.imei);
    try {
      await eventually(() => p.deps.ingest.sessions.has(a!.id));
      asked.length = 0;
      const r = await p.call('/Command/sendWeatherAllDevice', { UserId: clinic.id }, admin);
      expect(r.body).toMatchObject({ State: 200, NoForecast: 0, Unsupported: 0 });
      expect(r.body.NoPosition).toBeGreaterThanOrEqual(1);
      // One request per area (the demo's devices of the care home have areas of their own), with the key.
      const areas = asked.map((q) => `${q.get('latitude')},${q.get('longitude')}`);
      expect(new Set(areas).size).toBe(areas.length);
      expect(areas).toEqual(expect.arrayContaining(['22.5,114.0', '39.9,116.4']));
      expect(asked[0]!.get('apikey')).toBe('k-123');
      expect(asked[0]!.get('daily')).toBe('weather_code,temperature_2m_max,temperature_2m_min');
      await dev.untilText(`*WEATHER,20261126,0,18,25,${hex('Clear')}]`);
      dev.send(buildWatchFrame('3G', a!.imei, watchContent.commandReply('WEATHER')));
      const cmds = await p.deps.database.query<Row>(`SELECT device_id, params FROM commands WHERE code = 'WEATHER' ORDER BY device_id`);
      const byDevice = new Map(cmds.map((x) => [x.device_id, x.params]));
      expect(byDevice.get(b!.id)).toMatchObject({ code: 0, min: 18, max: 25, text: 'Clear' });
      expect(byDevice.get(c!.id)).toMatchObject({ code: 63, min: 1, max: 8, text: 'Rain' });
      await eventually(async () => (await p.call('/Message/SendDevices', { SendId: r.body.SendId, Status: 'answered' }, admin)).body.Total === 1);

      // Within the hour the forecasts come from the cache.
      asked.length = 0;
      await p.call('/Command/sendWeatherAllDevice', { UserId: clinic.id }, admin);
      expect(asked).toHaveLength(0);
    } finally {
      dev.close();
    }
  });

  it('needs the weather switch, and pushes daily once after its time', async () => {
    const clinicToken = (await p.login('clinic01')).token;
    expect((await p.call('/Command/sendWeatherAllDevice', {}, clinicToken)).body).toMatchObject({ State: 403 });
    const clinic = await account(p, 'clinic01');
    // Only the care home has the switch for this check; 07:00 in UTC+8 is before the push time.
    await p.deps.database.query(`UPDATE accounts SET is_weather_config = CASE WHEN id = $1 THEN 1 ELSE 2 END, time_zone_offset = 480`, [clinic.id]);
    const before = (await p.deps.database.query<Row>(`SELECT count(*)::int AS n FROM message_sends WHERE kind = 'weather'`))[0]!.n;
    expect(await dailyWeather(p.deps, new Date('2026-11-25T23:00:00Z'))).toBe(0);
    expect(await dailyWeather(p.deps, new Date('2026-11-25T23:45:00Z'))).toBe(1);
    expect(await dailyWeather(p.deps, new Date('2026-11-26T05:00:00Z'))).toBe(0);
    expect(await dailyWeather(p.deps, new Date('2026-11-26T23:40:00Z'))).toBe(1);
    const sends = await p.deps.database.query<Row>(`SELECT account_id, total FROM message_sends WHERE kind = 'weather' ORDER BY id`);
    expect(sends.length - before).toBe(2);
    expect(sends.at(-1)).toMatchObject({ account_id: clinic.id });
    expect(sends.at(-1)!.total).toBeGreaterThanOrEqual(3);
  });

  it('refuses a send that would reach no device, with the reason, and records no send', async () => {
    const sends = async () => (await p.deps.database.query<Row>(`SELECT count(*)::int AS n FROM message_sends WHERE kind = 'weather'`))[0]!.n;
    const before = await sends();
    await p.deps.database.query(`UPDATE accounts SET is_weather_config = 1 WHERE login_name = 'admin'`);
    const unplaced = await addAccount(p, 'admin', 'weather-unplaced');
    await addDevices(p, 'weather-unplaced', [{ name: 'Never located' }]);
    const none = await p.call('/Command/sendWeatherAllDevice', { UserId: unplaced.id }, admin);
    expect(none.body).toMatchObject({ State: 400, Message: 'weather.noDevices', Params: { total: 1, noPosition: 1, unsupported: 0 } });

    const far = await addAccount(p, 'admin', 'weather-far');
    await addDevices(p, 'weather-far', [{ name: 'Antarctic', lat: -70.1, lon: 10.2 }]);
    const noForecast = await p.call('/Command/sendWeatherAllDevice', { UserId: far.id }, admin);
    expect(noForecast.body).toMatchObject({ State: 400, Message: 'weather.noForecast', Params: { count: 1 } });
    expect(await sends()).toBe(before);
  });
});
