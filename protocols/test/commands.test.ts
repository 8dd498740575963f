// One list of command codes: the contract's COMMAND_CODES. Every code has a watch encoder; GT06
// either encodes a code or rejects it with an explicit "unsupported" error value.
import { COMMAND_CODES, validateCommand, type CommandCode } from '@wt/contract';
import { describe, expect, it } from 'vitest';
import {
  GT06_COMMANDS, GT06_COMMAND_CODES, Gt06CommandError, WATCH_COMMANDS, WATCH_COMMAND_CODES, gt06CommandSupport, gt06CommandText,
  buildWatchFrame, decodeWatchFrame, watchCommandContent,
} from '../src/index.js';

/** Parameters each code's contract schema accepts, as the console sends them (strings from forms). */
const SAMPLE: Record<CommandCode, Record<string, unknown>> = {
  UPLOAD: { interval: '5' },
  SOS: { sos1: '13800138000', sos2: '', sos3: '+8613900139000' },
  CENTER: { number: '13800138000' },
  RESET: {},
  POWEROFF: {},
  FIND: {},
  REMOVE: { enabled: '0' },
  LOWBAT: { enabled: 'true' },
  MESSAGE: { text: 'hello' },
  LZ: { language: '1', timezone: '8' },
  HEART_RATE: { interval: 10 },
  BLOOD_PRESSURE: { interval: 10 },
  TEMPERATURE: { interval: 10 },
  BLOOD_OXYGEN: { interval: 10 },
  HEART_RATE_THRESHOLD: { min: 50, max: 120 },
  BLOOD_PRESSURE_THRESHOLD: { systolicMin: 90, systolicMax: 100, diastolicMin: 60, diastolicMax: 90 },
  TEMPERATURE_THRESHOLD: { min: 35, max: 38 },
  BLOOD_OXYGEN_THRESHOLD: { min: 90, max: 100 },
  FALL_HEIGHT: { height: 1.5 },
  IP: { host: 'gw.example.com', port: '5093' },
  SILENCETIME: { periods: [{ start: '08:00', end: '12:00' }] },
  REMIND: { reminders: [{ time: '08:00', enabled: '1', kind: 2 }] },
  WORK_TIME: { am: { start: '08:00', end: '12:00' }, pm: { start: '14:00', end: '17:00' } },
  VIBRATION: { seconds: 2 },
  CUSTOM: { text: 'VERNO' },
  WEATHER: { date: '2026-11-26', code: '3', min: '12', max: '21.6', text: '多云' },
};

const validated = (code: CommandCode) => {
  const v = validateCommand(code, SAMPLE[code]);
  if (!v.ok) throw new Error(`${code}: ${JSON.stringify(v.fields)}`);
  return v.params;
};

describe('command codes', () => {
  it('the encoders are keyed by the contract list and nothing else', () => {
    expect(Object.keys(WATCH_COMMANDS).sort()).toEqual([...COMMAND_CODES].sort());
    expect(WATCH_COMMAND_CODES).toEqual(COMMAND_CODES);
    for (const c of GT06_COMMAND_CODES) expect(COMMAND_CODES).toContain(c);
  });
  for (const code of COMMAND_CODES) {
    it(`${code}: watch encodes the validated parameters`, () => {
      const text = watchCommandContent({ code, params: validated(code) });
      expect(text.length).toBeGreaterThan(0);
      expect(text).not.toMatch(/\[object Object\]|undefined|NaN/);
    });
    it(`${code}: the watch's echo of the keyword is recorded as the command's answer`, () => {
      const keyword = watchCommandContent({ code, params: validated(code) }).split(',')[0]!;
      const [result] = decodeWatchFrame(buildWatchFrame('3G', '8800000015', keyword)).messages;
      expect(result?.kind).toBe('commandResult');
      expect(result?.commandResult?.keyword.toUpperCase()).toBe(keyword.toUpperCase());
    });
    it(`${code}: GT06 encodes it or rejects it as unsupported`, () => {
      const support = gt06CommandSupport(code);
      const command = { code, params: validated(code) };
      if (support.ok) {
        expect(code in GT06_COMMANDS).toBe(true);
        expect(gt06CommandText(command)).toMatch(/#$/);
      } else {
        expect(support.kind).toBe('unsupported');
        expect(support.reason.length).toBeGreaterThan(0);
        expect(code in GT06_COMMANDS).toBe(false);
        let err: unknown;
        try {
          gt06CommandText(command);
        } catch (e) {
          err = e;
        }
        expect(err).toBeInstanceOf(Gt06CommandError);
        expect((err as Gt06CommandError).kind).toBe('unsupported');
      }
    });
  }
  it('codes outside the list are unknown to both encoders', () => {
    expect(() => watchCommandContent({ code: 'CR', params: {} })).toThrow(/unknown command/);
    expect(gt06CommandSupport('ENGINE_STOP')).toMatchObject({ ok: false, kind: 'unknown' });
    expect(() => gt06CommandText({ code: 'LOCATE', params: {} })).toThrow(Gt06CommandError);
  });
  it('validated switches and SOS lists reach the wire as meant', () => {
    expect(watchCommandContent({ code: 'REMOVE', params: validated('REMOVE') })).toBe('REMOVE,0');
    expect(watchCommandContent({ code: 'LOWBAT', params: validated('LOWBAT') })).toBe('LOWBAT,1');
    expect(gt06CommandText({ code: 'SOS', params: validated('SOS') })).toBe('SOS,A,13800138000,,+8613900139000#');
    expect(watchCommandContent({ code: 'REMIND', params: validated('REMIND') })).toBe('REMIND,08:00-1-2');
  });
  it('blood pressure thresholds carry the systolic and the diastolic pair, an empty pair as empty fields', () => {
    expect(watchCommandContent({ code: 'BLOOD_PRESSURE_THRESHOLD', params: validated('BLOOD_PRESSURE_THRESHOLD') })).toBe('bpthreshold,90,100,60,90');
    const diastolicOnly = validateCommand('BLOOD_PRESSURE_THRESHOLD', { systolicMin: '', systolicMax: '', diastolicMin: 50, diastolicMax: 85 });
    expect(diastolicOnly.ok && watchCommandContent({ code: 'BLOOD_PRESSURE_THRESHOLD', params: diastolicOnly.params as Record<string, never> })).toBe('bpthreshold,,,50,85');
  });
});
