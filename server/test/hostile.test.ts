// Hostile input over the whole registry: every implemented call, every field of its request schema,
// a set of values that break naive code (beyond int4, NUL in text, impossible dates, fractions
// where integers are meant, a huge string), a lone surrogate in every text field, numbers no float
// column holds (5e-324, ±1e39) in every number field, bodies of the wrong shape, and update calls
// with their ids alone (nothing to change). Never an HTTP 500; what the contract must refuse
// answers 400 with a Fields entry naming the field and a rendered message.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { CALLS, EXTRA_CALLS, FLOAT_MIN, SCHEMAS, dateInput, fieldName, pipeInput, schemaLeaves, schemaType, translate, unionOptions, unwrapSchema } from '@wt/contract';
import { allCalls } from '../src/modules/index.js';
import { baseBody, setAt } from './sample-bodies.js';
import { sql } from 'drizzle-orm';
import { jsonParam, rows } from '../src/lib/sql.js';
import { databases, startTestPlatform, type TestPlatform } from './helpers.js';

const HUGE = 'x'.repeat(100_000);
const NUL = 'a\u0000b';
/** An unpaired UTF-16 surrogate: JSON carries it as "x\ud800y"; PostgreSQL refuses it in json/jsonb. */
const LONE = 'x\ud800y';
const VALUES: unknown[] = [2147483648, -2147483649, 1.5, NUL, 'garbage', '0000-01-01', '99999-01-01', -1, HUGE];
/** What a float4 column underflows on (a denormal even for float8), and beyond its range. */
const FLOATS = [5e-324, 1e39, -1e39];

type Kind = 'date' | 'int' | 'number' | 'string' | 'choice' | 'other';

/** The values a field of this kind gets: all get VALUES; texts a lone surrogate, numbers FLOATS. */
function valuesFor(kind: Kind): unknown[] {
  if (kind === 'int' || kind === 'number') return [...VALUES, ...FLOATS];
  if (kind === 'string' || kind === 'date' || kind === 'other') return [...VALUES, LONE];
  return VALUES;
}

function kindOf(leaf: z.ZodType): Kind {
  if (leaf === (dateInput as z.ZodType)) return 'date';
  const t = schemaType(leaf);
  if (t === 'pipe') return kindOf(pipeInput(leaf)!);
  if (t === 'string') return 'string';
  if (t === 'number') return (leaf as z.ZodNumber).isInt ? 'int' : 'number';
  if (t === 'enum' || t === 'literal' || t === 'boolean') return 'choice';
  if (t === 'union') {
    const kinds = unionOptions(leaf).map(kindOf);
    if (kinds.every((k) => k === 'choice')) return 'choice';
    if (kinds.includes('number')) return 'number';
    if (kinds.includes('int')) return 'int';
  }
  return 'other';
}

/** Whether the contract must refuse `value` in a field of this kind (bounded ids, integers, dates and texts). */
function mustRefuse(kind: Kind, value: unknown, maxLength: number | null): boolean {
  if (value === HUGE) return !(maxLength !== null && maxLength >= HUGE.length);
  if (value === NUL || value === LONE) return true;
  switch (kind) {
    case 'date':
      return value !== 2147483648;
    case 'int':
      return value !== -1;
    case 'number': {
      if (typeof value === 'string') return true;
      const n = Math.abs(value as number);
      return n > 2147483647 || (n !== 0 && n < FLOAT_MIN);
    }
    case 'string':
      return typeof value !== 'string';
    case 'choice':
      return true;
    default:
      return false;
  }
}

interface Probe {
  path: string;
  field?: string;
  value: unknown;
  body: unknown;
  refuse: boolean;
  /** What the probe sends, when not a value in a field. */
  label?: string;
}

function describeValue(v: unknown) {
  if (v === HUGE) return `"x"×${HUGE.length}`;
  return typeof v === 'number' ? String(v) : JSON.stringify(v);
}

