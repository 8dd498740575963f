import { describe, expect, it } from 'vitest';
import dayjs from 'dayjs';
import { batchOutcome, checkImeiIccid, importReport, parseList } from '../src/pages/devices/deviceForms';
import { BLOOD_PRESSURE_PAIRS, checkCommand, commandStatus, fieldPath, offeredCommands } from '../src/pages/devices/commandForms';
import { circleRing, distanceMetres, fenceRing, shapeFromRing } from '../src/pages/devices/fence/geometry';

const A = '865000000000001';
const B = '865000000000002';

describe('IMEI and ICCID lists', () => {
  it('splits on lines, commas and spaces, dropping blanks', () => {
    expect(parseList(`${A}\n\n ${B}, 3;4，5`)).toEqual([A, B, '3', '4', '5']);
    expect(parseList(undefined)).toEqual([]);
  });

  it('requires IMEIs of 15 digits, each once', () => {
    expect(checkImeiIccid('').map((i) => i.key)).toEqual(['validation.imeiRequired']);
    expect(checkImeiIccid(`${A}\n12345`).map((i) => i.key)).toEqual(['validation.imeiInvalid']);
    expect(checkImeiIccid(`${A}\n${A}`)).toEqual([{ field: 'imeis', key: 'device.imeiDuplicate', params: { imei: A } }]);
    expect(checkImeiIccid(`${A}\n${B}`)).toEqual([]);
  });

  it('needs as many ICCIDs as IMEIs when ICCIDs are entered', () => {
    expect(checkImeiIccid(`${A}\n${B}`, '')).toEqual([]);
    expect(checkImeiIccid(`${A}\n${B}`, '8986001\n8986002')).toEqual([]);
    const issues = checkImeiIccid(`${A}\n${B}`, '8986001');
    expect(issues).toEqual([{ field: 'iccids', key: 'validation.imeiIccidCount', params: { imeis: 2, iccids: 1 } }]);
  });
});

describe('batch and import reports', () => {
  it('keeps each refused device with its reason key', () => {
    const r = batchOutcome({ Succeeded: 1, Failed: [{ Imei: B, Message: 'device.moveSameAccount' }] });
    expect(r).toEqual({ succeeded: 1, failed: [{ imei: B, key: 'device.moveSameAccount', params: {} }] });
  });

  it('lists refused rows in sheet order and counts nothing imported when any row is refused', () => {
    const report = importReport({
      State: 200,
      Imported: false,
      Rows: 3,
      Accounts: [],
      Moved: 0,
      Created: 2,
      Failed: [
        { Row: 4, Imei: '123', Message: 'validation.imeiInvalid' },
        { Row: 2, Column: 'Model', Imei: '', Message: 'device.modelNotFound', Params: { model: 'X' } },
      ],
    });
    expect(report.total).toBe(3);
    expect(report.imported).toBe(0);
    expect(report.refused.map((r) => [r.row, r.label, r.column, r.reason])).toEqual([
      [2, '—', 'Model', 'device.modelNotFound'],
      [4, '123', undefined, 'validation.imeiInvalid'],
    ]);
    expect(report.refused[0]!.params).toMatchObject({ column: 'Model', model: 'X' });
  });

  it('counts moved and created devices of a successful import', () => {
    const report = importReport({ State: 200, Imported: true, Rows: 3, Accounts: [], Moved: 1, Created: 2, Failed: [] });
    expect(report).toEqual({ total: 3, imported: 3, refused: [] });
  });
});

