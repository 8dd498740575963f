// The bounds every call inherits from the contract's building blocks, checked field by field over
// the whole registry, and the field errors validation failures turn into.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  DATE_MAX,
  DATE_MIN,
  FLOAT_MIN,
  LOCALES,
  SCHEMAS,
  dateInput,
  fieldErrorsOf,
  id,
  int,
  num,
  optionalDate,
  pipeInput,
  schemaLeaves,
  schemaType,
  text,
  translate,
  unionOptions,
  type SentTime,
} from '../src/index.js';

const requests = Object.entries(SCHEMAS as Record<string, { request: z.ZodType }>).map(([path, s]) => ({ path, request: s.request }));

/** Texts that carry files, bounded by their own larger limits. */
const FILE_FIELDS = new Set([
  '/Device/batchDevicesCreateUserByExcel Content',
  '/Beacon/Import Content',
  '/Person/SavePersonProfile Avatar',
  '/Person/batchUpdatePerson Avatar',
  '/Platform/UploadIcon Data',
  '/user/agentAuthorize Content',
  // Scene maps (SVG under 6 MB), icons and floor plans (PNG), as base64.
  ...['/Scene/addSceneInfo', '/Scene/addSceneInfoByMonitor', '/Scene/editSceneInfo', '/Scene/editSceneInfoByMonitor'].flatMap((p) => [`${p} MapSvg`, `${p} Icon`]),
  '/Scene/addFoorsInfo Plan',
  '/Scene/editFoorsInfo Plan',
  '/Inventory/BatchInsert Content',
  '/Beacon/Import Content',
]);

/** Lists bounded by their own larger limits: a stock-in batch takes 100 000 IMEI/ICCID rows. */
const LARGE_LISTS = new Map([
  ['/Inventory/BatchInsert Imeis', 100_000],
  ['/Inventory/BatchInsert Iccids', 100_000],
  // A delivery (and its return) names its IMEIs as a stock-in batch does.
  ['/Erp/DeliverySave Imeis', 100_000],
  ['/Erp/SalesReturnSave Imeis', 100_000],
]);


function isNumeric(leaf: z.ZodType): boolean {
  const t = schemaType(leaf);
  if (t === 'number') return true;
  if (t === 'pipe') return leaf !== (dateInput as z.ZodType) && isNumeric(pipeInput(leaf)!);
  if (t === 'union') return unionOptions(leaf).some(isNumeric);
  return false;
}

