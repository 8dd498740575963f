// Every protected route of the console (SPEC §2), declared once with its meta (SPEC §6 roles).
// The console's router, menu, breadcrumb and guard are all derived from this tree; nothing is added
// at login. `view` names the page component; `title` is an i18n key of the `route` namespace.
import { ROLE_LABELS, type RoleLabel } from './roles.js';

export interface RouteMeta {
  title: string;
  icon?: string;
  /** Shown only to these roles; absent means open to every role. */
  roles?: RoleLabel[];
  /**
   * A page of what every tenant shares (alarm types, the model catalogue, app versions, every beacon
   * of the platform): shown only to the platform's administrators (roles.ts isPlatformAdministrator),
   * whatever the role or route list says. Its calls are marked `admin` in the registry.
   */
  platform?: boolean;
  /** Kept alive across tabs (SPEC §2: Monitor, Dashboard, Health, Devices, SingleAlarm). */
  keepAlive?: boolean;
  noCache?: boolean;
  /** Tag that cannot be closed. */
  affix?: boolean;
}

export interface RouteDef {
  /** Absolute for top-level entries, relative (no leading slash) for children. */
  path: string;
  view?: string;
  meta?: RouteMeta;
  hidden?: boolean;
  /** Show the parent even with a single visible child. */
  alwaysShow?: boolean;
  redirect?: string;
  children?: RouteDef[];
}

const ADMIN: RoleLabel[] = ['admin'];
/** Every role: the pages SPEC §6 opens to admin and all editor variants. */
const ALL: RoleLabel[] = [...ROLE_LABELS];
const DASHBOARD: RoleLabel[] = ['admin', 'editor', 'editor-indoor', 'editor-healthdata', 'editor-healthdata-innor'];
// SPEC §6 lists the editor variants for health, position and inner map; the administrator sees
// every page of the platform, so it is added (docs/decisions.md).
const HEALTH: RoleLabel[] = ['admin', 'editor', 'editor-indoor', 'editor-datashow', 'editor-all-indoor-datashow'];
const POSITION: RoleLabel[] = ['admin', 'editor', 'editor-datashow', 'editor-healthdata', 'editor-healthdata-datashow'];
const INNER_MAP: RoleLabel[] = ['admin', 'editor', 'editor-datashow', 'editor-healthdata', 'editor-healthdata-datashow'];

