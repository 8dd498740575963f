// Form logic of the command dialogs: which commands a device is offered, how form values become
// command parameters, and how the contract's validation answer lands on the form's fields.
import dayjs, { type Dayjs } from 'dayjs';
import { BLOOD_PRESSURE_FIELDS, COMMAND_CODES, FALL_HEIGHTS, THRESHOLDS, isCommandCode, validateCommand, type CommandCode, type CommandFieldError } from '@wt/contract';

export type FieldPath = (string | number)[];

/** Commands grouped for the picker; every code of the catalogue is in exactly one group. */
export const COMMAND_GROUPS: { key: string; codes: CommandCode[] }[] = [
  { key: 'location', codes: ['UPLOAD', 'IP', 'LZ'] },
  { key: 'contacts', codes: ['SOS', 'CENTER', 'MESSAGE', 'WEATHER'] },
  { key: 'health', codes: ['HEART_RATE', 'BLOOD_PRESSURE', 'TEMPERATURE', 'BLOOD_OXYGEN'] },
  { key: 'thresholds', codes: ['HEART_RATE_THRESHOLD', 'BLOOD_PRESSURE_THRESHOLD', 'TEMPERATURE_THRESHOLD', 'BLOOD_OXYGEN_THRESHOLD', 'FALL_HEIGHT'] },
  { key: 'schedule', codes: ['SILENCETIME', 'WORK_TIME', 'REMIND', 'VIBRATION'] },
  { key: 'device', codes: ['FIND', 'REMOVE', 'LOWBAT', 'RESET', 'POWEROFF', 'CUSTOM'] },
];

/**
 * The commands a device may be sent: those its model supports that the console knows, in the
 * catalogue's order. A model without a command list supports none.
 */
export function offeredCommands(supported: readonly string[] | null | undefined): CommandCode[] {
  const set = new Set((supported ?? []).map((c) => c.toUpperCase()));
  return COMMAND_CODES.filter((c) => set.has(c));
}

/** Commands that change nothing on the form: sent after a confirmation only. */
export const NO_PARAMS: ReadonlySet<CommandCode> = new Set(['RESET', 'POWEROFF', 'FIND']);

/** Threshold commands with one bound pair (`min`, `max`); blood pressure has one pair per pressure (BLOOD_PRESSURE_PAIRS). */
export const THRESHOLD_OF: Partial<Record<CommandCode, { min: number; max: number; step: number }>> = {
  HEART_RATE_THRESHOLD: { ...THRESHOLDS.heartRate, step: 1 },
  TEMPERATURE_THRESHOLD: { ...THRESHOLDS.temperature, step: 0.1 },
  BLOOD_OXYGEN_THRESHOLD: { ...THRESHOLDS.bloodOxygen, step: 1 },
};

/** BLOOD_PRESSURE_THRESHOLD's fields: systolic and diastolic limits, each in SPEC §5's range. */
export const BLOOD_PRESSURE_PAIRS = BLOOD_PRESSURE_FIELDS.map(([min, max]) => ({ min, max, range: THRESHOLDS.bloodPressure }));

export const FALL_HEIGHT_OPTIONS = FALL_HEIGHTS.map((h) => ({ value: h, label: `${h.toFixed(1)} m` }));

/** Starting values of each form, so list fields show one row and switches have a state. */
export function initialValues(code: CommandCode): Record<string, unknown> {
  switch (code) {
    case 'UPLOAD':
      return { interval: 10 };
    case 'REMOVE':
    case 'LOWBAT':
      return { enabled: true };
    case 'SILENCETIME':
      return { periods: [{}] };
    case 'REMIND':
      return { reminders: [{ enabled: true, kind: 1 }] };
    case 'LZ':
      return { language: 1, timezone: 8 };
    default:
      return {};
  }
}

function toParam(v: unknown): unknown {
  if (dayjs.isDayjs(v)) return (v as Dayjs).format('HH:mm');
  if (Array.isArray(v)) return v.map(toParam);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, toParam(x)]));
  return v;
}

/** Form values to command parameters: time pickers become "HH:mm", everything else as entered. */
export function toCommandParams(values: Record<string, unknown>): Record<string, unknown> {
  return toParam(values ?? {}) as Record<string, unknown>;
}

/** "periods.0.end" -> ["periods", 0, "end"], the form's name path of a validation field. */
export function fieldPath(field: string): FieldPath {
  return field.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p));
}

export interface FormFieldError {
  name: FieldPath;
  key: string;
  params: Record<string, unknown>;
}

/** The contract's field errors as form field errors (one per field, in the contract's order). */
export function mapFieldErrors(fields: CommandFieldError[]): FormFieldError[] {
  return fields.map((f) => ({ name: fieldPath(f.Field), key: f.Message, params: f.Params ?? {} }));
}

export type CheckResult = { ok: true; params: Record<string, unknown> } | { ok: false; errors: FormFieldError[] };

/** Validates a command form with the contract's rules (the server applies the same ones). */
export function checkCommand(code: string, values: Record<string, unknown>): CheckResult {
  if (!isCommandCode(code)) return { ok: false, errors: [{ name: ['code'], key: 'validation.invalid', params: {} }] };
  const r = validateCommand(code, toCommandParams(values));
  return r.ok ? { ok: true, params: r.params } : { ok: false, errors: mapFieldErrors(r.fields) };
}

/** Command status as the console names it: queued (waiting for the device), sent, answered, failed. */
export type CommandStatus = 'queued' | 'sent' | 'answered' | 'failed';
export function commandStatus(s: string | null | undefined): CommandStatus {
  const v = (s ?? '').toLowerCase();
  if (v === 'sent' || v === 'answered' || v === 'failed') return v;
  return 'queued';
}