describe.each(databases())('hostile input over the whole registry on %s', (kind) => {
  let p: TestPlatform;
  let token: string;
  let imei: string;
  beforeAll(async () => {
    p = await startTestPlatform(kind);
    token = (await p.login()).token;
    const list = await p.call('/Device/devicesByUserId', { PageCount: 1 }, token);
    imei = list.body.Items[0].Imei;
  });
  afterAll(() => p?.stop());

  it('answers every call with 400 naming the field for what the contract refuses, and never 500', async () => {
    const implemented = new Set(allCalls().map((c) => c.path.toLowerCase()));
    const schemas = SCHEMAS as Record<string, { request: z.ZodType }>;
    const probes: Probe[] = [];
    let validBases = 0;
    for (const entry of [...CALLS, ...EXTRA_CALLS]) {
      if (!implemented.has(entry.path.toLowerCase())) continue;
      const request = schemas[entry.path]!.request;
      const base = baseBody(request, imei);
      if (request.safeParse(base).success) validBases += 1;
      for (const body of [[1, 2], 'text', null]) {
        probes.push({ path: entry.path, field: body === null ? undefined : 'body', value: body, body, refuse: body !== null });
      }
      // An update with its ids alone: refused (naming a field) when the call needs more, never a 500.
      if (/update|edit/i.test(entry.path)) {
        const ids = Object.fromEntries(Object.entries(base).filter(([k]) => /Ids?$/.test(k)));
        const parsed = request.safeParse(ids);
        probes.push({ path: entry.path, field: parsed.success ? undefined : fieldName(parsed.error.issues[0]!.path), value: ids, body: ids, refuse: !parsed.success, label: 'ids only' });
      }
      for (const leaf of schemaLeaves(request)) {
        const k = kindOf(leaf.schema);
        const maxLength = schemaType(leaf.schema) === 'string' ? (leaf.schema as z.ZodString).maxLength : null;
        for (const value of valuesFor(k)) {
          const body = structuredClone(base);
          setAt(body, leaf.path, value);
          probes.push({ path: entry.path, field: leaf.path.join('.'), value, body, refuse: mustRefuse(k, value, maxLength) });
        }
      }
    }

    const failures: string[] = [];
    const errors500 = new Map<string, number>();
    const run = async (probe: Probe) => {
      const res = await p.app.inject({
        method: 'POST',
        url: `/api${probe.path}`,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'accept-language': 'en' },
        payload: JSON.stringify(probe.body),
      });
      // A call that answers a file (the operation log's spreadsheet) has no JSON to look into.
      const answer = (String(res.headers['content-type'] ?? '').includes('json') ? res.json() : {}) as { Message?: string; Fields?: { Field: string; Message: string; Params?: Record<string, unknown>; Text: string }[]; Text?: string };
      const what = probe.label ? `${probe.path} ${probe.label} ${JSON.stringify(probe.body)}` : `${probe.path} ${probe.field ?? '(body)'}=${describeValue(probe.value)}`;
      if (res.statusCode >= 500) {
        errors500.set(probe.path, (errors500.get(probe.path) ?? 0) + 1);
        failures.push(`${what}: HTTP ${res.statusCode} ${answer.Message}`);
        return;
      }
      for (const f of res.statusCode >= 400 ? (answer.Fields ?? []) : []) {
        const placeholders = [...translate('en', f.Message).matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]!);
        if (!f.Field || !f.Text || f.Text === f.Message || placeholders.some((n) => f.Params?.[n] === undefined)) {
          failures.push(`${what}: field error without a name or with an unfilled message ${JSON.stringify(f)}`);
        }
      }
      if (!probe.refuse) return;
      // The login counts a name with NUL or a lone surrogate as a failed login instead of refusing it up front.
      if (probe.path === '/User/Login' && probe.field === 'LoginName' && (probe.value === NUL || probe.value === LONE)) {
        if (res.statusCode !== 400 || answer.Message !== 'auth.loginFailed') failures.push(`${what}: expected a failed login, got ${res.statusCode} ${answer.Message}`);
        return;
      }
      if (res.statusCode !== 400 || !answer.Fields?.some((f) => f.Field === probe.field)) {
        failures.push(`${what}: expected 400 naming ${probe.field}, got ${res.statusCode} ${answer.Message} ${JSON.stringify(answer.Fields?.map((f) => f.Field))}`);
      }
    };
    for (let i = 0; i < probes.length; i += 8) await Promise.all(probes.slice(i, i + 8).map(run));

    const calls500 = [...errors500.entries()].sort((a, b) => b[1] - a[1]);
    console.log(
      `[${kind}] ${probes.length} requests over ${implemented.size} calls: ${calls500.reduce((n, [, c]) => n + c, 0)} HTTP 500 in ${calls500.length} calls`,
      calls500.map(([path, n]) => `\n  ${n}\t${path}`).join(''),
    );
    expect(failures).toEqual([]);
    // The rest of each body is valid for nearly every call, so hostile values reach the handlers.
    expect(validBases).toBeGreaterThan(implemented.size * 0.9);
  }, 600_000);

  it.each([
    ['NUL', 'admin\u0000'],
    ['a lone surrogate', 'admin\ud800'],
  ])('counts a login name with %s as a failed login, toward the lock-out of that name', async (_, name) => {
    for (let i = 0; i < 5; i++) {
      const r = await p.call('/User/Login', { LoginName: name, Password: 'admin123' }, undefined, { 'accept-language': 'en' });
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ Message: 'auth.loginFailed', Text: 'Login failed: account or password wrong' });
      expect(r.body.Fields).toBeUndefined();
    }
    const locked = await p.call('/User/Login', { LoginName: name, Password: 'admin123' });
    expect(locked.status).toBe(429);
    expect(locked.body.Message).toBe('auth.tooManyAttempts');
    // The real account is not the one locked, and the login log still reads.
    expect((await p.call('/User/Login', { LoginName: 'admin', Password: 'admin123' })).body.State).toBe(0);
    expect((await p.call('/User/allUserLoginLog', { Keyword: 'admin' }, token)).status).toBe(200);
  });

  it('answers field errors with the limit in the caller language', async () => {
    const long = await p.call('/DeviceRole/Save', { Name: 'x'.repeat(65), Color: 'blue' }, token, { 'accept-language': 'zh-CN' });
    expect(long.status).toBe(400);
    expect(long.body.Fields).toEqual([{ Field: 'Name', Message: 'validation.tooLong', Params: { max: 64 }, Text: '长度不能超过 64 个字符' }]);
    expect(long.body.Text).toBe('提交的内容有误，请检查标出的字段: Name 长度不能超过 64 个字符');
    const big = await p.call('/User/UserInfo', { UserId: 2147483648 }, token, { 'accept-language': 'en' });
    expect(big.body.Fields).toEqual([{ Field: 'UserId', Message: 'validation.max', Params: { max: 2147483647 }, Text: 'Must be at most 2147483647' }]);
    const date = await p.call('/Device/allHealthDataPage', { StartTime: '0000-01-01' }, token, { 'accept-language': 'zh-TW' });
    expect(date.body.Fields).toEqual([
      { Field: 'StartTime', Message: 'validation.dateRange', Params: { min: '1970-01-01', max: '2100-12-31' }, Text: '日期須在 1970-01-01 到 2100-12-31 之間' },
    ]);
    const list = await p.call('/Device/BatchDelDevices', ['861234567890123'], token, { 'accept-language': 'en' });
    expect(list.body.Fields).toEqual([{ Field: 'body', Message: 'validation.object', Text: 'Must be a JSON object' }]);
    const level = await p.call('/ExceptionMessage/ExceptionType', { Level: 1.5 }, token, { 'accept-language': 'en' });
    expect(level.body.Fields).toEqual([{ Field: 'Level', Message: 'validation.integer', Text: 'Must be a whole number' }]);
  });

  it('refuses a lone surrogate and a number a float column cannot hold, naming the field and the limit', async () => {
    const send = (path: keyof typeof SCHEMAS, patch: Record<string, unknown>, language: string) =>
      p.call(path, { ...baseBody(SCHEMAS[path].request as z.ZodType, imei), ...patch }, token, { 'accept-language': language });
    const imeis = await send('/device/BatchExportHistoryDataByUserId', { Imeis: [imei, LONE] }, 'zh-TW');
    expect(imeis.status).toBe(400);
    expect(imeis.body.Fields).toEqual([{ Field: 'Imeis.1', Message: 'validation.badCharacter', Text: '不能包含無效字元（未配對的 UTF-16 代理項）' }]);
    const content = await send('/Command/sendMessageByRoles', { Content: `hello ${LONE}` }, 'zh-CN');
    expect(content.body.Fields).toEqual([{ Field: 'Content', Message: 'validation.badCharacter', Text: '不能包含无效字符（未配对的 UTF-16 代理项）' }]);
    // A surrogate pair (an emoji) is a character like any other.
    expect((await send('/Command/sendMessageByRoles', { Content: 'hello 😀' }, 'en')).status).toBe(200);

    const tiny = await send('/Scene/addBeaconsInfoByMonitor', { Height: 5e-324, Heading: -5e-324 }, 'en');
    expect(tiny.status).toBe(400);
    expect(tiny.body.Fields).toEqual([
      { Field: 'Height', Message: 'validation.nearZero', Params: { min: FLOAT_MIN }, Text: 'Must be 0 or at least 1.2e-38 in absolute value' },
      { Field: 'Heading', Message: 'validation.nearZero', Params: { min: FLOAT_MIN }, Text: 'Must be 0 or at least 1.2e-38 in absolute value' },
    ]);
    const huge = await send('/Scene/addBeaconsInfoByMonitor', { Height: 1e39 }, 'en');
    expect(huge.body.Fields).toEqual([{ Field: 'Height', Message: 'validation.max', Params: { max: 200 }, Text: 'Must be at most 200' }]);
    const lat = await send('/Scene/addSceneInfo', { Lat: -1e-300 }, 'en');
    expect(lat.body.Fields).toEqual([{ Field: 'Lat', Message: 'validation.nearZero', Params: { min: FLOAT_MIN }, Text: 'Must be 0 or at least 1.2e-38 in absolute value' }]);
  });

  it('answers an update with nothing to change 400 naming what it takes, a date given as "" counting as absent', async () => {
    const [customer] = await rows<{ id: number }>(p.deps.database.db, sql`SELECT id FROM accounts WHERE login_name = 'agent01'`);
    const model = (await p.call('/Inventory/ModelInsert', { Name: 'Hostile-1' }, token)).body.Id;
    const store = (await p.call('/Inventory/StoreList', { PageCount: 1 }, token)).body.Items[0].Id;
    const stocked = await p.call('/Inventory/BatchInsert', { ModelId: model, StoreId: store, StockInDate: '2026-11-02', Imeis: ['356999000000001'] }, token);
    expect(stocked.body.Succeeded).toBe(1);
    const sale = await p.call('/Inventory/SalesInsert', { CustomerId: customer!.id, ModelId: model, Imeis: ['356999000000001'] }, token);
    expect(sale.body.State).toBe(200);
    const saleFields = 'ExpiresAt, SoldAt, Remark';
    const batchFields = 'VersionId, StoreId, OwnerId, StockInDate, Remark';
    for (const [path, body, field, fields] of [
      ['/Inventory/SalesUpdate', { Id: sale.body.Id }, 'ExpiresAt', saleFields],
      ['/Inventory/SalesUpdate', { Id: sale.body.Id, SoldAt: '', ExpiresAt: '' }, 'ExpiresAt', saleFields],
      ['/Inventory/UpdateInfo', { Id: stocked.body.Id }, 'VersionId', batchFields],
      ['/Inventory/UpdateInfo', { Id: stocked.body.Id, StockInDate: '' }, 'VersionId', batchFields],
    ] as const) {
      const r = await p.call(path, body, token, { 'accept-language': 'en' });
      expect(r.status, `${path} ${JSON.stringify(body)}`).toBe(400);
      expect(r.body.Fields).toEqual([{ Field: field, Message: 'validation.nothingToChange', Params: { fields }, Text: `Nothing to change: give at least one of ${fields}` }]);
    }
    // With something to change, '' still keeps the date.
    const before = (await p.call('/Inventory/SalesList', { PageCount: 100 }, token)).body.Items.find((x: { Id: number }) => x.Id === sale.body.Id);
    expect((await p.call('/Inventory/SalesUpdate', { Id: sale.body.Id, SoldAt: '', Remark: 'checked' }, token)).body.State).toBe(200);
    const after = (await p.call('/Inventory/SalesList', { PageCount: 100 }, token)).body.Items.find((x: { Id: number }) => x.Id === sale.body.Id);
    expect(after).toMatchObject({ SoldAt: before.SoldAt, Remark: 'checked' });
  });

  it('hands PostgreSQL JSON it takes whatever its strings hold (a lone surrogate, NUL)', async () => {
    const q = <T>(text: string, json: string) => p.deps.database.query<T>(text, [json]);
    const texts = [LONE, NUL, 'hello 😀'];
    await expect(q('SELECT json_array_elements_text($1::json) AS v', JSON.stringify(texts))).rejects.toThrow();
    expect((await q<{ v: string }>('SELECT json_array_elements_text($1::json) AS v', jsonParam(texts))).map((r) => r.v)).toEqual(['x\ufffdy', 'ab', 'hello 😀']);
    const [row] = await q<{ v: unknown }>('SELECT $1::jsonb AS v', jsonParam({ [`k${LONE}`]: [NUL, { n: 1 }] }));
    expect(row!.v).toEqual({ 'kx\ufffdy': ['ab', { n: 1 }] });
  });
});

// Kept apart so a failure above names the values; this checks the walker reaches nested fields.
it('walks nested fields and array elements of request schemas', () => {
  const paths = schemaLeaves((SCHEMAS as Record<string, { request: z.ZodType }>)['/Geofence/addDeviceGeofence']!.request).map((l) => l.path.join('.'));
  expect(paths).toEqual(expect.arrayContaining(['Name', 'Points.0.Lat', 'Points.0.Lon', 'Imei']));
  expect(unwrapSchema(dateInput.optional()).schema).toBe(dateInput);
});