describe('bounds of every request field', () => {
  const leaves = requests.flatMap(({ path, request }) => schemaLeaves(request, { arrays: true }).map((l) => ({ ...l, name: `${path} ${l.path.join('.')}` })));

  it('reaches the fields of every call', () => {
    expect(requests.length).toBeGreaterThan(90);
    expect(leaves.length).toBeGreaterThan(400);
  });

  it('keeps every number within an int4 and every integer whole', () => {
    const numbers = leaves.filter((l) => l.kind === 'leaf' && isNumeric(l.schema));
    expect(numbers.length).toBeGreaterThan(100);
    for (const l of numbers) {
      for (const v of [2147483648, -2147483649, 1e300]) expect(l.schema.safeParse(v).success, `${l.name} = ${v}`).toBe(false);
      if (schemaType(l.schema) === 'number' && (l.schema as z.ZodNumber).isInt) expect(l.schema.safeParse(1.5).success, `${l.name} = 1.5`).toBe(false);
    }
  });

  it('keeps every fractional number where a float column holds it: no underflow, within its range', () => {
    const fractional = leaves.filter((l) => l.kind === 'leaf' && isNumeric(l.schema) && !(schemaType(l.schema) === 'number' && (l.schema as z.ZodNumber).isInt));
    expect(fractional.length).toBeGreaterThan(40);
    for (const l of fractional) {
      for (const v of [5e-324, -5e-324, 1e-39, 1e39, -1e39]) expect(l.schema.safeParse(v).success, `${l.name} = ${v}`).toBe(false);
    }
  });

  it('gives every text a length limit', () => {
    const texts = leaves.filter((l) => l.kind === 'leaf' && schemaType(l.schema) === 'string' && !FILE_FIELDS.has(l.name));
    expect(texts.length).toBeGreaterThan(100);
    for (const l of texts) expect(l.schema.safeParse('x'.repeat(100_000)).success, l.name).toBe(false);
  });

  it('gives every list a length limit', () => {
    const lists = leaves.filter((l) => l.kind === 'array');
    expect(lists.length).toBeGreaterThan(20);
    for (const l of lists) {
      const r = l.schema.safeParse(Array.from({ length: (LARGE_LISTS.get(l.name) ?? 10_000) + 1 }, () => null));
      expect(r.error?.issues.some((i) => i.code === 'too_big' && i.path.length === 0), l.name).toBe(true);
    }
  });

  it.each([
    ['a NUL', 'a\u0000b'],
    ['a lone surrogate', 'x\ud800y'],
    ['a lone low surrogate', '\udc00'],
  ])('refuses %s in any text of any call, but counts it as a failed login in the login name', (_, value) => {
    for (const { path, request } of requests) {
      const strings = schemaLeaves(request).filter((l) => schemaType(l.schema) === 'string' || l.schema === (dateInput as z.ZodType));
      for (const l of strings) {
        const body: Record<string, unknown> = {};
        let node = body;
        l.path.forEach((k, i) => {
          if (i === l.path.length - 1) node[k] = value;
          else node = (node[k] = typeof l.path[i + 1] === 'number' ? [] : {}) as Record<string, unknown>;
        });
        const r = request.safeParse(body);
        const named = !r.success && r.error.issues.some((i) => i.path.join('.') === l.path.join('.'));
        expect(named, `${path} ${l.path.join('.')}`).toBe(!(path === '/User/Login' && l.path.join('.') === 'LoginName'));
      }
    }
  });

  it('refuses NUL and lone surrogates hidden in free values (command parameters, their keys) by their path', () => {
    const send = (SCHEMAS as Record<string, { request: z.ZodType }>)['/Command/SendCommand']!.request;
    const r = send.safeParse({ Imei: '861234567890123', Code: 'MESSAGE', Params: { text: 'hi\u0000', more: ['\ud83d'], ['k\udc00']: 1 } });
    expect(r.success).toBe(false);
    expect(fieldErrorsOf(r.error!.issues)).toEqual([
      { Field: 'Params.text', Message: 'validation.nul' },
      { Field: 'Params.more.0', Message: 'validation.badCharacter' },
      { Field: 'Params.k\udc00', Message: 'validation.badCharacter' },
    ]);
    // A surrogate pair is one character (an emoji), taken like any other.
    expect(send.safeParse({ Imei: '861234567890123', Code: 'MESSAGE', Params: { text: 'hi 😀' } }).success).toBe(true);
  });
});

