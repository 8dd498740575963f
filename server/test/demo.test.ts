// The demo tenant: each sub-account's user type shows what the account is for (SPEC §6 decides the
// pages of a type), as the README's "Demo tenant" section describes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROTECTED_ROUTES, joinPath, type RouteDef } from '@wt/contract';
import { databases, startTestPlatform, type TestPlatform } from './helpers.js';

/** Full paths of the pages a role label may open by role (SPEC §6), ignoring route lists. */
function pagesOf(label: string, routes: RouteDef[] = PROTECTED_ROUTES, base = ''): string[] {
  return routes.flatMap((r) => {
    if (r.meta?.roles && !(r.meta.roles as readonly string[]).includes(label)) return [];
    const full = base ? joinPath(base, r.path) : r.path;
    return [...(r.view ? [full] : []), ...(r.children ? pagesOf(label, r.children, full) : [])];
  });
}

describe.each(databases())('demo tenant on %s', (kind) => {
  let p: TestPlatform;
  beforeAll(async () => {
    p = await startTestPlatform(kind);
  });
  afterAll(() => p?.stop());

  const info = async (login: string) => {
    const { token } = await p.login(login);
    return (await p.call('/User/UserInfo', {}, token)).body.UserInfo as { UserType: number; RoleLabel: string; AccountKind: string; routes: string; Permissions: string[] };
  };

  it('gives the care home the dashboard and the health pages', async () => {
    const clinic = await info('clinic01');
    expect(clinic).toMatchObject({ UserType: 4, RoleLabel: 'editor-indoor', routes: '' });
    const pages = pagesOf(clinic.RoleLabel);
    for (const page of ['/', '/dashboard', '/health/data', '/health/detail', '/devices/list', '/alarm/record']) expect(pages, page).toContain(page);
    expect(pages).not.toContain('/model/list');
  });

  it('gives the agent every customer page, and the operators no health pages', async () => {
    const agent = await info('agent01');
    expect(agent).toMatchObject({ AccountKind: 'agent', UserType: 1, RoleLabel: 'editor', routes: '' });
    expect(pagesOf(agent.RoleLabel)).toEqual(expect.arrayContaining(['/dashboard', '/health/data', '/account/accounts', '/position/innerMap']));
    const operator = await info('operator01');
    expect(operator).toMatchObject({ AccountKind: 'operator', UserType: 7, RoleLabel: 'editor-healthdata', routes: '' });
    const pages = pagesOf(operator.RoleLabel);
    expect(pages).toEqual(expect.arrayContaining(['/', '/dashboard', '/devices/list', '/alarm/record', '/position/innerMap']));
    expect(pages).not.toContain('/health/data');
  });

  it('gives the viewer every menu of its type and no action', async () => {
    const viewer = await info('viewer01');
    // A route list without the health detail page makes the effective type 7 (SPEC §4).
    expect(viewer.UserType).toBe(7);
    expect(viewer.Permissions).toEqual([]);
    const routes = viewer.routes.split(',');
    expect(routes).toEqual(expect.arrayContaining(['/', '/devices/list', '/devices/detail', '/devices/history', '/deviceFence', '/alarm/record', '/alarm/alarmSetting', '/account/accounts']));
    // Type 10 opens neither the dashboard, the health pages nor the administrator's pages.
    for (const r of ['/dashboard', '/health/data', '/health/detail', '/model/list', '/track/index']) expect(routes).not.toContain(r);
  });
});
