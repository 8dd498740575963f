// Platform info and white label, brand icons, and the function switches, end to end. Demo accounts:
// admin (root) above agent01 above clinic01, and operator01, a sibling of agent01.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, startTestPlatform, type TestPlatform } from './helpers.js';
import { BRAND_DIR } from '../src/modules/platform/icon.js';

/** A 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01]);
const ICO = Buffer.concat([Buffer.from([0, 0, 1, 0, 1, 0, 16, 16, 0, 0, 1, 0, 32, 0]), Buffer.alloc(64, 1)]);
const HOSTILE_SVG = `<?xml version="1.0"?>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10" onload="alert(1)">
  <script>alert(2)</script>
  <circle cx="5" cy="5" r="4" fill="red" onclick="alert(3)"/>
  <foreignObject width="10" height="10"><div xmlns="http://www.w3.org/1999/xhtml">x</div></foreignObject>
  <image href="https://evil.example/t.png" width="1" height="1"/>
  <use xlink:href="https://evil.example/s.svg#a"/>
  <rect width="2" height="2" style="fill: url(https://evil.example/p)"/>
</svg>`;
const b64 = (b: Buffer | string) => Buffer.from(b).toString('base64');

describe.each(databases())('platform info and function switches on %s', (kind) => {
  let p: TestPlatform;
  const tokens: Record<string, string> = {};
  const ids: Record<string, number> = {};
  const q = <T = Record<string, unknown>>(sql: string, params: unknown[] = []) => p.deps.database.query<T>(sql, params);

  beforeAll(async () => {
    p = await startTestPlatform(kind);
    for (const name of ['admin', 'agent01', 'clinic01', 'operator01']) {
      const l = await p.login(name);
      tokens[name] = l.token;
      ids[name] = l.userId;
    }
  });
  afterAll(async () => {
    await p?.stop();
  });

  const brandBody = { Title: 'Agent One Care', PageTitle: 'Agent One', CompanyName: 'Agent One Ltd', Phone: '+86 755 1234567', Email: 'care@agent.example', Address: 'Shenzhen', Key: 'agent-one', HostName: 'care.agent.example' };

  it('saves an agent’s brand; its sub-account inherits it, and the menus it hides are hidden below it only', async () => {
    const saved = await p.call('/Platform/Save', { ...brandBody, HiddenMenus: ['/alarm/record'] }, tokens.agent01);
    expect(saved.status).toBe(200);
    expect(saved.body.Own).toMatchObject({ UserId: ids.agent01, Key: 'agent-one', HostName: 'care.agent.example', Title: 'Agent One Care', HiddenMenus: ['/alarm/record'] });
    expect(saved.body.HiddenMenus).toEqual([]);

    const clinic = (await p.call('/Platform/Info', {}, tokens.clinic01)).body;
    expect(clinic.Own).toBeNull();
    expect(clinic.Effective).toMatchObject({ Title: 'Agent One Care', PageTitle: 'Agent One', OwnerId: ids.agent01, OwnerLoginName: 'agent01' });
    expect(clinic.HiddenMenus).toEqual(['/alarm/record']);

    // A brand of its own wins over the inherited one; the hidden menus from above still apply.
    await p.call('/Platform/Save', { Title: 'Sunny Clinic' }, tokens.clinic01);
    const own = (await p.call('/Platform/Info', {}, tokens.clinic01)).body;
    expect(own.Effective).toMatchObject({ Title: 'Sunny Clinic', OwnerId: ids.clinic01 });
    expect(own.HiddenMenus).toEqual(['/alarm/record']);
    await q('DELETE FROM platform_brands WHERE account_id = $1', [ids.clinic01]);

    // The sibling sees nothing of it, and cannot read or write the agent's.
    expect((await p.call('/Platform/Info', {}, tokens.operator01)).body.Effective?.Title ?? '').not.toBe('Agent One Care');
    expect((await p.call('/Platform/Info', { UserId: ids.agent01 }, tokens.operator01)).status).toBe(403);
    const foreign = await p.call('/Platform/Save', { UserId: ids.agent01, Title: 'Taken over' }, tokens.operator01);
    expect(foreign.status).toBe(403);
    expect((await q<{ title: string }>('SELECT title FROM platform_brands WHERE account_id = $1', [ids.agent01]))[0]!.title).toBe('Agent One Care');
  });

  it('answers the login page’s brand by key or host name, with nothing private', async () => {
    const byKey = await p.call('/Platform/Brand', { Key: 'Agent-One' });
    expect(byKey.body).toEqual({ State: 200, Item: { Title: 'Agent One Care', PageTitle: 'Agent One', IconUrl: '', CompanyName: 'Agent One Ltd' } });
    const byHost = await p.app.inject({ method: 'POST', url: '/api/Platform/Brand', headers: { host: 'Care.Agent.Example:8443', 'content-type': 'application/json' }, payload: {} });
    expect(byHost.json().Item.Title).toBe('Agent One Care');
    expect((await p.call('/Platform/Brand', { Key: 'nobody' })).body.Item).toBeNull();
  });

  it('keeps keys and host names unique and well-formed, and hidden menus to the console’s menus', async () => {
    const taken = await p.call('/Platform/Save', { Title: 'Copy', Key: 'AGENT-ONE' }, tokens.operator01);
    expect(taken.status).toBe(409);
    expect(taken.body).toMatchObject({ Message: 'platform.keyTaken', Params: { key: 'agent-one' } });
    const host = await p.call('/Platform/Save', { Title: 'Copy', HostName: 'CARE.agent.example' }, tokens.operator01);
    expect(host.body).toMatchObject({ State: 409, Message: 'platform.hostTaken' });
    for (const [field, value, key] of [
      ['Key', 'has space', 'platform.keyInvalid'],
      ['Key', '-edge', 'platform.keyInvalid'],
      ['HostName', 'bad_host!', 'platform.hostInvalid'],
    ] as const) {
      const r = await p.call('/Platform/Save', { Title: 'x', [field]: value }, tokens.operator01);
      expect(r.status).toBe(400);
      expect(r.body.Fields[0]).toMatchObject({ Field: field, Message: key });
    }
    const menu = await p.call('/Platform/Save', { Title: 'x', HiddenMenus: ['/no/such/page'] }, tokens.operator01);
    expect(menu.body.Fields[0]).toMatchObject({ Field: 'HiddenMenus.0', Message: 'platform.menuUnknown', Params: { route: '/no/such/page' } });
    expect(await q('SELECT 1 FROM platform_brands WHERE account_id = $1', [ids.operator01])).toHaveLength(0);
    // Only a menu the account sees itself can be hidden below it: the inventory is the administrators'.
    const adminOnly = await p.call('/Platform/Save', { ...brandBody, HiddenMenus: ['/alarm/record', '/inventory/list'] }, tokens.agent01);
    expect(adminOnly.body.Fields[0]).toMatchObject({ Field: 'HiddenMenus.1', Message: 'platform.menuNotVisible', Params: { route: '/inventory/list' } });
    expect((await q<{ hidden_menus: string }>('SELECT hidden_menus FROM platform_brands WHERE account_id = $1', [ids.agent01]))[0]!.hidden_menus).toBe('/alarm/record');
    // Nor can an administrator above hide it on the agent's platform: the menus offered are the agent's.
    expect((await p.call('/Platform/Save', { ...brandBody, UserId: ids.agent01, HiddenMenus: ['/inventory/list'] }, tokens.admin)).body.Fields[0]).toMatchObject({ Message: 'platform.menuNotVisible' });
    // Its own key again is no conflict; a freed key is free again.
    expect((await p.call('/Platform/Save', { ...brandBody, Key: 'agent-one' }, tokens.agent01)).status).toBe(200);
  });

  it('accepts a PNG or ICO icon and serves it; refuses a JPEG, renamed HTML and oversized files', async () => {
    const png = await p.call('/Platform/UploadIcon', { Data: `data:image/png;base64,${b64(PNG)}`, FileName: 'logo.png' }, tokens.agent01);
    expect(png.status).toBe(200);
    expect(png.body.IconUrl).toMatch(/^\/api\/brand\/icon\/\d+-[a-f0-9]{16}\.png$/);
    const got = await fetch(`${p.url}${png.body.IconUrl}`);
    expect(got.headers.get('content-type')).toBe('image/png');
    expect(got.headers.get('cache-control')).toContain('immutable');
    expect(Buffer.from(await got.arrayBuffer()).equals(PNG)).toBe(true);
    expect((await p.call('/Platform/Brand', { Key: 'agent-one' })).body.Item.IconUrl).toBe(png.body.IconUrl);

    const ico = await p.call('/Platform/UploadIcon', { Data: b64(ICO) }, tokens.agent01);
    expect(ico.body.IconUrl).toMatch(/\.ico$/);
    // The replaced icon's file is gone.
    expect(readDir()).toEqual([path.basename(ico.body.IconUrl)]);

    for (const [bytes, key] of [
      [JPEG, 'platform.iconType'],
      [Buffer.from('<!doctype html><html><script>alert(1)</script></html>'), 'platform.iconType'],
      [Buffer.concat([PNG, Buffer.alloc(520 * 1024)]), 'platform.iconTooLarge'],
    ] as const) {
      const r = await p.call('/Platform/UploadIcon', { Data: `data:image/png;base64,${b64(bytes)}`, FileName: 'logo.png' }, tokens.agent01);
      expect(r.status).toBe(400);
      // The message is about the icon the user chose; the call's internal field is not named.
      expect(r.body).toMatchObject({ Message: key });
      expect(r.body.Fields).toBeUndefined();
      expect(r.body.Text).not.toContain('Data');
    }
    expect(readDir()).toEqual([path.basename(ico.body.IconUrl)]);
    expect((await fetch(`${p.url}/api/brand/icon/..%2F..%2Fetc%2Fpasswd`)).status).toBe(404);
    expect((await p.call('/Platform/UploadIcon', { UserId: ids.agent01, Data: b64(PNG) }, tokens.operator01)).status).toBe(403);

    function readDir() {
      return readdirSorted(BRAND_DIR(p.dataDir)).filter((f) => f.startsWith(`${ids.agent01}-`));
    }
  });

  it('sanitizes an SVG icon: no script, handlers, foreignObject or outside references', async () => {
    const r = await p.call('/Platform/UploadIcon', { Data: b64(HOSTILE_SVG) }, tokens.agent01);
    expect(r.status).toBe(200);
    const res = await fetch(`${p.url}${r.body.IconUrl}`);
    expect(res.headers.get('content-type')).toBe('image/svg+xml');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    const svg = await res.text();
    expect(svg).toMatch(/^<svg[^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    expect(svg).toContain('<circle');
    for (const bad of ['script', 'alert', 'onload', 'onclick', 'foreignObject', 'evil.example']) expect(svg).not.toContain(bad);
  });

  it('lets an account turn its display switches, and services only be granted from above, never beyond the granter’s', async () => {
    const sw = (token: string, body: Record<string, unknown>) => p.call('/User/EditFunctionSwitches', body, token);
    const own = await sw(tokens.clinic01, { switchAnimation: 2, IsShowMonitorFence: 1, IsInnerDoor: 2 });
    expect(own.body.UserInfo).toMatchObject({ switchAnimation: 2, IsShowMonitorFence: 1, IsInnerDoor: 2 });

    const self = await sw(tokens.clinic01, { isWeatherConfig: 1 });
    expect(self.status).toBe(400);
    expect(self.body.Fields[0]).toMatchObject({ Field: 'isWeatherConfig', Message: 'platform.serviceSelf' });

    // agent01 has no weather push: it cannot grant it.
    const notHeld = await sw(tokens.agent01, { UserId: ids.clinic01, isWeatherConfig: 1 });
    expect(notHeld.body.Fields[0]).toMatchObject({ Field: 'isWeatherConfig', Message: 'platform.serviceNotHeld' });
    // Refused as a whole: the display switch asked with it did not change either.
    expect((await sw(tokens.agent01, { UserId: ids.clinic01, switchAnimation: 1, isSendMessage: 1 })).status).toBe(400);
    expect((await q<{ v: number }>('SELECT switch_animation AS v FROM accounts WHERE id = $1', [ids.clinic01]))[0]!.v).toBe(2);

    expect((await sw(tokens.admin, { UserId: ids.agent01, isWeatherConfig: 1, isSendMessage: 1 })).body.UserInfo).toMatchObject({ isWeatherConfig: 1, isSendMessage: 1 });
    expect((await sw(tokens.agent01, { UserId: ids.clinic01, isWeatherConfig: 1 })).body.UserInfo.isWeatherConfig).toBe(1);
    // Taken from the agent, the service goes from its whole subtree.
    await sw(tokens.admin, { UserId: ids.agent01, isWeatherConfig: 2 });
    expect((await q<{ v: number }>('SELECT is_weather_config AS v FROM accounts WHERE id = $1', [ids.clinic01]))[0]!.v).toBe(2);
    // Outside the subtree: refused.
    expect((await sw(tokens.operator01, { UserId: ids.clinic01, switchAnimation: 1 })).status).toBe(403);
    // The platform form's batch-command switch follows the same rule.
    const batch = await p.call('/Platform/Save', { ...brandBody, switchFunctionSendCmd: 1 }, tokens.agent01);
    expect(batch.body.Fields[0]).toMatchObject({ Field: 'switchFunctionSendCmd', Message: 'platform.serviceSelf' });
  });

  it('hides the pages of a display switch turned off: their calls are refused until it is on again', async () => {
    const turn = (body: Record<string, number>) => p.call('/User/EditFunctionSwitches', body, tokens.agent01);
    expect((await p.call('/health/HealthHasDataForUsers', {}, tokens.agent01)).body.State).toBe(200);
    expect((await turn({ IsHealthData: 2, IsDataShow: 2 })).body.UserInfo).toMatchObject({ IsHealthData: 2, IsDataShow: 2 });
    const off = await p.call('/health/HealthHasDataForUsers', {}, tokens.agent01, { 'accept-language': 'en' });
    expect(off.body).toMatchObject({ State: 403, Message: 'platform.switchedOff', Params: { name: 'health data' } });
    expect((await p.call('/User/adminPageAnalysis', { Days: 7 }, tokens.agent01)).body.Message).toBe('platform.switchedOff');
    // Another account's switch is its own: clinic01 still reads its health data.
    expect((await p.call('/health/HealthHasDataForUsers', {}, tokens.clinic01)).body.State).toBe(200);
    await turn({ IsHealthData: 1, IsDataShow: 1 });
    expect((await p.call('/health/HealthHasDataForUsers', {}, tokens.agent01)).body.State).toBe(200);
  });

  it('tells in settingFunction whether the account has the functional configuration page', async () => {
    const info = async (token: string, id: number) => (await p.call('/User/UserInfo', { UserId: id }, token)).body.UserInfo;
    expect((await info(tokens.admin, ids.admin)).settingFunction).toBe(1);
    const [set] = await q<{ id: number }>(`INSERT INTO permission_sets (key, name, routes, actions, owner_id) VALUES ('devices-only', 'Devices only', '/devices/list', '', $1) RETURNING id`, [ids.admin]);
    await q('UPDATE accounts SET permission_set_id = $1 WHERE id = $2', [set!.id, ids.operator01]);
    expect((await info(tokens.admin, ids.operator01)).settingFunction).toBe(2);
    await q('UPDATE accounts SET permission_set_id = NULL WHERE id = $1', [ids.operator01]);
  });

  it('refuses platform edits and other accounts’ switches to a set without platform.edit and function.edit', async () => {
    const [set] = await q<{ id: number }>(
      `INSERT INTO permission_sets (owner_id, key, name, routes, actions) VALUES ($1, 'look', 'Look only', '', 'device.add') RETURNING id`,
      [ids.admin],
    );
    await q('UPDATE accounts SET permission_set_id = $1 WHERE id = $2', [set!.id, ids.agent01]);
    p.app.authenticator.invalidateAccount(ids.agent01);
    const save = await p.call('/Platform/Save', { Title: 'Changed' }, tokens.agent01);
    expect(save.status).toBe(403);
    expect(save.body).toMatchObject({ Message: 'permission.denied', Params: { code: 'platform.edit' } });
    expect((await p.call('/Platform/UploadIcon', { Data: b64(PNG) }, tokens.agent01)).status).toBe(403);
    const other = await p.call('/User/EditFunctionSwitches', { UserId: ids.clinic01, switchAnimation: 1 }, tokens.agent01);
    expect(other.body).toMatchObject({ State: 403, Message: 'permission.denied', Params: { code: 'function.edit' } });
    // Its own display switches stay its own.
    expect((await p.call('/User/EditFunctionSwitches', { switchAnimation: 2 }, tokens.agent01)).body.UserInfo.switchAnimation).toBe(2);
    expect((await q<{ title: string }>('SELECT title FROM platform_brands WHERE account_id = $1', [ids.agent01]))[0]!.title).toBe('Agent One Care');
    await q('UPDATE accounts SET permission_set_id = NULL WHERE id = $1', [ids.agent01]);
    p.app.authenticator.invalidateAccount(ids.agent01);
  });
});

function readdirSorted(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch {
    return [];
  }
}