export const PROTECTED_ROUTES: RouteDef[] = [
  {
    path: '/',
    redirect: '/',
    children: [
      { path: '', view: 'Monitor', meta: { title: 'monitor', icon: 'GlobalOutlined', roles: ALL, keepAlive: true, affix: true } },
    ],
  },
  {
    path: '/dashboard',
    children: [{ path: '', view: 'Dashboard', meta: { title: 'dashboard', icon: 'DashboardOutlined', roles: DASHBOARD, keepAlive: true } }],
  },
  {
    path: '/devices',
    redirect: '/devices/list',
    alwaysShow: true,
    meta: { title: 'devices', icon: 'MobileOutlined' },
    children: [
      { path: 'list', view: 'Devices', meta: { title: 'deviceList', icon: 'UnorderedListOutlined', keepAlive: true } },
      { path: 'detail', view: 'DeviceDetail', hidden: true, meta: { title: 'deviceDetail', roles: ALL } },
      { path: 'roles', view: 'DeviceRoles', meta: { title: 'deviceRoles', icon: 'TagsOutlined', roles: ALL } },
      { path: 'integrations', view: 'Integrations', meta: { title: 'integrations', icon: 'ApiOutlined', roles: ALL } },
      { path: 'history', view: 'History', hidden: true, meta: { title: 'history' } },
    ],
  },
  {
    path: '/deviceFence',
    children: [{ path: '', view: 'DeviceFence', meta: { title: 'deviceFence', icon: 'BorderOutlined' } }],
  },
  {
    path: '/deviceAlarm',
    hidden: true,
    children: [{ path: '', view: 'SingleAlarm', hidden: true, meta: { title: 'deviceAlarm', keepAlive: true } }],
  },
  {
    path: '/track',
    hidden: true,
    children: [{ path: 'index', view: 'Track', hidden: true, meta: { title: 'track', roles: ADMIN } }],
  },
  {
    path: '/alarm',
    redirect: '/alarm/record',
    alwaysShow: true,
    meta: { title: 'alarm', icon: 'AlertOutlined' },
    children: [
      { path: 'rule', view: 'AlarmRule', meta: { title: 'alarmRule', icon: 'ProfileOutlined', roles: ADMIN, platform: true } },
      { path: 'record', view: 'AlarmRecord', meta: { title: 'alarmRecord', icon: 'BellOutlined', roles: ALL } },
      { path: 'alarmSetting', view: 'AlarmSetting', meta: { title: 'alarmSetting', icon: 'SettingOutlined', roles: ALL } },
      { path: 'escalation', view: 'Escalation', meta: { title: 'escalation', icon: 'RiseOutlined', roles: ALL } },
    ],
  },
  {
    path: '/report',
    redirect: '/report/index',
    meta: { title: 'reports', icon: 'BarChartOutlined', roles: ALL },
    children: [{ path: 'index', view: 'Reports', meta: { title: 'reports', icon: 'BarChartOutlined', roles: ALL } }],
  },
  {
    path: '/health',
    redirect: '/health/data',
    meta: { title: 'health', icon: 'HeartOutlined', roles: HEALTH },
    children: [
      { path: 'data', view: 'Health', meta: { title: 'healthData', icon: 'HeartOutlined', roles: HEALTH, keepAlive: true } },
      { path: 'detail', view: 'HealthDetail', hidden: true, meta: { title: 'healthDetail', roles: HEALTH } },
    ],
  },
  {
    path: '/indoorBeacons',
    meta: { title: 'indoorBeacons', icon: 'WifiOutlined', roles: ADMIN, platform: true },
    children: [{ path: 'index', view: 'IndoorBeacons', meta: { title: 'indoorBeacons', icon: 'WifiOutlined', roles: ADMIN, platform: true } }],
  },
  {
    path: '/account',
    redirect: '/account/accounts',
    alwaysShow: true,
    meta: { title: 'account', icon: 'TeamOutlined' },
    children: [
      { path: 'accounts', view: 'Accounts', meta: { title: 'accounts', icon: 'UserOutlined' } },
      { path: 'role', view: 'AccountRole', hidden: true, meta: { title: 'accountRole' } },
      { path: 'showfence', view: 'AccountFence', meta: { title: 'accountFence', icon: 'AimOutlined', roles: ALL } },
    ],
  },
  {
    path: '/model',
    redirect: '/model/list',
    alwaysShow: true,
    meta: { title: 'model', icon: 'AppstoreOutlined', roles: ADMIN, platform: true },
    children: [
      { path: 'list', view: 'ModelList', meta: { title: 'modelList', icon: 'AppstoreOutlined', roles: ADMIN, platform: true } },
      { path: 'protocol', view: 'ModelProtocol', meta: { title: 'modelProtocol', icon: 'ApiOutlined', roles: ADMIN, platform: true } },
      { path: 'command', view: 'ModelCommand', meta: { title: 'modelCommand', icon: 'CodeOutlined', roles: ADMIN, platform: true } },
    ],
  },
  {
    path: '/inventory',
    redirect: '/inventory/list',
    alwaysShow: true,
    meta: { title: 'inventory', icon: 'DatabaseOutlined', roles: ADMIN },
    children: [
      { path: 'list', view: 'InventoryList', meta: { title: 'inventoryList', icon: 'DatabaseOutlined', roles: ADMIN } },
      { path: 'sales', view: 'InventorySales', meta: { title: 'inventorySales', icon: 'ShoppingCartOutlined', roles: ADMIN } },
      { path: 'batch', view: 'InventoryBatch', hidden: true, meta: { title: 'inventoryBatch', roles: ADMIN } },
    ],
  },
  {
    path: '/position',
    redirect: '/position/beacons',
    alwaysShow: true,
    meta: { title: 'position', icon: 'EnvironmentOutlined', roles: POSITION },
    children: [
      { path: 'beacons', view: 'PositionBeacons', meta: { title: 'positionBeacons', icon: 'WifiOutlined', roles: POSITION } },
      { path: 'assetInventory', view: 'AssetInventory', meta: { title: 'assetInventory', icon: 'ContainerOutlined', roles: POSITION } },
      { path: 'fenceList', view: 'PositionFenceList', meta: { title: 'positionFenceList', icon: 'BorderOuterOutlined', roles: ALL } },
      { path: 'monitorDetail', view: 'MonitorDetail', hidden: true, meta: { title: 'monitorDetail', roles: ALL } },
      { path: 'bindBeacon', view: 'BindBeacon', meta: { title: 'bindBeacon', icon: 'LinkOutlined', roles: ADMIN } },
      { path: 'innerMap', view: 'InnerMap', meta: { title: 'innerMap', icon: 'PictureOutlined', roles: INNER_MAP } },
    ],
  },
  {
    path: '/scene',
    redirect: '/scene/sencelist',
    alwaysShow: true,
    // SPEC §2's menu "scene applications".
    meta: { title: 'sceneApplications', icon: 'BankOutlined', roles: ADMIN },
    children: [
      { path: 'sencelist', view: 'SceneList', meta: { title: 'sceneList', icon: 'BankOutlined', roles: ADMIN } },
      { path: 'floors', view: 'SceneFloors', meta: { title: 'sceneFloors', icon: 'BuildOutlined', roles: ADMIN } },
      { path: 'aoa', view: 'SceneAoa', meta: { title: 'sceneAoa', icon: 'RadarChartOutlined', roles: ADMIN } },
      { path: 'beacons', view: 'SceneBeacons', meta: { title: 'sceneBeacons', icon: 'WifiOutlined', roles: ADMIN } },
      { path: 'projectMap', view: 'SceneProjectMap', meta: { title: 'projectMap', icon: 'GlobalOutlined', roles: ADMIN } },
      { path: 'calibration', view: 'SceneCalibration', meta: { title: 'sceneCalibration', icon: 'ExperimentOutlined', roles: ADMIN } },
      { path: 'scenemap', view: 'SceneMap', hidden: true, meta: { title: 'sceneMap', roles: ADMIN } },
    ],
  },
  {
    path: '/push',
    redirect: '/push/pushlist',
    alwaysShow: true,
    meta: { title: 'push', icon: 'SendOutlined', roles: ADMIN },
    children: [
      { path: 'sendMessage', view: 'SendMessage', meta: { title: 'sendMessage', icon: 'MessageOutlined', roles: ADMIN } },
      { path: 'pushlist', view: 'PushList', meta: { title: 'pushList', icon: 'CloudUploadOutlined', roles: ADMIN } },
      { path: 'app', view: 'AppVersion', meta: { title: 'appVersion', icon: 'MobileOutlined', roles: ADMIN, platform: true } },
    ],
  },
  {
    path: '/setting',
    redirect: '/setting/platform',
    alwaysShow: true,
    meta: { title: 'setting', icon: 'SettingOutlined' },
    children: [
      { path: 'platform', view: 'Platform', meta: { title: 'platform', icon: 'ControlOutlined' } },
      { path: 'userlogs', view: 'UserLogs', hidden: true, meta: { title: 'userLogs' } },
      { path: 'setingfunction', view: 'SettingFunction', meta: { title: 'settingFunction', icon: 'ToolOutlined' } },
    ],
  },
  {
    path: '/erp',
    redirect: '/erp/purchase',
    alwaysShow: true,
    meta: { title: 'erp', icon: 'ContainerOutlined', roles: ADMIN },
    children: [
      { path: 'materials', view: 'ErpMaterials', meta: { title: 'erpMaterials', icon: 'AppstoreOutlined', roles: ADMIN } },
      { path: 'materialRecords', view: 'ErpMaterialRecords', meta: { title: 'erpMaterialRecords', icon: 'UnorderedListOutlined', roles: ADMIN } },
      { path: 'products', view: 'ErpProducts', meta: { title: 'erpProducts', icon: 'TagsOutlined', roles: ADMIN } },
      { path: 'productRecords', view: 'ErpProductRecords', meta: { title: 'erpProductRecords', icon: 'UnorderedListOutlined', roles: ADMIN } },
      { path: 'suppliers', view: 'ErpSuppliers', meta: { title: 'erpSuppliers', icon: 'ShopOutlined', roles: ADMIN } },
      { path: 'customers', view: 'ErpCustomers', meta: { title: 'erpCustomers', icon: 'TeamOutlined', roles: ADMIN } },
      { path: 'purchase', view: 'ErpPurchase', meta: { title: 'erpPurchase', icon: 'ProfileOutlined', roles: ADMIN } },
      { path: 'receipts', view: 'ErpReceipts', meta: { title: 'erpReceipts', icon: 'InboxOutlined', roles: ADMIN } },
      { path: 'transfers', view: 'ErpTransfers', meta: { title: 'erpTransfers', icon: 'SwapOutlined', roles: ADMIN } },
      { path: 'stockAt', view: 'ErpStockAt', meta: { title: 'erpStockAt', icon: 'CalendarOutlined', roles: ADMIN } },
      { path: 'sales', view: 'ErpSales', meta: { title: 'erpSales', icon: 'ShoppingCartOutlined', roles: ADMIN } },
      { path: 'stockTakes', view: 'ErpStockTakes', meta: { title: 'erpStockTakes', icon: 'DatabaseOutlined', roles: ADMIN } },
      { path: 'reports', view: 'ErpReports', meta: { title: 'erpReports', icon: 'DashboardOutlined', roles: ADMIN } },
    ],
  },
];