describe('command dialogs', () => {
  it('offers only the model commands the console knows, in catalogue order', () => {
    expect(offeredCommands(['find', 'UPLOAD', 'NOT_A_COMMAND'])).toEqual(['UPLOAD', 'FIND']);
    expect(offeredCommands(null)).toEqual([]);
  });

  it('maps the upload interval rule (2-660 minutes) to the interval field', () => {
    expect(checkCommand('UPLOAD', { interval: 1 })).toEqual({ ok: false, errors: [{ name: ['interval'], key: 'validation.intervalRange', params: {} }] });
    expect(checkCommand('UPLOAD', { interval: 661 }).ok).toBe(false);
    expect(checkCommand('UPLOAD', { interval: 2 })).toEqual({ ok: true, params: { interval: 2 } });
    expect(checkCommand('UPLOAD', { interval: 660 }).ok).toBe(true);
  });

  it('puts nested time rules on the nested field, with time pickers read as HH:mm', () => {
    const t = (s: string) => dayjs(`2024-01-01 ${s}`);
    const silence = checkCommand('SILENCETIME', { periods: [{ start: t('08:00'), end: t('09:00') }, { start: t('12:00'), end: t('11:00') }] });
    expect(silence).toEqual({ ok: false, errors: [{ name: ['periods', 1, 'end'], key: 'validation.startBeforeEnd', params: {} }] });
    const work = checkCommand('WORK_TIME', { am: { start: t('08:00'), end: t('13:00') }, pm: { start: t('12:00'), end: t('17:00') } });
    expect(work).toEqual({ ok: false, errors: [{ name: ['am', 'end'], key: 'validation.amNotAfterPm', params: {} }] });
    const ok = checkCommand('WORK_TIME', { am: { start: t('08:00'), end: t('11:30') }, pm: { start: t('14:00'), end: t('17:00') } });
    expect(ok).toEqual({ ok: true, params: { am: { start: '08:00', end: '11:30' }, pm: { start: '14:00', end: '17:00' } } });
  });

  it('checks health thresholds: range with its bounds, both or neither, minimum below maximum', () => {
    expect(checkCommand('TEMPERATURE_THRESHOLD', { min: 15.9, max: 40 })).toEqual({
      ok: false,
      errors: [{ name: ['min'], key: 'validation.thresholdRange', params: { min: 16, max: 60 } }],
    });
    expect(checkCommand('HEART_RATE_THRESHOLD', { min: 60 })).toEqual({ ok: false, errors: [{ name: ['max'], key: 'validation.thresholdBoth', params: {} }] });
    expect(checkCommand('BLOOD_OXYGEN_THRESHOLD', { min: 95, max: 90 })).toEqual({ ok: false, errors: [{ name: ['min'], key: 'validation.minBelowMax', params: {} }] });
    expect(checkCommand('BLOOD_PRESSURE_THRESHOLD', { min: '', max: '' }).ok).toBe(true);
  });

  it('checks systolic and diastolic limits apart, each 20 to 100, on the field that is wrong', () => {
    expect(BLOOD_PRESSURE_PAIRS.map((p) => [p.min, p.max, p.range.min, p.range.max])).toEqual([
      ['systolicMin', 'systolicMax', 20, 100],
      ['diastolicMin', 'diastolicMax', 20, 100],
    ]);
    expect(checkCommand('BLOOD_PRESSURE_THRESHOLD', { systolicMin: 90, systolicMax: 100, diastolicMin: 60, diastolicMax: 90 })).toEqual({
      ok: true,
      params: { systolicMin: 90, systolicMax: 100, diastolicMin: 60, diastolicMax: 90 },
    });
    expect(checkCommand('BLOOD_PRESSURE_THRESHOLD', { systolicMin: 90, systolicMax: 140, diastolicMin: 19, diastolicMax: 90 })).toEqual({
      ok: false,
      errors: [
        { name: ['systolicMax'], key: 'validation.thresholdRange', params: { min: 20, max: 100 } },
        { name: ['diastolicMin'], key: 'validation.thresholdRange', params: { min: 20, max: 100 } },
      ],
    });
    expect(checkCommand('BLOOD_PRESSURE_THRESHOLD', { diastolicMin: 60 })).toEqual({ ok: false, errors: [{ name: ['diastolicMax'], key: 'validation.thresholdBoth', params: {} }] });
    expect(checkCommand('BLOOD_PRESSURE_THRESHOLD', { systolicMin: 95, systolicMax: 90 })).toEqual({ ok: false, errors: [{ name: ['systolicMin'], key: 'validation.minBelowMax', params: {} }] });
  });

  it('checks fall height steps, vibration, server address and SOS numbers', () => {
    expect(checkCommand('FALL_HEIGHT', { height: 1.5 }).ok).toBe(true);
    expect(checkCommand('FALL_HEIGHT', { height: 1.2 })).toMatchObject({ ok: false, errors: [{ name: ['height'], key: 'validation.fallHeight' }] });
    expect(checkCommand('VIBRATION', { seconds: 0 })).toMatchObject({ ok: false, errors: [{ name: ['seconds'], key: 'validation.vibrationPositive' }] });
    expect(checkCommand('IP', { host: 'gps.example.com', port: 65536 })).toMatchObject({ ok: false, errors: [{ name: ['port'], key: 'validation.portRange' }] });
    expect(checkCommand('IP', { host: '300.1.1.1', port: 80 })).toMatchObject({ ok: false, errors: [{ name: ['host'], key: 'validation.ipOrDomainInvalid' }] });
    expect(checkCommand('SOS', { sos1: 'abc' })).toMatchObject({ ok: false, errors: [{ name: ['sos1'], key: 'validation.phoneInvalid' }] });
  });

  it('reads field paths and statuses', () => {
    expect(fieldPath('reminders.2.time')).toEqual(['reminders', 2, 'time']);
    expect(commandStatus('answered')).toBe('answered');
    expect(commandStatus(undefined)).toBe('queued');
  });
});

describe('fence geometry', () => {
  it('reads a drawn circle back as its centre and radius', () => {
    const ring = circleRing(31.23, 121.47, 500);
    const shape = shapeFromRing('circle', ring);
    expect(shape.Type).toBe('circle');
    if (shape.Type !== 'circle') return;
    expect(shape.Lat).toBeCloseTo(31.23, 4);
    expect(shape.Lon).toBeCloseTo(121.47, 4);
    expect(Math.abs(shape.Radius - 500)).toBeLessThanOrEqual(2);
  });

  it('drops the closing vertex of a polygon and closes stored ones again', () => {
    const shape = shapeFromRing('polygon', [[1, 2], [3, 4], [5, 2], [1, 2]]);
    expect(shape).toEqual({ Type: 'polygon', Points: [{ Lat: 2, Lon: 1 }, { Lat: 4, Lon: 3 }, { Lat: 2, Lon: 5 }] });
    if (shape.Type !== 'polygon') return;
    const ring = fenceRing({ Type: 'polygon', Lat: null, Lon: null, Radius: null, Points: shape.Points });
    expect(ring).toEqual([[1, 2], [3, 4], [5, 2], [1, 2]]);
    expect(distanceMetres({ Lat: 0, Lon: 0 }, { Lat: 0, Lon: 1 })).toBeCloseTo(111_195, -2);
  });
});
