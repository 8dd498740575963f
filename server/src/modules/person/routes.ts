// Wearer profiles of devices (SPEC §3 person info): one row per device, reached by the device's
// IMEI within the caller's subtree.
import { inArray, sql } from 'drizzle-orm';
import { State, type person as personSchemas } from '@wt/contract';

type Person = personSchemas.Person;
import type { z } from 'zod';
import { defineCall, type AuthedContext } from '../../calls.js';
import type { Db } from '../../db/client.js';
import { devicePersons, devices } from '../../db/schema/index.js';
import { accountInScope, ownedBySubtree } from '../../lib/scope.js';
import { notFound } from '../../lib/errors.js';
import { allOf, contains, iso, rows } from '../../lib/sql.js';
import { devicesByImeis } from '../device/repo.js';
import { AVATAR_URL_PREFIX, removeAvatar, saveAvatar } from './avatar.js';

type PersonRow = typeof devicePersons.$inferInsert;
type ProfileInput = Omit<z.output<typeof personSchemas.savePersonProfileRequest>, 'Imei'>;

interface JoinedRow {
  device_id: number;
  imei: string;
  device_name: string;
  name: string | null;
  gender: string | null;
  age: number | null;
  phone: string | null;
  email: string | null;
  address: string | null;
  remark: string | null;
  blood_type: string | null;
  height: number | null;
  weight: number | null;
  avatar: string | null;
  updated_at: Date | null;
}

function toPerson(r: JoinedRow): Person {
  return {
    DeviceId: r.device_id,
    Imei: r.imei,
    DeviceName: r.device_name,
    Name: r.name ?? '',
    Gender: (r.gender as Person['Gender']) ?? null,
    Age: r.age,
    Phone: r.phone ?? '',
    Email: r.email ?? '',
    Address: r.address ?? '',
    Remark: r.remark ?? '',
    BloodType: (r.blood_type as Person['BloodType']) ?? null,
    Height: r.height,
    Weight: r.weight,
    Avatar: r.avatar ? `${AVATAR_URL_PREFIX}${r.avatar}` : '',
    UpdatedAt: iso(r.updated_at),
  };
}

const SELECT = sql`SELECT devices.id AS device_id, devices.imei, devices.name AS device_name, p.name, p.gender, p.age, p.phone, p.email,
  p.address, p.remark, p.blood_type, p.height, p.weight, p.avatar, p.updated_at
  FROM devices LEFT JOIN device_persons p ON p.device_id = devices.id`;

async function personOf(db: Db, deviceId: number): Promise<Person> {
  const [r] = await rows<JoinedRow>(db, sql`${SELECT} WHERE devices.id = ${deviceId}`);
  return toPerson(r!);
}

async function deviceIdOf(ctx: AuthedContext, imei: string): Promise<number> {
  const d = (await devicesByImeis(ctx.deps.database.db, ctx.user, [imei])).get(imei);
  if (!d) throw notFound('device.notFound');
  return d.id;
}

async function upsert(db: Db, deviceId: number, values: Partial<PersonRow>) {
  await db
    .insert(devicePersons)
    .values({ ...values, deviceId })
    .onConflictDoUpdate({ target: devicePersons.deviceId, set: { ...values, updatedAt: new Date() } });
}

/** Profile fields to write: those given, and those of `clear` that were left empty. */
async function profileValues(ctx: AuthedContext, b: Partial<ProfileInput>, clear: readonly (keyof ProfileInput)[]): Promise<Partial<PersonRow>> {
  const v: Partial<PersonRow> = {};
  const put = <K extends keyof PersonRow>(field: keyof ProfileInput, k: K, value: PersonRow[K] | undefined, empty: PersonRow[K]) => {
    if (value !== undefined) v[k] = value;
    else if (clear.includes(field)) v[k] = empty;
  };
  put('Name', 'name', b.Name, '');
  put('Gender', 'gender', b.Gender, null);
  put('Age', 'age', b.Age, null);
  put('Phone', 'phone', b.Phone, '');
  put('Email', 'email', b.Email, '');
  put('Address', 'address', b.Address, '');
  put('Remark', 'remark', b.Remark, '');
  put('BloodType', 'bloodType', b.BloodType, null);
  // Height and weight sent empty keep what is stored.
  if (b.Height !== undefined) v.height = b.Height;
  if (b.Weight !== undefined) v.weight = b.Weight;
  if (b.Avatar !== undefined) v.avatar = b.Avatar === '' ? '' : await saveAvatar(ctx.deps.config.DATA_DIR, b.Avatar);
  return v;
}

