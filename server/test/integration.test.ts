// Uplink integrations managed through the /Integration calls, end to end: the token a call answers
// is the one POST /api/ingest/<name> takes, rotating and disabling refuse the old one at once, and
// a sibling account never sees or touches another tenant's integrations. Demo accounts: admin
// above agent01 above clinic01 (the care home, watches 865000000000001-020), and operator01, a
// sibling of agent01.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, startTestPlatform, type TestPlatform } from './helpers.js';

describe.each(databases())('uplink integrations on %s', (kind) => {
  let p: TestPlatform;
  let admin: string;
  let agent: string;
  let operator: string;
  let clinic: string;
  const ids: Record<string, number> = {};
  const q = <T = Record<string, unknown>>(sql: string, params: unknown[] = []) =>
    p.deps.database.query<T>(sql, params);
  const positions = async (imei: string) =>
    (await q('SELECT 1 FROM positions p JOIN devices d ON d.id = p.device_id WHERE d.imei = $1', [imei]))
      .length;
  const ingest = (name: string, token: string | undefined, body: unknown) =>
    fetch(`${p.url}/api/ingest/${name}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
  const count = async () =>
    Number((await q<{ n: number }>('SELECT count(*)::int AS n FROM integrations'))[0]!.n);
  const row = async (id: number) =>
    (
      await q<{ name: string; account_id: number; enabled: boolean; token_hash: string }>(
        'SELECT * FROM integrations WHERE id = $1',
        [id],
      )
    )[0];

  beforeAll(async () => {
    p = await startTestPlatform(kind);
    admin = (await p.login('admin')).token;
    agent = (await p.login('agent01')).token;
    operator = (await p.login('operator01')).token;
    clinic = (await p.login('clinic01')).token;
    for (const r of await q<{ id: number; login_name: string }>(`SELECT id, login_name FROM accounts`))
      ids[r.login_name] = r.id;
  });
  afterAll(async () => {
    await p?.stop();
  });

  it('creates an integration for an account of the subtree; its token, shown once, writes that subtree', async () => {
    const created = await p.call(
      '/Integration/Save',
      { Name: 'chirpstack-care', AccountId: ids.clinic01 },
      agent,
    );
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      State: 200,
      Item: { Name: 'chirpstack-care', AccountId: ids.clinic01, AccountName: 'clinic01', Enabled: true },
    });
    const token = created.body.Token as string;
    expect(token.length).toBeGreaterThanOrEqual(32);
    expect((await row(created.body.Item.IntegrationId))!.token_hash).not.toContain(token);

    const before = await positions('865000000000006');
    const r = await ingest('chirpstack-care', token, { imei: '865000000000006', lat: 22.53, lon: 114.03 });
    expect(r.status).toBe(200);
    expect(await r.json()).toMatchObject({ State: 200, Stored: 1, Unknown: [] });
    expect(await positions('865000000000006')).toBe(before + 1);

    // Listed for the subtree above the owner, never with the token.
    for (const session of [agent, admin, clinic]) {
      const list = await p.call('/Integration/List', { Name: 'care' }, session);
      expect(list.body).toMatchObject({
        State: 200,
        Total: 1,
        Items: [{ Name: 'chirpstack-care', AccountName: 'clinic01' }],
      });
      expect(JSON.stringify(list.body)).not.toContain(token);
    }
    // The accepted uplink is recorded as the last use (in the background).
    await expect
      .poll(async () => (await p.call('/Integration/List', { Name: 'care' }, agent)).body.Items[0].LastUsedAt)
      .not.toBeNull();
    const none = await p.call('/Integration/List', { Name: 'nothing-like-it' }, agent);
    expect(none.body).toMatchObject({ Total: 0, Items: [] });
  });

  it('owns the integration by the caller when no owner is given, and pages the list', async () => {
    const own = await p.call('/Integration/Save', { Name: 'agent_partner' }, agent);
    expect(own.body.Item).toMatchObject({ AccountId: ids.agent01, AccountName: 'agent01' });
    const page = await p.call('/Integration/List', { PageNo: 1, PageCount: 1 }, agent);
    expect(page.body.Total).toBe(2);
    expect(page.body.Items).toHaveLength(1);
    expect(page.body.Items[0].Name).toBe('agent_partner');
    // The clinic below sees only its own.
    const below = await p.call('/Integration/List', {}, clinic);
    expect(below.body.Items.map((i: { Name: string }) => i.Name)).toEqual(['chirpstack-care']);
  });

  it('rotates the token: the old one is refused at once, the new one works', async () => {
    const created = await p.call('/Integration/Save', { Name: 'rotate-me', AccountId: ids.clinic01 }, agent);
    const old = created.body.Token as string;
    const rotated = await p.call(
      '/Integration/RotateToken',
      { IntegrationId: created.body.Item.IntegrationId },
      agent,
    );
    expect(rotated.body).toMatchObject({ State: 200, Item: { Name: 'rotate-me' } });
    const fresh = rotated.body.Token as string;
    expect(fresh).not.toBe(old);

    const refused = await ingest('rotate-me', old, { imei: '865000000000007', lat: 1, lon: 2 });
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ State: 1100 });
    const ok = await ingest('rotate-me', fresh, { imei: '865000000000007', lat: 22.5, lon: 114 });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ State: 200, Stored: 1 });
  });

  it('updates name, state and owner without showing the token; a disabled integration is refused', async () => {
    const created = await p.call('/Integration/Save', { Name: 'toggle-me', AccountId: ids.clinic01 }, agent);
    const id = created.body.Item.IntegrationId as number;
    const token = created.body.Token as string;

    const off = await p.call(
      '/Integration/Save',
      { IntegrationId: id, Name: 'toggle-me', Enabled: false },
      agent,
    );
    expect(off.body).toMatchObject({ State: 200, Item: { Enabled: false, AccountId: ids.clinic01 } });
    expect(off.body.Token).toBeUndefined();
    const refused = await ingest('toggle-me', token, { imei: '865000000000008', lat: 1, lon: 2 });
    expect(refused.status).toBe(401);

    const renamed = await p.call(
      '/Integration/Save',
      { IntegrationId: id, Name: 'toggled', Enabled: true, AccountId: ids.agent01 },
      agent,
    );
    expect(renamed.body).toMatchObject({
      State: 200,
      Item: { Name: 'toggled', Enabled: true, AccountId: ids.agent01, AccountName: 'agent01' },
    });
    expect(renamed.body.Token).toBeUndefined();
    expect((await ingest('toggle-me', token, { imei: '865000000000008', lat: 1, lon: 2 })).status).toBe(401);
    const back = await ingest('toggled', token, { imei: '865000000000008', lat: 22.5, lon: 114 });
    expect(back.status).toBe(200);
    expect(await back.json()).toMatchObject({ Stored: 1 });
  });

  it('checks the name: 3 to 64 of a-z, 0-9, - and _, unique on the platform', async () => {
    const before = await count();
    for (const [name, key] of [
      ['', 'integration.nameRequired'],
      ['ab', 'integration.nameInvalid'],
      ['LoRa', 'integration.nameInvalid'],
      ['has space', 'integration.nameInvalid'],
      ['dot.ted', 'integration.nameInvalid'],
      ['x'.repeat(65), 'integration.nameInvalid'],
    ]) {
      const r = await p.call('/Integration/Save', { Name: name }, agent);
      expect(r.status, name).toBe(400);
      expect(r.body.Fields, name).toEqual([expect.objectContaining({ Field: 'Name', Message: key })]);
    }
    expect((await p.call('/Integration/Save', { Name: 'x'.repeat(64) }, agent)).body.State).toBe(200);
    expect((await p.call('/Integration/Save', { Name: 'a-1_b' }, agent)).body.State).toBe(200);
    expect(await count()).toBe(before + 2);

    // Taken, even by another tenant: a name is a URL of the platform.
    const taken = await p.call('/Integration/Save', { Name: 'chirpstack-care' }, operator, {
      'accept-language': 'en',
    });
    expect(taken.status).toBe(409);
    expect(taken.body).toMatchObject({
      State: 409,
      Message: 'integration.nameExists',
      Text: 'An integration with this name already exists',
    });
    const zh = await p.call('/Integration/Save', { Name: 'chirpstack-care' }, agent);
    expect(zh.body.Text).toBe('同名集成已存在');
    expect(await count()).toBe(before + 2);

    const own = (await p.call('/Integration/List', { Name: 'agent_partner' }, agent)).body.Items[0];
    const rename = await p.call(
      '/Integration/Save',
      { IntegrationId: own.IntegrationId, Name: 'chirpstack-care' },
      agent,
    );
    expect(rename.body).toMatchObject({ State: 409, Message: 'integration.nameExists' });
    expect((await row(own.IntegrationId))!.name).toBe('agent_partner');
  });

  it('keeps tenants apart: a sibling cannot list, update, rotate or delete, nor own one outside its subtree', async () => {
    const created = await p.call('/Integration/Save', { Name: 'agent-only', AccountId: ids.clinic01 }, agent);
    const id = created.body.Item.IntegrationId as number;
    const token = created.body.Token as string;
    const before = await row(id);

    // operator01 has its own (the demo scene's gateways), never the agent's.
    const list = await p.call('/Integration/List', {}, operator);
    expect(list.body.State).toBe(200);
    expect(list.body.Items.map((i: { Name: string }) => i.Name)).not.toContain('agent-only');
    expect((await p.call('/Integration/List', { Name: 'agent-only' }, operator)).body.Total).toBe(0);

    for (const [path, body] of [
      ['/Integration/Save', { IntegrationId: id, Name: 'stolen', Enabled: false }],
      ['/Integration/Save', { IntegrationId: id, Name: 'agent-only', AccountId: ids.operator01 }],
      ['/Integration/RotateToken', { IntegrationId: id }],
      ['/Integration/Delete', { IntegrationIds: [id] }],
    ] as const) {
      const r = await p.call(path, body, operator);
      expect(r.status, path).toBe(404);
      expect(r.body, path).toMatchObject({ State: 404, Message: 'integration.notFound' });
    }
    // The account below cannot reach what its parent owns directly.
    const own = (await p.call('/Integration/List', { Name: 'agent_partner' }, agent)).body.Items[0];
    expect(
      (await p.call('/Integration/RotateToken', { IntegrationId: own.IntegrationId }, clinic)).body.State,
    ).toBe(404);
    // Unknown ids answer the same as foreign ones.
    expect((await p.call('/Integration/RotateToken', { IntegrationId: 999999 }, agent)).body).toMatchObject({
      State: 404,
      Message: 'integration.notFound',
    });

    // An owner outside the caller's subtree: refused, nothing created or moved.
    const n = await count();
    const outside = await p.call(
      '/Integration/Save',
      { Name: 'agent-for-operator', AccountId: ids.operator01 },
      agent,
    );
    expect(outside.status).toBe(403);
    expect(outside.body).toMatchObject({ State: 403, Message: 'account.notInScope' });
    const up = await p.call('/Integration/Save', { Name: 'clinic-up', AccountId: ids.agent01 }, clinic);
    expect(up.body).toMatchObject({ State: 403, Message: 'account.notInScope' });
    const move = await p.call(
      '/Integration/Save',
      { IntegrationId: id, Name: 'agent-moved', AccountId: ids.operator01 },
      agent,
    );
    expect(move.body).toMatchObject({ State: 403, Message: 'account.notInScope' });
    expect(await count()).toBe(n);
    expect(await row(id)).toEqual(before);

    const ok = await ingest('agent-only', token, { imei: '865000000000009', lat: 22.5, lon: 114 });
    expect(ok.status).toBe(200);
  });

  it('deletes by ids, all or none, and the token stops working', async () => {
    const a = await p.call('/Integration/Save', { Name: 'delete-a', AccountId: ids.clinic01 }, agent);
    const b = await p.call('/Integration/Save', { Name: 'delete-b' }, operator);
    const ida = a.body.Item.IntegrationId as number;
    const idb = b.body.Item.IntegrationId as number;

    // One foreign id refuses the whole call.
    const mixed = await p.call('/Integration/Delete', { IntegrationIds: [ida, idb] }, agent);
    expect(mixed.body).toMatchObject({ State: 404, Message: 'integration.notFound' });
    expect(await row(ida)).toBeDefined();
    expect(await row(idb)).toBeDefined();
    expect((await p.call('/Integration/Delete', { IntegrationIds: [] }, agent)).status).toBe(400);

    const done = await p.call('/Integration/Delete', { IntegrationIds: [ida, ida] }, agent);
    expect(done.body).toEqual({ State: 200, Deleted: 1 });
    expect(await row(ida)).toBeUndefined();
    expect((await ingest('delete-a', a.body.Token, { imei: '865000000000010', lat: 1, lon: 2 })).status).toBe(
      401,
    );
    expect((await p.call('/Integration/List', { Name: 'delete-a' }, agent)).body.Total).toBe(0);

    // The administrator above both tenants reaches both.
    expect((await p.call('/Integration/Delete', { IntegrationIds: [idb] }, admin)).body).toEqual({
      State: 200,
      Deleted: 1,
    });
  });

  it('answers an expired or missing session with 401 and changes nothing', async () => {
    const n = await count();
    const r = await p.call('/Integration/Save', { Name: 'no-session' });
    expect(r.status).toBe(401);
    expect(await count()).toBe(n);
  });
});