describe('building blocks', () => {
  it('reads ids from numbers and numeric strings, within an int4', () => {
    expect(id.parse(5)).toBe(5);
    expect(id.parse(' 12 ')).toBe(12);
    expect(id.parse(2147483647)).toBe(2147483647);
    for (const v of [0, -1, 2147483648, 1.5, 'abc', '', true, null]) expect(id.safeParse(v).success, String(v)).toBe(false);
  });

  it('reads dates as ISO text, epoch seconds or milliseconds, from 1970 to 2100, answering the instant', () => {
    const utc = (v: unknown) => (dateInput.parse(v) as SentTime).at(0).toISOString();
    expect(utc('2024-05-01T08:00:00Z')).toBe('2024-05-01T08:00:00.000Z');
    expect(utc('2024-05-01T16:00:00+08:00')).toBe('2024-05-01T08:00:00.000Z');
    expect(utc(1714550400)).toBe('2024-05-01T08:00:00.000Z');
    expect(utc('1714550400')).toBe('2024-05-01T08:00:00.000Z');
    expect(utc(1714550400000)).toBe('2024-05-01T08:00:00.000Z');
    expect(utc(0)).toBe('1970-01-01T00:00:00.000Z');
    // An instant is the same whatever the sender's zone.
    expect((dateInput.parse('2024-05-01T08:00:00Z') as SentTime).at(-540).toISOString()).toBe('2024-05-01T08:00:00.000Z');
    const refusal = (v: unknown) => fieldErrorsOf(z.object({ At: dateInput }).safeParse({ At: v }).error!.issues, { At: v })[0];
    expect(refusal('garbage')).toEqual({ Field: 'At', Message: 'validation.date' });
    expect(refusal(1.5)).toEqual({ Field: 'At', Message: 'validation.date' });
    expect(refusal('99999-01-01')).toMatchObject({ Field: 'At' });
    for (const v of ['0000-01-01', -1, -2147483649, '2101-01-01']) {
      expect(refusal(v), String(v)).toEqual({ Field: 'At', Message: 'validation.dateRange', Params: { min: DATE_MIN, max: DATE_MAX } });
    }
    expect(refusal(undefined)).toEqual({ Field: 'At', Message: 'validation.required' });
    expect(refusal('a\u0000b')).toEqual({ Field: 'At', Message: 'validation.nul' });
    expect(refusal('2024-02-30')).toEqual({ Field: 'At', Message: 'validation.date' });
    expect(refusal('2024-05-01 24:30')).toEqual({ Field: 'At', Message: 'validation.date' });
  });

  it("reads a time without a zone in the sender's zone, never the server's", () => {
    const t = dateInput.parse('2024-05-01 08:00:00') as SentTime;
    expect(t.zoned).toBe(false);
    expect(t.at(480).toISOString()).toBe('2024-05-01T00:00:00.000Z');
    expect(t.at(-540).toISOString()).toBe('2024-05-01T17:00:00.000Z');
    expect((dateInput.parse('2024-05-01') as SentTime).at(480).toISOString()).toBe('2024-04-30T16:00:00.000Z');
    expect((dateInput.parse('2024-05-01T08:30') as SentTime).at(0).toISOString()).toBe('2024-05-01T08:30:00.000Z');
    expect(JSON.stringify({ t })).toBe('{"t":"2024-05-01T08:00:00.000"}');
  });

  it('takes fractional numbers a float4 holds, 0 included, and refuses the ones it would underflow on', () => {
    const height = z.object({ Height: num(-50, 200) });
    for (const v of [0, -0, 2.5, -49.75, FLOAT_MIN, -FLOAT_MIN, 1e-20, '1.5']) expect(height.safeParse({ Height: v }).success, String(v)).toBe(true);
    for (const v of [5e-324, -1e-300, 1e-39]) {
      expect(fieldErrorsOf(height.safeParse({ Height: v }).error!.issues), String(v)).toEqual([{ Field: 'Height', Message: 'validation.nearZero', Params: { min: FLOAT_MIN } }]);
    }
    expect(fieldErrorsOf(height.safeParse({ Height: 1e39 }).error!.issues)).toEqual([{ Field: 'Height', Message: 'validation.max', Params: { max: 200 } }]);
  });

  it('refuses an update that changes nothing, at its first field, listing what it takes', () => {
    const update = (SCHEMAS as Record<string, { request: z.ZodType }>)['/Inventory/SalesUpdate']!.request;
    for (const body of [{ Id: 1 }, { Id: 1, SoldAt: '' }, { Id: 1, ExpiresAt: null, SoldAt: '' }]) {
      expect(fieldErrorsOf(update.safeParse(body).error!.issues, body), JSON.stringify(body)).toEqual([
        { Field: 'ExpiresAt', Message: 'validation.nothingToChange', Params: { fields: 'ExpiresAt, SoldAt, Remark' } },
      ]);
    }
    expect(update.parse({ Id: 1, SoldAt: '', Remark: '' })).toEqual({ Id: 1, Remark: '' });
  });

  it('takes an empty optional date as no date', () => {
    const s = z.object({ From: optionalDate });
    expect(s.parse({ From: '' })).toEqual({});
    expect(s.parse({ From: null })).toEqual({});
    expect(s.parse({})).toEqual({});
    expect(s.safeParse({ From: 'garbage' }).success).toBe(false);
  });
});

