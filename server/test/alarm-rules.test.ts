// The alarm engine's decisions, without a database: which alarm each device report means, every
// health threshold at, just inside and just beyond its limit, and where thresholds come from.
import { describe, expect, it } from 'vitest';
import { ALARM_CODES as C, ALARM_TYPES, DEFAULT_THRESHOLDS, STICKY_ALARM_CODES, type HealthThresholds } from '@wt/contract';
import { backoffMs, codeOfDeviceAlarm, evaluateHealth, hasCheckedMeasure, pathIdsUpward, resolveThresholds } from '../src/rules/alarm-rules.js';
import { signBody } from '../src/modules/push/outbox.js';
import { sleepByNight } from '../src/modules/health/service.js';

const th = DEFAULT_THRESHOLDS;
const codes = (r: Parameters<typeof evaluateHealth>[0], t: HealthThresholds = th) => evaluateHealth(r, t).map((v) => v.code);

describe('device-reported alarms', () => {
  it.each([
    ['sos', C.sos],
    ['fall', C.fall],
    ['removal', C.removal],
    ['lowBattery', C.lowBattery],
    ['powerOff', C.powerOff],
    ['powerCut', C.powerOff],
    ['fenceIn', C.deviceFenceIn],
    ['fenceOut', C.deviceFenceOut],
  ] as const)('%s raises type %i', (kind, code) => {
    expect(codeOfDeviceAlarm(kind)).toBe(code);
  });

  it('ignores kinds that are not alarms of this platform', () => {
    expect(codeOfDeviceAlarm('vibration')).toBeNull();
    expect(codeOfDeviceAlarm('overspeed')).toBeNull();
  });

  it('keeps SOS at 5 and gives the sticky 150/151 to fall and removal, every code once', () => {
    expect(C.sos).toBe(5);
    expect(STICKY_ALARM_CODES).toEqual([5, 150, 151]);
    const all = ALARM_TYPES.map((a) => a.code);
    expect(new Set(all).size).toBe(all.length);
    for (const a of ALARM_TYPES) expect(a.zh && a.en && a.zhDescription && a.enDescription).toBeTruthy();
  });
});

describe('health thresholds: at the limit is normal, one step beyond is an alarm', () => {
  it.each([
    ['heart rate high', { heartRate: 120 }, { heartRate: 121 }, C.heartRateHigh],
    ['heart rate low', { heartRate: 50 }, { heartRate: 49 }, C.heartRateLow],
    ['systolic high', { systolic: 140 }, { systolic: 141 }, C.bloodPressureHigh],
    ['systolic low', { systolic: 90 }, { systolic: 89 }, C.bloodPressureLow],
    ['diastolic high', { diastolic: 90 }, { diastolic: 91 }, C.bloodPressureHigh],
    ['diastolic low', { diastolic: 60 }, { diastolic: 59 }, C.bloodPressureLow],
    ['body temperature', { bodyTemp: 37.3 }, { bodyTemp: 37.4 }, C.bodyTempHigh],
    ['wrist temperature', { wristTemp: 37.3 }, { wristTemp: 37.4 }, C.wristTempHigh],
    ['blood oxygen', { bloodOxygen: 90 }, { bloodOxygen: 89 }, C.bloodOxygenLow],
  ])('%s', (_, at, beyond, code) => {
    expect(codes(at)).toEqual([]);
    expect(codes(beyond)).toEqual([code]);
  });

  it('reports the measured value and the limit crossed', () => {
    expect(evaluateHealth({ heartRate: 150 }, th)).toEqual([{ code: C.heartRateHigh, measure: 'heartRate', value: 150, limit: 120, direction: 'above' }]);
  });

  it('raises one blood pressure alarm when both pressures are high', () => {
    expect(codes({ systolic: 160, diastolic: 100 })).toEqual([C.bloodPressureHigh]);
  });

  it('checks nothing for an empty bound and ignores missing measures', () => {
    expect(codes({ heartRate: 300 }, { ...th, heartRateMax: null })).toEqual([]);
    expect(codes({ steps: 10_000 })).toEqual([]);
  });

  it('raises several kinds from one reading', () => {
    expect(codes({ heartRate: 130, bloodOxygen: 85, bodyTemp: 38 }).sort()).toEqual([C.heartRateHigh, C.bodyTempHigh, C.bloodOxygenLow].sort());
  });
});

