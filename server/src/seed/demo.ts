// The demo tenant (ARCHITECTURE.md): an administrator admin/admin123, sub-accounts of different
// kinds and role labels, and permission sets. Areas that own demo data (devices, roles, fences ...)
// add their own steps to DEMO_STEPS, run in order after the accounts.
//
// Each account's user type is chosen for what it is for (SPEC §6 decides the pages of a type):
// - agent01, an agent (type 1, editor): every page a customer can have, and its customers' accounts.
// - clinic01, a care home with health watches (type 4, editor-indoor): the dashboard and the health
//   pages; not the position group or the inner map.
// - operator01, the platform's operators on duty (type 7, editor-healthdata): monitor, dashboard,
//   positions, inner map, alarms; no health pages.
// - viewer01, a vehicle fleet that only looks (type 10, the fewest pages), with the "view only"
//   permission set: every menu of its type, and no action (no add, edit, delete, command, export).
import { ALARM_CODES, TREE_ROUTES, roleRoutes, routesWithCompanions } from '@wt/contract';
import type { AppDeps } from '../deps.js';
import { hashPassword } from '../lib/passwords.js';
import { permissionSets } from '../db/schema/index.js';
import { insertAccount } from '../modules/user/repo.js';
import type { AccountRow } from '../lib/scope.js';
import { seedDemoDevices } from './devices.js';
import { seedDemoDevicesConsole } from '../modules/device/demo.js';
import { seedIndoorDemo } from './indoor.js';
import { seedErpDemo, seedInventoryDemo } from '../modules/inventory/demo.js';

export interface DemoAccounts {
  admin: AccountRow;
  agent: AccountRow;
  operator: AccountRow;
  health: AccountRow;
  clinic: AccountRow;
}

export type DemoStep = (deps: AppDeps, accounts: DemoAccounts) => Promise<void>;

/** Extra demo steps of other areas, in order. */
export const DEMO_STEPS: { name: string; run: DemoStep }[] = [
  { name: 'devices', run: seedDemoDevices },
  // After the devices: links them to models, gives them roles, groups, fences and wearers.
  { name: 'devices-console', run: seedDemoDevicesConsole },
  { name: 'indoor', run: seedIndoorDemo },
  { name: 'inventory', run: seedInventoryDemo },
  { name: 'erp', run: seedErpDemo },
];

export const DEMO_PASSWORD = 'admin123';
const VIEWER_TYPE = 10;

export async function seedDemo(deps: AppDeps): Promise<DemoAccounts> {
  const { db } = deps.database;
  const hash = await hashPassword(DEMO_PASSWORD);
  const admin = await insertAccount(db, {
    loginName: 'admin',
    passwordHash: hash,
    kind: 'operator',
    userType: 3,
    username: '平台管理员',
    pageName: 'WearTrack 设备云平台',
    companyName: 'WearTrack',
    email: 'admin@weartrack.local',
    phone: '13800000000',
    address: '深圳市南山区科技园',
    switchFunctionSendCmd: 1,
    isSendMsgByRole: 1,
    isWeatherConfig: 1,
  });
  // A set for accounts that must not see health data (applied by an administrator when needed).
  await db
    .insert(permissionSets)
    .values({
      ownerId: admin.id,
      key: 'no-health',
      name: '无健康数据',
      description: 'Monitor, devices, alarms and accounts, without the health pages',
      routes: [
        '/', '/dashboard', '/devices', '/devices/list', '/devices/detail', '/devices/roles', '/devices/integrations', '/devices/history',
        '/deviceFence', '/deviceAlarm', '/alarm', '/alarm/record', '/alarm/alarmSetting', '/alarm/escalation', '/account', '/account/accounts',
        '/account/showfence', '/setting', '/setting/platform',
      ].join(','),
      actions: [
        'device.add', 'device.edit', 'device.delete', 'device.bind', 'device.move', 'device.import', 'device.export', 'device.command',
        'device.role', 'device.integration', 'history.export', 'fence.edit', 'alarm.confirm', 'alarm.setting', 'alarm.export',
        'account.add', 'account.edit', 'account.delete', 'account.move', 'account.password', 'accountFence.edit', 'attendance.export', 'platform.edit',
      ].join(','),
    });
  // viewer01's set: every menu its account type opens, and no action (it looks, it changes nothing).
  const [viewerSet] = await db
    .insert(permissionSets)
    .values({
      ownerId: admin.id,
      key: 'view-only',
      name: '仅查看',
      description: 'Every menu of the account type, no add, edit, delete, command or export',
      routes: routesWithCompanions(roleRoutes(VIEWER_TYPE).filter((r) => TREE_ROUTES.includes(r))).join(','),
      actions: '',
    })
    .returning();

  const agent = await insertAccount(db, {
    parentId: admin.id,
    parentPath: admin.path,
    loginName: 'agent01',
    passwordHash: hash,
    kind: 'agent',
    userType: 1,
    username: '华南代理',
    companyName: '华南智能穿戴代理有限公司',
    email: 'agent01@weartrack.local',
    agentAuthorized: true,
  });
  const clinic = await insertAccount(db, {
    parentId: agent.id,
    parentPath: agent.path,
    loginName: 'clinic01',
    passwordHash: hash,
    kind: 'user',
    userType: 4,
    username: '康宁养老院',
    companyName: '康宁养老院',
    email: 'clinic01@weartrack.local',
  });
  const operator = await insertAccount(db, {
    parentId: admin.id,
    parentPath: admin.path,
    loginName: 'operator01',
    passwordHash: hash,
    kind: 'operator',
    userType: 7,
    username: '运营值班',
    email: 'operator01@weartrack.local',
  });
  const health = await insertAccount(db, {
    parentId: admin.id,
    parentPath: admin.path,
    loginName: 'viewer01',
    passwordHash: hash,
    kind: 'user',
    userType: VIEWER_TYPE,
    username: '物流车队',
    email: 'viewer01@weartrack.local',
    permissionSetId: viewerSet!.id,
  });
  const accounts = { admin, agent, operator, health, clinic };
  for (const step of DEMO_STEPS) {
    deps.log.info({ step: step.name }, 'seeding demo data');
    await step.run(deps, accounts);
  }
  // The agent's escalation of an unanswered SOS, in force for its customers: the console at once, the
  // first alarm contact's SMS after a minute, the second contact and the parent account after three,
  // then again every five minutes (at most six times) until someone acknowledges.
  await deps.database.query(`INSERT INTO escalation_policies (account_id, alarm_type, enabled, steps, repeat_minutes, repeat_cap) VALUES ($1, $2, true, $3::jsonb, 5, 6)`, [
    agent.id,
    ALARM_CODES.sos,
    JSON.stringify([
      { wait: 0, contacts: [], dutyUsers: [], parent: false, channels: ['console'] },
      { wait: 1, contacts: [1], dutyUsers: [], parent: false, channels: ['sms'] },
      { wait: 3, contacts: [2], dutyUsers: [], parent: true, channels: ['sms', 'console'] },
    ]),
  ]);
  return accounts;
}
