import { describe, expect, it } from 'vitest';
import { getCity } from '../src/cities.js';
import { Health } from '../src/health.js';
import { DeviceModel } from '../src/model.js';
import { Rng } from '../src/rng.js';

const NO_EVENTS = { sos: 0, fall: 0, removal: 0, highHeartRate: 0 };
// 2026-03-02 00:00 in Shenzhen (UTC+8).
const MIDNIGHT = Date.parse('2026-03-01T16:00:00Z');

describe('health', () => {
  it('keeps readings in physiological ranges over two days for many wearers', () => {
    const hr: number[] = [];
    const rest: number[] = [];
    const walking: number[] = [];
    const temps: number[] = [];
    const spo2: number[] = [];
    let bpOk = true;
    for (let seed = 1; seed <= 20; seed++) {
      const m = new DeviceModel('walk', getCity('shenzhen'), seed, MIDNIGHT, NO_EVENTS);
      for (let t = MIDNIGHT; t < MIDNIGHT + 48 * 3_600_000; t += 5 * 60_000) {
        m.advance(t);
        const s = m.health.snapshot();
        hr.push(s.heartRate);
        if (m.mover.moving) walking.push(s.heartRate);
        else if (s.sleep === 'awake' && !m.health.highHrUntil) rest.push(s.heartRate);
        temps.push(s.bodyTemp);
        spo2.push(s.spo2);
        if (!(
          s.systolic >= 90 &&
          s.systolic <= 170 &&
          s.diastolic >= 55 &&
          s.diastolic <= 105 &&
          s.systolic - s.diastolic >= 25
        ))
          bpOk = false;
        expect(s.battery).toBeGreaterThanOrEqual(0);
        expect(s.battery).toBeLessThanOrEqual(100);
      }
    }
    expect(bpOk).toBe(true);
    expect(Math.min(...rest)).toBeGreaterThanOrEqual(58);
    expect(Math.max(...rest)).toBeLessThanOrEqual(92);
    const share = (xs: number[], f: (x: number) => boolean) => xs.filter(f).length / xs.length;
    expect(share(rest, (x) => x >= 60 && x <= 90)).toBeGreaterThan(0.97);
    const avg = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    expect(walking.length).toBeGreaterThan(10);
    expect(avg(walking)).toBeGreaterThan(avg(rest) + 15);
    expect(Math.min(...hr)).toBeGreaterThanOrEqual(45);
    expect(Math.max(...hr)).toBeLessThanOrEqual(130);
    expect(share(temps, (t) => t >= 36.2 && t <= 37.2)).toBeGreaterThan(0.95);
    expect(Math.min(...temps)).toBeGreaterThanOrEqual(35.8);
    expect(Math.max(...temps)).toBeLessThanOrEqual(37.6);
    expect(share(spo2, (s) => s >= 95 && s <= 99)).toBeGreaterThan(0.9);
    expect(Math.min(...spo2)).toBeGreaterThanOrEqual(90);
    expect(Math.max(...spo2)).toBeLessThanOrEqual(100);
  });

  it('counts steps through the day and starts again at local midnight', () => {
    const m = new DeviceModel('walk', getCity('shenzhen'), 77, MIDNIGHT + 7 * 3_600_000, NO_EVENTS);
    let last = 0;
    for (let t = MIDNIGHT + 7 * 3_600_000; t < MIDNIGHT + 24 * 3_600_000 - 60_000; t += 60_000) {
      m.advance(t);
      expect(m.health.steps).toBeGreaterThanOrEqual(last);
      last = m.health.steps;
    }
    expect(last).toBeGreaterThan(1000);
    m.advance(MIDNIGHT + 24 * 3_600_000 + 60_000);
    expect(m.health.steps).toBeLessThan(100);
  });

  it('splits steps walked across midnight between the two days', () => {
    const h = new Health(getCity('shenzhen'), new Rng(3), MIDNIGHT - 60_000);
    // 84 m walked in the minute around midnight, half of it after: ~60 steps for the new day.
    h.advance(MIDNIGHT + 30_000, { walked: 84, moving: true, atHome: false, night: true });
    expect(h.steps).toBeGreaterThan(25);
    expect(h.steps).toBeLessThan(75);
  });

  it('sleeps at night in light and deep stages and charges the battery', () => {
    const m = new DeviceModel('walk', getCity('shenzhen'), 11, MIDNIGHT - 6 * 3_600_000, NO_EVENTS);
    const stages = new Set<string>();
    let charging = 0;
    let dayCharging = 0;
    for (let t = MIDNIGHT - 6 * 3_600_000; t < MIDNIGHT + 18 * 3_600_000; t += 5 * 60_000) {
      m.advance(t);
      const hour = ((t - MIDNIGHT) / 3_600_000 + 24) % 24;
      if (hour >= 1 && hour < 5) {
        stages.add(m.health.sleep);
        if (m.health.charging) charging++;
      }
      if (hour >= 10 && hour < 20 && m.health.charging) dayCharging++;
      if (hour >= 10 && hour < 20) expect(m.health.sleep).toBe('awake');
    }
    expect(stages.has('deep')).toBe(true);
    expect(stages.has('light')).toBe(true);
    expect(charging).toBeGreaterThan(40);
    expect(dayCharging).toBe(0);
    const night = m.health.sleepMinutes;
    expect(night.deep + night.light).toBeGreaterThan(5 * 60);
  });

  it('drains the battery by day', () => {
    const m = new DeviceModel('walk', getCity('shenzhen'), 5, MIDNIGHT + 8 * 3_600_000, NO_EVENTS);
    const before = m.health.battery;
    m.advance(MIDNIGHT + 16 * 3_600_000);
    expect(before - m.health.battery).toBeGreaterThan(15);
  });

  it('raises a high heart rate episode on trigger and spontaneous events at their rates', () => {
    const m = new DeviceModel('walk', getCity('shenzhen'), 8, MIDNIGHT + 10 * 3_600_000, NO_EVENTS);
    m.advance(MIDNIGHT + 10 * 3_600_000 + 60_000);
    m.trigger('highHeartRate');
    expect(m.health.heartRate()).toBeGreaterThan(120);
    expect(m.takeEvents()).toEqual(['highHeartRate']);
    m.advance(MIDNIGHT + 11 * 3_600_000);
    expect(m.health.heartRate()).toBeLessThan(120);

    // 200 SOS per day over 12 h: about 100 events.
    const busy = new DeviceModel('walk', getCity('shenzhen'), 9, MIDNIGHT + 8 * 3_600_000, {
      sos: 200,
      fall: 0,
      removal: 0,
      highHeartRate: 0,
    });
    busy.advance(MIDNIGHT + 20 * 3_600_000);
    const sos = busy.takeEvents().filter((e) => e === 'sos').length;
    expect(sos).toBeGreaterThan(60);
    expect(sos).toBeLessThan(150);
  });
});