describe('readings the thresholds apply to', () => {
  it('skips step counts and calories, checks any measured vital sign', () => {
    expect(hasCheckedMeasure({ steps: 1200 })).toBe(false);
    expect(hasCheckedMeasure({ calories: 80, distance: 1.2 })).toBe(false);
    expect(hasCheckedMeasure({ steps: 10, heartRate: 72 })).toBe(true);
    expect(hasCheckedMeasure({ diastolic: 90 })).toBe(true);
    expect(hasCheckedMeasure({ bloodOxygen: 97 })).toBe(true);
    expect(hasCheckedMeasure({ wristTemp: 36.1 })).toBe(true);
    // What is checked is exactly what evaluateHealth looks at.
    const strict = { ...DEFAULT_THRESHOLDS, heartRateMin: 100, heartRateMax: 100 } as HealthThresholds;
    expect(evaluateHealth({ steps: 5 }, strict)).toEqual([]);
    expect(evaluateHealth({ heartRate: 72 }, strict).length).toBe(1);
  });
});

describe('threshold resolution device → account → ancestor → defaults', () => {
  const own = (heartRateMax: number): HealthThresholds => ({ ...th, heartRateMax });
  it('prefers the device, then the account, then the nearest ancestor', () => {
    expect(resolveThresholds(own(100), [own(110), own(130)])).toMatchObject({ source: 'device', thresholds: { heartRateMax: 100 } });
    expect(resolveThresholds(null, [own(110), own(130)])).toMatchObject({ source: 'account', thresholds: { heartRateMax: 110 } });
    expect(resolveThresholds(null, [null, own(130), own(140)])).toMatchObject({ source: 'ancestor', thresholds: { heartRateMax: 130 } });
    expect(resolveThresholds(null, [null, null])).toEqual({ source: 'default', thresholds: DEFAULT_THRESHOLDS });
  });
  it('walks a materialized path upwards', () => {
    expect(pathIdsUpward('/1/5/12/')).toEqual([12, 5, 1]);
  });
});

describe('partner push helpers', () => {
  it('doubles the retry delay and caps it', () => {
    expect([1, 2, 3, 4].map((a) => backoffMs(a, 100))).toEqual([100, 200, 400, 800]);
    expect(backoffMs(40, 1000)).toBe(3600_000);
  });
  it('signs the exact body with HMAC-SHA256', () => {
    // Known answer: HMAC_SHA256("key", "The quick brown fox jumps over the lazy dog").
    expect(signBody('The quick brown fox jumps over the lazy dog', 'key')).toBe('f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8');
  });
});

describe('sleep per night', () => {
  it('adds the stages of the reports of one night, named by the morning it ends', () => {
    const nights = sleepByNight(
      [
        { time: new Date('2025-03-01T15:00:00Z'), sleep: [{ stage: 'light', minutes: 60 }] }, // 23:00 in UTC+8
        { time: new Date('2025-03-01T22:00:00Z'), sleep: [{ stage: 'deep', minutes: 90 }, { stage: 'awake', minutes: 10 }] }, // 06:00
        { time: new Date('2025-03-02T15:30:00Z'), sleep: [{ stage: 'light', minutes: 30 }] },
      ],
      480,
    );
    expect(nights).toEqual([
      { Night: '2025-03-02', Awake: 10, Light: 60, Deep: 90 },
      { Night: '2025-03-03', Awake: 0, Light: 30, Deep: 0 },
    ]);
  });
});