async function replacedAvatars(db: Db, deviceIds: number[]): Promise<string[]> {
  if (!deviceIds.length) return [];
  const old = await db.select({ avatar: devicePersons.avatar }).from(devicePersons).where(inArray(devicePersons.deviceId, deviceIds));
  return old.map((o) => o.avatar).filter(Boolean);
}

export async function saveProfile(ctx: AuthedContext, imei: string, b: Partial<ProfileInput>, clear: readonly (keyof ProfileInput)[]) {
  const { db } = ctx.deps.database;
  const deviceId = await deviceIdOf(ctx, imei);
  const values = await profileValues(ctx, b, clear);
  const old = values.avatar !== undefined ? await replacedAvatars(db, [deviceId]) : [];
  await upsert(db, deviceId, values);
  for (const name of old) if (name !== values.avatar) await removeAvatar(ctx.deps.config.DATA_DIR, name);
  return { State: State.OK, Item: await personOf(db, deviceId) } as const;
}

/** Fields an empty value clears: the console payload's own (it has no email, blood type or avatar), or the full profile's. */
const CONSOLE_FIELDS = ['Name', 'Address', 'Age', 'Gender', 'Phone', 'Remark'] as const;
const PROFILE_FIELDS = [...CONSOLE_FIELDS, 'Email', 'BloodType'] as const;

export const personCalls = [
  defineCall('/device/updatePersonInfo', (ctx, b) =>
    saveProfile(ctx, b.sn, { Name: b.name, Address: b.address, Age: b.age, Gender: b.gender, Phone: b.phone, Remark: b.remark, Height: b.height, Weight: b.weight }, CONSOLE_FIELDS),
  ),
  defineCall('/Person/SavePersonProfile', (ctx, { Imei, ...b }) => saveProfile(ctx, Imei, b, PROFILE_FIELDS)),
  defineCall('/Person/GetPersonProfile', async (ctx, b) => {
    const deviceId = await deviceIdOf(ctx, b.Imei);
    return { State: State.OK, Item: await personOf(ctx.deps.database.db, deviceId) } as const;
  }),
  defineCall('/Person/batchUpdatePerson', async (ctx, { Imeis, ...b }) => {
    const { db } = ctx.deps.database;
    const found = await devicesByImeis(db, ctx.user, Imeis);
    const failed = [...new Set(Imeis)].filter((i) => !found.has(i)).map((Imei) => ({ Imei, Message: 'device.missing' }));
    const ids = [...found.values()].map((d) => d.id);
    if (ids.length) {
      const values = await profileValues(ctx, b, []);
      for (const id of ids) await upsert(db, id, values);
    }
    return { State: State.OK, Succeeded: ids.length, Failed: failed } as const;
  }),
  defineCall('/device/AllPersonInfo', async (ctx, q) => {
    const { db } = ctx.deps.database;
    const account = await accountInScope(db, ctx.user, q.UserId);
    const conds = [ownedBySubtree(devices.accountId, account)];
    if (q.Imei) conds.push(sql`devices.imei LIKE ${contains(q.Imei)}`);
    if (q.Name) conds.push(sql`(p.name ILIKE ${contains(q.Name)} OR devices.name ILIKE ${contains(q.Name)})`);
    const where = allOf(conds);
    const [{ n }] = (await rows<{ n: number }>(
      db,
      sql`SELECT count(*)::int AS n FROM devices LEFT JOIN device_persons p ON p.device_id = devices.id WHERE ${where}`,
    )) as [{ n: number }];
    const page = await rows<JoinedRow>(db, sql`${SELECT} WHERE ${where} ORDER BY devices.id DESC LIMIT ${q.PageCount} OFFSET ${(q.PageNo - 1) * q.PageCount}`);
    return { State: State.OK, Total: Number(n), Items: page.map(toPerson) };
  }),
];


