import { describe, expect, it } from 'vitest';
import { COMMAND_CODES, COMMAND_SCHEMAS, validateCommand } from '../src/commands.js';

const fail = (code: string, params: unknown) => {
  const r = validateCommand(code, params);
  expect(r.ok).toBe(false);
  return r.ok ? [] : r.fields.map((f) => f.Message);
};
const pass = (code: string, params: unknown) => {
  const r = validateCommand(code, params);
  expect(r, JSON.stringify(r)).toMatchObject({ ok: true });
};

describe('command catalogue', () => {
  it('has a schema for every code', () => {
    for (const c of COMMAND_CODES) expect(COMMAND_SCHEMAS[c]).toBeDefined();
  });
  it('rejects unknown codes', () => expect(fail('NOPE', {})).toEqual(['validation.invalid']));
});

describe('interval 2..660 minutes', () => {
  it('accepts the bounds', () => {
    pass('UPLOAD', { interval: 2 });
    pass('UPLOAD', { interval: '660' });
  });
  it('rejects 0, below 2 and above 660', () => {
    expect(fail('UPLOAD', { interval: 0 })).toEqual(['validation.intervalRange']);
    expect(fail('UPLOAD', { interval: 1.99 })).toEqual(['validation.intervalRange']);
    expect(fail('UPLOAD', { interval: 661 })).toEqual(['validation.intervalRange']);
    expect(fail('UPLOAD', {})).toEqual(['validation.intervalRange']);
  });
});

describe('interval in one command more than 1 minute', () => {
  it('accepts just over 1', () => pass('HEART_RATE', { interval: 1.5 }));
  it('rejects 1', () => expect(fail('HEART_RATE', { interval: 1 })).toEqual(['validation.intervalMoreThanOne']));
});

describe('start before end', () => {
  it('accepts 08:00-08:01', () => pass('SILENCETIME', { periods: [{ start: '08:00', end: '08:01' }] }));
  it('rejects equal and reversed', () => {
    expect(fail('SILENCETIME', { periods: [{ start: '08:00', end: '08:00' }] })).toEqual(['validation.startBeforeEnd']);
    expect(fail('SILENCETIME', { periods: [{ start: '09:00', end: '08:00' }] })).toEqual(['validation.startBeforeEnd']);
  });
});

describe('AM not after PM', () => {
  const am = { start: '08:00', end: '12:00' };
  it('accepts AM ending when PM starts', () => pass('WORK_TIME', { am, pm: { start: '12:00', end: '17:00' } }));
  it('rejects AM ending after PM starts', () =>
    expect(fail('WORK_TIME', { am, pm: { start: '11:59', end: '17:00' } })).toEqual(['validation.amNotAfterPm']));
});

describe('vibration duration over 0', () => {
  it('accepts 1', () => pass('VIBRATION', { seconds: 1 }));
  it('rejects 0', () => expect(fail('VIBRATION', { seconds: 0 })).toEqual(['validation.vibrationPositive']));
});

describe('health thresholds', () => {
  const cases = [
    ['TEMPERATURE_THRESHOLD', 16, 60],
    ['BLOOD_OXYGEN_THRESHOLD', 80, 100],
    ['HEART_RATE_THRESHOLD', 20, 200],
  ] as const;
  for (const [code, lo, hi] of cases) {
    it(`${code} accepts ${lo}..${hi} and rejects outside with params`, () => {
      pass(code, { min: lo, max: hi });
      const r = validateCommand(code, { min: lo - 0.1, max: hi + 0.1 });
      expect(r.ok).toBe(false);
      if (!r.ok) {
        expect(r.fields.map((f) => f.Message)).toEqual(['validation.thresholdRange', 'validation.thresholdRange']);
        expect(r.fields[0].Params).toEqual({ min: lo, max: hi });
      }
    });
  }
  it('BLOOD_PRESSURE_THRESHOLD: systolic and diastolic 20..100, each pair on its own', () => {
    pass('BLOOD_PRESSURE_THRESHOLD', { systolicMin: 20, systolicMax: 100, diastolicMin: 20, diastolicMax: 100 });
    pass('BLOOD_PRESSURE_THRESHOLD', { systolicMin: 90, systolicMax: 100, diastolicMin: '', diastolicMax: '' });
    pass('BLOOD_PRESSURE_THRESHOLD', {});
    const r = validateCommand('BLOOD_PRESSURE_THRESHOLD', { systolicMin: 19.9, systolicMax: 100.1, diastolicMin: 19, diastolicMax: 101 });
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.fields.map((f) => [f.Field, f.Message, f.Params])).toEqual(
        ['systolicMin', 'systolicMax', 'diastolicMin', 'diastolicMax'].map((f) => [f, 'validation.thresholdRange', { min: 20, max: 100 }]),
      );
    }
    // The pairs are checked apart: a diastolic minimum above the systolic one is fine, its own maximum is not.
    pass('BLOOD_PRESSURE_THRESHOLD', { systolicMin: 40, systolicMax: 90, diastolicMin: 60, diastolicMax: 80 });
    expect(fail('BLOOD_PRESSURE_THRESHOLD', { systolicMin: 40, systolicMax: 90, diastolicMin: 80, diastolicMax: 80 })).toEqual(['validation.minBelowMax']);
    expect(fail('BLOOD_PRESSURE_THRESHOLD', { systolicMin: 60, diastolicMin: 50, diastolicMax: 70 })).toEqual(['validation.thresholdBoth']);
  });
  it('BLOOD_PRESSURE_THRESHOLD: one min/max pair still means both pressures', () => {
    const r = validateCommand('BLOOD_PRESSURE_THRESHOLD', { min: 60, max: 90 });
    expect(r).toEqual({ ok: true, params: { systolicMin: 60, systolicMax: 90, diastolicMin: 60, diastolicMax: 90 } });
    expect(validateCommand('BLOOD_PRESSURE_THRESHOLD', { min: 60, max: 140 })).toMatchObject({ ok: false, fields: [{ Field: 'systolicMax' }, { Field: 'diastolicMax' }] });
  });
  it('both or neither (empty means closed)', () => {
    pass('HEART_RATE_THRESHOLD', { min: '', max: '' });
    pass('HEART_RATE_THRESHOLD', {});
    expect(fail('HEART_RATE_THRESHOLD', { min: 50, max: '' })).toEqual(['validation.thresholdBoth']);
    expect(fail('HEART_RATE_THRESHOLD', { max: 50 })).toEqual(['validation.thresholdBoth']);
  });
  it('minimum below maximum', () => {
    pass('TEMPERATURE_THRESHOLD', { min: 36.0, max: 36.1 });
    expect(fail('TEMPERATURE_THRESHOLD', { min: 37, max: 37 })).toEqual(['validation.minBelowMax']);
  });
});