describe('field errors', () => {
  const errorsOf = (schema: z.ZodType, body: unknown) => fieldErrorsOf(schema.safeParse(body).error!.issues, body);
  const shape = z.object({ Name: text(8), Count: int(1, 10), Kind: z.enum(['a', 'b']), Tags: z.array(text(4)).max(2) });

  it('name the field and carry the limit that was crossed', () => {
    expect(errorsOf(shape, { Name: 'x'.repeat(9), Count: 11, Kind: 'c', Tags: ['a', 'b', 'c'] })).toEqual([
      { Field: 'Name', Message: 'validation.tooLong', Params: { max: 8 } },
      { Field: 'Count', Message: 'validation.max', Params: { max: 10 } },
      { Field: 'Kind', Message: 'validation.oneOf', Params: { options: 'a, b' } },
      { Field: 'Tags', Message: 'validation.tooMany', Params: { max: 2 } },
    ]);
    expect(errorsOf(shape, { Name: 1, Count: 1.5, Kind: 'a', Tags: ['x'.repeat(5)] })).toEqual([
      { Field: 'Name', Message: 'validation.string' },
      { Field: 'Count', Message: 'validation.integer' },
      { Field: 'Tags.0', Message: 'validation.tooLong', Params: { max: 4 } },
    ]);
    expect(errorsOf(shape, { Count: 0 })).toEqual([
      { Field: 'Name', Message: 'validation.required' },
      { Field: 'Count', Message: 'validation.min', Params: { min: 1 } },
      { Field: 'Kind', Message: 'validation.oneOf', Params: { options: 'a, b' } },
      { Field: 'Tags', Message: 'validation.required' },
    ]);
  });

  it('name a body that is not an object "body"', () => {
    expect(errorsOf(shape, [1, 2])).toEqual([{ Field: 'body', Message: 'validation.object' }]);
    expect(errorsOf(shape, 'text')).toEqual([{ Field: 'body', Message: 'validation.object' }]);
  });

  it('keep the keys and parameters schemas give, and list each field once', () => {
    const s = z.object({ Low: z.number().refine((v) => v > 5, { error: 'validation.thresholdRange', params: { min: 5, max: 9 } }), N: int(1, 5) });
    expect(errorsOf(s, { Low: 1, N: 1e20 })).toEqual([
      { Field: 'Low', Message: 'validation.thresholdRange', Params: { min: 5, max: 9 } },
      { Field: 'N', Message: 'validation.max', Params: { max: 5 } },
    ]);
  });

  it('render with every placeholder filled, in the three languages', () => {
    const bodies: [z.ZodType, unknown][] = [
      [shape, { Name: 'x'.repeat(9), Count: 11, Kind: 'c', Tags: ['a', 'b', 'c'] }],
      [shape, { Count: 0, Tags: [] }],
      [z.object({ At: dateInput }), { At: -1 }],
      [z.object({ At: dateInput, X: num(-1, 1) }), { At: 'x\ud800y', X: 5e-324 }],
      [(SCHEMAS as Record<string, { request: z.ZodType }>)['/Inventory/SalesUpdate']!.request, { Id: 1 }],
      ...requests.map(({ request }) => [request, { LoginName: 'x'.repeat(100), PageNo: 0, PageCount: 5000, UserId: 2147483648, Imei: 'a\u0000b' }] as [z.ZodType, unknown]),
    ];
    for (const [schema, body] of bodies) {
      const r = schema.safeParse(body);
      if (r.success) continue;
      for (const f of fieldErrorsOf(r.error.issues, body)) {
        for (const locale of LOCALES) {
          const template = translate(locale, f.Message);
          expect(template, f.Message).not.toBe(f.Message);
          for (const [, name] of template.matchAll(/\{\{\s*(\w+)\s*\}\}/g)) expect(f.Params?.[name!], `${f.Field} ${f.Message} {{${name}}}`).toBeDefined();
        }
      }
    }
  });
});