/** The console's public routes (SPEC §2). */
export const PUBLIC_PATHS = ['/login', '/auth-redirect'] as const;

/** Views kept alive across tabs. */
export const KEEP_ALIVE_VIEWS = ['Monitor', 'Dashboard', 'Health', 'Devices', 'SingleAlarm'] as const;

/** Joins a parent and child path the way the router does. */
export function joinPath(parent: string, child: string): string {
  if (child.startsWith('/')) return child;
  if (!child) return parent;
  return `${parent === '/' ? '' : parent}/${child}`;
}

/** Full paths of the pages only the platform's administrators see (meta.platform). */
export function platformRoutePaths(routes: RouteDef[] = PROTECTED_ROUTES, base = ''): string[] {
  const out: string[] = [];
  for (const r of routes) {
    const full = base ? joinPath(base, r.path) : r.path;
    if (r.meta?.platform) out.push(full);
    if (r.children) out.push(...platformRoutePaths(r.children, full));
  }
  return [...new Set(out)];
}

/** Every full path declared in the tree (parents and children). */
export function allRoutePaths(routes: RouteDef[] = PROTECTED_ROUTES, base = ''): string[] {
  const out: string[] = [];
  for (const r of routes) {
    const full = base ? joinPath(base, r.path) : r.path;
    out.push(full);
    if (r.children) out.push(...allRoutePaths(r.children, full));
  }
  return [...new Set(out)];
}