describe('fall height 0.5..2.5 in 0.5 steps', () => {
  it('accepts 0.5 and 2.5', () => {
    pass('FALL_HEIGHT', { height: 0.5 });
    pass('FALL_HEIGHT', { height: '2.5' });
  });
  it('rejects 0, 0.75 and 3', () => {
    for (const h of [0, 0.75, 3]) expect(fail('FALL_HEIGHT', { height: h })).toEqual(['validation.fallHeight']);
  });
});

describe('server address', () => {
  it('accepts IP or domain with port 1..65535', () => {
    pass('IP', { host: '10.0.0.1', port: 1 });
    pass('IP', { host: 'gw.example.com', port: '65535' });
  });
  it('rejects bad host, missing host and out-of-range or missing port', () => {
    expect(fail('IP', { host: '300.1.1.1', port: 80 })).toEqual(['validation.ipOrDomainInvalid']);
    expect(fail('IP', { host: '', port: 80 })).toEqual(['validation.required']);
    expect(fail('IP', { host: 'a.com', port: 0 })).toEqual(['validation.portRange']);
    expect(fail('IP', { host: 'a.com', port: 65536 })).toEqual(['validation.portRange']);
    expect(fail('IP', { host: 'a.com' })).toEqual(['validation.portRange']);
  });
});

describe('numbers and message', () => {
  it('SOS needs a first number; others optional but phone-like', () => {
    pass('SOS', { sos1: '+8613800138000', sos2: '' });
    expect(fail('SOS', { sos1: '' })).toEqual(['validation.numberRequired']);
    expect(fail('SOS', { sos1: '13800138000', sos2: 'abc' })).toEqual(['validation.phoneInvalid']);
  });
  it('CENTER needs a number', () => {
    pass('CENTER', { number: '13800138000' });
    expect(fail('CENTER', {})).toEqual(['validation.numberRequired']);
  });
  it('MESSAGE needs text', () => {
    pass('MESSAGE', { text: 'hi' });
    expect(fail('MESSAGE', { text: '   ' })).toEqual(['validation.messageRequired']);
  });
});

describe('switches ("0" is off)', () => {
  const enabled = (v: unknown) => {
    const r = validateCommand('REMOVE', { enabled: v });
    return r.ok ? r.params.enabled : r.fields.map((f) => f.Message);
  };
  it('reads "0"/"1"/"true"/"false", 0/1 and booleans', () => {
    expect(enabled('0')).toBe(false);
    expect(enabled(' 0 ')).toBe(false);
    expect(enabled('false')).toBe(false);
    expect(enabled('FALSE')).toBe(false);
    expect(enabled(0)).toBe(false);
    expect(enabled(false)).toBe(false);
    expect(enabled('1')).toBe(true);
    expect(enabled('true')).toBe(true);
    expect(enabled(1)).toBe(true);
    expect(enabled(true)).toBe(true);
  });
  it('rejects anything else, and a missing switch', () => {
    expect(enabled('yes')).toEqual(['validation.invalid']);
    expect(enabled(2)).toEqual(['validation.invalid']);
    expect(enabled('')).toEqual(['validation.invalid']);
    expect(enabled(undefined)).toEqual(['validation.required']);
    expect(fail('LOWBAT', {})).toEqual(['validation.required']);
  });
  it('reminders default to on and take "0" as off', () => {
    const r = validateCommand('REMIND', { reminders: [{ time: '08:00' }, { time: '09:00', enabled: '0' }] });
    expect(r.ok && r.params.reminders).toEqual([{ time: '08:00', enabled: true, kind: 1 }, { time: '09:00', enabled: false, kind: 1 }]);
  });
});
