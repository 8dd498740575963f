// Permission sets (SPEC §6): the actions a set may grant, what each call of the registry needs, and
// the checkable function tree of the permission page (menu routes with their actions below).
import { CALLS, EXTRA_CALLS } from './calls.js';
import { PROTECTED_ROUTES, joinPath, type RouteDef } from './routes.js';
import { ADMIN_USER_TYPE, roleLabelOf } from './roles.js';

export const ACTIONS = [
  'device.add',
  'device.edit',
  'device.delete',
  'device.bind',
  'device.move',
  'device.import',
  'device.export',
  'device.command',
  'device.role',
  'device.integration',
  'fence.edit',
  'alarm.confirm',
  'alarm.setting',
  'alarm.rule',
  'alarm.export',
  'health.export',
  'history.export',
  'account.add',
  'account.edit',
  'account.delete',
  'account.move',
  'account.password',
  'account.authorize',
  'permission.edit',
  'accountFence.edit',
  'attendance.export',
  'catalogue.edit',
  'push.edit',
  'platform.edit',
  'function.edit',
  'log.export',
  'scene.edit',
  'beacon.edit',
  'inventory.edit',
  'message.send',
  'app.edit',
] as const;
export type Action = (typeof ACTIONS)[number];

/**
 * What a call needs: an action of a permission set, 'read' (any logged-in caller; the data is
 * scoped to its subtree), 'self' (the caller's own profile, password, toggles, login log, set), or
 * 'public' (no token).
 */
export type CallNeed = Action | 'read' | 'self' | 'public';

const ACTION_SET: ReadonlySet<string> = new Set(ACTIONS);
export function isAction(s: string): s is Action {
  return ACTION_SET.has(s);
}

/** What each call of the registry needs. Total over CALLS and EXTRA_CALLS (a test checks it). */
export const CALL_ACTIONS: Record<string, CallNeed> = {
  // User: sign-in and the caller's own account.
  '/User/Login': 'public',
  '/User/RefreshToken': 'public',
  '/User/Register': 'public',
  '/User/FindPassword': 'public',
  '/User/ResetPassword': 'public',
  '/User/UnlockBrowser': 'public',
  '/User/UserInfo': 'self',
  '/User/ChangePassword': 'self',
  '/User/EditUserInfo': 'self',
  '/User/EditUserInfoByStatus': 'self',
  '/User/EditUserInfoByFenceStatus': 'self',
  '/User/EditUserInfoBySosAlarm': 'self',
  '/User/EditUserBatchSendCmd': 'self',
  '/User/SaveUserLoginLog': 'self',
  '/User/allUserLoginLog': 'self',
  '/user/EditUserInfoForCurrentUser': 'self',
  '/user/applyPermissionSet': 'self',
  // User: statistics and the SMS service.
  '/User/allAdminCount': 'read',
  '/User/adminPageAnalysis': 'read',
  '/User/AllSMSList': 'read',
  '/User/actionSMSData': 'message.send',
  '/User/synchronizationSMSData': 'message.send',
  // Accounts of the subtree.
  '/user/childrenUsers': 'read',
  '/user/allChildrenUsers': 'read',
  '/user/searchAccountByName': 'read',
  '/user/searchPushDataList': 'read',
  '/user/registerNewUser': 'account.add',
  '/user/InitUserPassword': 'account.password',
  '/user/removeUserById': 'account.delete',
  '/user/EditUserInfoOther': 'account.edit',
  // Permission sets.
  '/user/rolePermissionList': 'read',
  '/user/editRolePermissionList': 'permission.edit',
  '/user/InsertRoleInfo': 'permission.edit',
  '/user/delRoleInfo': 'permission.edit',
  // Devices.
  '/Device/devicesByUserId': 'read',
  '/Device/DeviceDetail': 'read',
  '/Device/EditDevice': 'device.edit',
  '/Device/monitorDevices': 'read',
  '/Device/allDictionary': 'read',
  '/Device/allHealthDataPage': 'read',
  '/device/AllPersonInfo': 'read',
  '/device/devicesByUserIdPageColor': 'read',
  '/device/devicesByUserIdPageColorBigData': 'read',
  '/device/reverse_Geocoding_gaode': 'read',
  '/device/deviceTracking': 'read',
  '/device/devicesHistory': 'read',
  '/device/fenceMonitorByChildUserId': 'read',
  '/Device/addDevices': 'device.add',
  '/Device/batchDevices': 'device.add',
  '/Device/bindDeviceListAdd': 'device.bind',
  '/Device/unbindById': 'device.bind',
  '/Device/unBandByImeis': 'device.bind',
  '/Device/batchMoveDeviceToAccount': 'device.move',
  '/Device/batchDevicesCreateUser': 'device.move',
  '/Device/batchDevicesCreateUserByExcel': 'device.import',
  '/Device/BatchDelDevices': 'device.delete',
  '/Device/BatchDeleteByDeviceId': 'device.delete',
  '/device/updatePersonInfo': 'device.edit',
  '/device/BatchExportHistoryDataByUserId': 'history.export',
  '/Person/GetPersonProfile': 'read',
  '/Person/SavePersonProfile': 'device.edit',
  '/Person/batchUpdatePerson': 'device.edit',
  '/group/GroupList': 'read',
  '/group/AddGroup': 'device.edit',
  '/group/groupsDelete': 'device.edit',
  '/group/UpdateDeviceGroupIDByImeis': 'device.edit',
  '/DeviceRole/List': 'read',
  '/DeviceRole/Save': 'device.role',
  '/DeviceRole/Delete': 'device.role',
  '/DeviceRole/AssignDevices': 'device.role',
  '/Integration/List': 'read',
  '/Integration/Save': 'device.integration',
  '/Integration/RotateToken': 'device.integration',
  '/Integration/Delete': 'device.integration',
  '/Map/Settings': 'read',
  // Beacons.
  '/Bluetooth/btDeviceListByUserId': 'read',
  '/Bluetooth/allBeaconLocationList': 'read',
  '/Bluetooth/btMacDevicesByUserId': 'read',
  '/Bluetooth/allMasterSlaveList': 'read',
  '/Bluetooth/searchMasterSlaveListById': 'read',
  '/Bluetooth/allBTDeviceInfo': 'read',
  '/Bluetooth/searchBTByIdentifier': 'read',
  '/Bluetooth/bindDeviceListByUserId': 'read',
  '/Bluetooth/removeBT': 'beacon.edit',
  '/Bluetooth/removeInnerBT': 'beacon.edit',
  '/Bluetooth/addBTDeviceInfoMac': 'beacon.edit',
  '/Bluetooth/updateBeaconInfoMac': 'beacon.edit',
  '/Bluetooth/removeBTMac': 'beacon.edit',
  '/Bluetooth/addBTMasterSlaveInfo': 'beacon.edit',
  '/Bluetooth/updateMasterSlaveInfo': 'beacon.edit',
  '/Bluetooth/updateMasterSlaveDel': 'beacon.edit',
  '/Bluetooth/updateBTBindStatus': 'beacon.edit',
  '/Bluetooth/batchDelBTBindStatus': 'beacon.edit',
  '/Bluetooth/updateBeaconLocationStatus': 'beacon.edit',
  '/Bluetooth/addBTDeviceInfo': 'beacon.edit',
  '/Bluetooth/updateBeaconInfo': 'beacon.edit',
  '/Bluetooth/AddBeaconLocationInfo': 'beacon.edit',
  '/Bluetooth/updateBeaconLocationInfo': 'beacon.edit',
  // Alarms.
  '/ExceptionMessage/allExceptionMsgPage': 'read',
  '/ExceptionMessage/allExceptionThreshold': 'read',
  '/ExceptionMessage/ExcdeptionListWhitoutCode': 'read',
  '/ExceptionMessage/ExceptionType': 'read',
  '/ExceptionMessage/AlarmRulesByUserId': 'read',
  '/ExceptionMessage/AlarmContactPersonByUserId': 'read',
  '/ExceptionMessage/UpdateExceptionMessageStatus': 'alarm.confirm',
  '/ExceptionMessage/updateExceptionByID': 'alarm.confirm',
  '/ExceptionMessage/actionThresholdValue': 'alarm.setting',
  '/ExceptionMessage/saveAlarmRules': 'alarm.setting',
  '/ExceptionMessage/DeleteAlarmSetById': 'alarm.setting',
  '/ExceptionMessage/actionForAlarmContactPeople': 'alarm.setting',
  '/ExceptionMessage/DeleteAlarmContactPerson': 'alarm.setting',
  '/ExceptionMessage/saveExceptionType': 'alarm.rule',
  '/ExceptionMessage/DeleteExceptionType': 'alarm.rule',
  // Commands and the catalogue of models, protocols and commands.
  '/Command/SendCommand': 'device.command',
  '/Command/batchSendFrequencyByUser': 'device.command',
  '/Command/sendIPInfoByUserId': 'device.command',
  '/Command/sendMessageByRoles': 'message.send',
  '/Command/sendWeatherAllDevice': 'message.send',
  '/Command/CommandList': 'read',
  '/Command/cmdCollectionForPaging': 'read',
  '/Command/protocolForPaging': 'read',
  '/Command/commandDictionaryCollection': 'read',
  '/Command/allModelList': 'read',
  '/Command/FetchHealthConfig': 'read',
  '/Command/FetchAppShowDeviceParams': 'read',
  '/Command/deviceProtocolALL': 'read',
  '/Command/deviceProtocolByCommandValues': 'read',
  '/Command/FetchAPPHomeFx': 'read',
  '/Command/FetchCommandType': 'read',
  '/Command/SaveCommandDictionary': 'catalogue.edit',
  '/Command/DelCommandDictionary': 'catalogue.edit',
  '/Command/SaveProtocol': 'catalogue.edit',
  '/Command/DelProtocol': 'catalogue.edit',
  '/Command/SaveDeviceModelNew': 'catalogue.edit',
  '/Command/DelDeviceModelNew': 'catalogue.edit',
  // Health.
  '/health/GetHealth2': 'read',
  '/health/HealthHasDataForDevice': 'read',
  '/health/HealthHasDataForUsers': 'read',
  // Fences: device fences, and the account fences shown with attendance (monitor fences).
  '/Geofence/GeofenceList': 'read',
  '/Geofence/fenceGeoList': 'read',
  '/Geofence/addDeviceGeofence': 'fence.edit',
  '/Geofence/updateDeviceGeofence': 'fence.edit',
  '/Geofence/CreateGeofence': 'accountFence.edit',
  '/Geofence/EditGeofence': 'accountFence.edit',
  '/Geofence/DeleteGeofence': 'fence.edit',
  '/Geofence/addMonitorFences': 'accountFence.edit',
  '/Geofence/updateMonitorGeofence': 'accountFence.edit',
  '/Geofence/DelGeofenceByUserCustom': 'accountFence.edit',
  '/Geofence/updateGeofenceMonitorCustom': 'accountFence.edit',
  '/Geofence/addGeofenceMonitor': 'accountFence.edit',
  '/Geofence/addGeofenceMonitorXingzheng': 'accountFence.edit',
  '/AccountFence/List': 'read',
  '/AccountFence/Attendance': 'read',
  '/AccountFence/AttendanceDay': 'read',
  '/AccountFence/AttendanceExport': 'attendance.export',
  // Inventory.
  '/Inventory/InventoryBatchList': 'read',
  '/Inventory/OwnerList': 'read',
  '/Inventory/VersionList': 'read',
  '/Inventory/ModelList': 'read',
  '/Inventory/StoreList': 'read',
  '/Inventory/DevicesList': 'read',
  '/Inventory/SalesList': 'read',
  '/Inventory/DelById': 'inventory.edit',
  '/Inventory/BatchInsert': 'inventory.edit',
  '/Inventory/UpdateInfo': 'inventory.edit',
  '/Inventory/OwnerInsert': 'inventory.edit',
  '/Inventory/OwnerUpdate': 'inventory.edit',
  '/Inventory/OwnerDelById': 'inventory.edit',
  '/Inventory/VersionInsert': 'inventory.edit',
  '/Inventory/VersionUpdate': 'inventory.edit',
  '/Inventory/VersionDelById': 'inventory.edit',
  '/Inventory/ModelInsert': 'inventory.edit',
  '/Inventory/ModelUpdate': 'inventory.edit',
  '/Inventory/ModelDelById': 'inventory.edit',
  '/Inventory/StoreInsert': 'inventory.edit',
  '/Inventory/StoreUpdate': 'inventory.edit',
  '/Inventory/StoreDelById': 'inventory.edit',
  '/Inventory/DevicesInsert': 'inventory.edit',
  '/Inventory/DevicesUpdate': 'inventory.edit',
  '/Inventory/DevicesDelById': 'inventory.edit',
  '/Inventory/SalesInsert': 'inventory.edit',
  '/Inventory/SalesUpdate': 'inventory.edit',
  '/Inventory/SalesDelById': 'inventory.edit',
  // ERP (its writes under the inventory right).
  '/Erp/MaterialList': 'read',
  '/Erp/MaterialSave': 'inventory.edit',
  '/Erp/MaterialDelete': 'inventory.edit',
  '/Erp/ProductList': 'read',
  '/Erp/ProductSave': 'inventory.edit',
  '/Erp/ProductDelete': 'inventory.edit',
  '/Erp/StockRecordList': 'read',
  '/Erp/StockRecordInsert': 'inventory.edit',
  '/Erp/PurchaseList': 'read',
  '/Erp/PurchaseSave': 'inventory.edit',
  '/Erp/PurchaseDelete': 'inventory.edit',
  '/Erp/PurchaseBatchSave': 'inventory.edit',
  '/Erp/PurchaseBatchDelete': 'inventory.edit',
  '/Erp/PurchaseAudit': 'inventory.edit',
  '/Erp/InvoiceSave': 'inventory.edit',
  '/Erp/InvoiceDelete': 'inventory.edit',
  '/Erp/SaleList': 'read',
  '/Erp/SaleSave': 'inventory.edit',
  '/Erp/SaleDiscard': 'inventory.edit',
  '/Erp/SaleShip': 'inventory.edit',
  '/Erp/SupplierList': 'read',
  '/Erp/SupplierSave': 'inventory.edit',
  '/Erp/SupplierDelete': 'inventory.edit',
  '/Erp/CustomerList': 'read',
  '/Erp/CustomerSave': 'inventory.edit',
  '/Erp/CustomerDelete': 'inventory.edit',
  '/Erp/ReceiptSave': 'inventory.edit',
  '/Erp/TransferSave': 'inventory.edit',
  '/Erp/StockAt': 'read',
  '/Erp/DeliverySave': 'inventory.edit',
  '/Erp/SaleDocuments': 'read',
  '/Erp/SaleInvoiceSave': 'inventory.edit',
  '/Erp/SalePaymentSave': 'inventory.edit',
  '/Erp/SalesReturnSave': 'inventory.edit',
  '/Erp/PurchaseReturnSave': 'inventory.edit',
  '/Erp/ReturnList': 'read',
  '/Erp/StockTakeList': 'read',
  '/Erp/StockTakeStart': 'inventory.edit',
  '/Erp/StockTakeCount': 'inventory.edit',
  '/Erp/StockTakeConfirm': 'inventory.edit',
  '/Erp/Report': 'read',
  '/Erp/ReportExport': 'read',
  '/Erp/ReceiptList': 'read',
  '/Erp/TransferList': 'read',
  '/Erp/ListExport': 'read',
  // Reports.
  '/Report/Trips': 'read',
  '/Report/Summary': 'read',
  '/Report/Alarms': 'read',
  '/Report/Export': 'history.export',
  '/Report/Settings': 'read',
  '/Report/SaveSettings': 'read',
  // A scheduled report mails a spreadsheet: the export's action; the list and stopping one's own are reads.
  '/Report/Subscriptions': 'read',
  '/Report/SubscriptionSave': 'history.export',
  '/Report/SubscriptionDelete': 'read',
  // App versions.
  '/APPInfo/CheckAppVersion': 'public',
  '/APPInfo/UpdateAppVersionByID': 'app.edit',
  // Indoor scenes, floors and their beacons.
  '/Scene/SceneInfoListByMonitor': 'read',
  '/Scene/BeaconsInfoByMonitor': 'read',
  '/Scene/sceneInfoByMonitor': 'read',
  '/Scene/sceneInfoByMonitorForServer': 'read',
  '/Scene/deviceHistoryForScene': 'read',
  '/Scene/SceneInfoList': 'read',
  '/Scene/FoorsInfoList': 'read',
  '/Scene/BeaconsInfoList': 'read',
  '/Scene/sceneInfoByFoorId': 'read',
  '/Scene/DelSceneInfoByMonitor': 'scene.edit',
  '/Scene/editSceneInfoByMonitor': 'scene.edit',
  '/Scene/addSceneInfoByMonitor': 'scene.edit',
  '/Scene/DelBeaconsInfoByMonitor': 'scene.edit',
  '/Scene/DeleteSceneInfo': 'scene.edit',
  '/Scene/addSceneInfo': 'scene.edit',
  '/Scene/editSceneInfo': 'scene.edit',
  '/Scene/addFoorsInfo': 'scene.edit',
  '/Scene/DeleteFoorsInfo': 'scene.edit',
  '/Scene/editFoorsInfo': 'scene.edit',
  '/Scene/addBeaconsInfoByMonitor': 'scene.edit',
  '/Scene/editBeaconsInfo': 'scene.edit',
  '/Scene/editBeaconsBatchInfo': 'scene.edit',
  '/Scene/DeleteBeaconsInfo': 'scene.edit',
  '/Scene/ProjectMap': 'read',
  '/Scene/Calibrate': 'scene.edit',
  '/Scene/ApplyCalibration': 'scene.edit',
  // Push of alarms to partner companies.
  '/Push/CompanyList': 'read',
  '/Push/SaveCompany': 'push.edit',
  '/Push/DeleteCompany': 'push.edit',
  // Account administration beyond the console's calls.
  '/user/moveAccount': 'account.move',
  '/user/setAgentAuthorization': 'account.authorize',
  '/user/setAccountDisabled': 'account.edit',
  '/user/agentAuthorize': 'account.authorize',
  // Operation log, platform info (white label), function switches.
  '/OperationLog/List': 'read',
  '/OperationLog/Export': 'log.export',
  '/Platform/Info': 'read',
  '/Platform/Save': 'platform.edit',
  '/Platform/UploadIcon': 'platform.edit',
  '/Platform/Brand': 'public',
  '/User/EditFunctionSwitches': 'self',
  // Messaging: SMS records, the balances' change log, messages to devices, app versions.
  '/SMS/Records': 'read',
  // The alarm's life: resolving, assigning and commenting are handling alarms.
  '/AlarmRecord/Resolve': 'alarm.confirm',
  '/AlarmRecord/Assign': 'alarm.confirm',
  '/AlarmRecord/Comment': 'alarm.confirm',
  '/AlarmRecord/Timeline': 'read',
  '/AlarmRecord/Assignees': 'read',
  '/SMS/Changes': 'read',
  '/Message/Preview': 'message.send',
  '/Message/Sends': 'read',
  '/Message/SendDevices': 'read',
  '/APPInfo/List': 'read',
  '/APPInfo/Save': 'app.edit',
  '/APPInfo/Delete': 'app.edit',
  // Escalation of unacknowledged alarms.
  '/Escalation/List': 'read',
  '/Escalation/Get': 'read',
  '/Escalation/Save': 'alarm.setting',
  '/Escalation/Delete': 'alarm.setting',
  // Retention of the time series.
  '/Retention/Info': 'read',
  '/Retention/Save': 'platform.edit',
  // Beacon registry beyond the Bluetooth calls.
  '/Beacon/Place': 'beacon.edit',
  '/Beacon/Import': 'beacon.edit',
  '/Beacon/Export': 'read',
  '/Beacon/ImportTemplate': 'read',
  '/BeaconLocation/Delete': 'beacon.edit',
  '/BeaconLocation/Detail': 'read',
  '/Asset/List': 'read',
  '/Asset/Save': 'beacon.edit',
  '/Asset/Delete': 'beacon.edit',
  '/Asset/StockTake': 'beacon.edit',
  '/Asset/StockTakes': 'read',
  '/Asset/StockTakeExport': 'read',
};

const NEED_BY_PATH = new Map(Object.entries(CALL_ACTIONS).map(([p, a]) => [p.toLowerCase(), a]));

/** What the call at `path` needs (case-insensitive), undefined for a path outside the registry. */
export function actionOfCall(path: string): CallNeed | undefined {
  return NEED_BY_PATH.get(path.toLowerCase());
}

/** The registry's paths (CALLS and EXTRA_CALLS), for checks of totality. */
export function registryPaths(): string[] {
  return [...CALLS, ...EXTRA_CALLS].map((c) => c.path);
}

/** Keys of the two default sets every account may use (SPEC §6). */
export const BUILT_IN_SET_KEYS = { admin: 'admin', custom: 'custom' } as const;

/** What an account may do: every action, or the listed ones. */
export type Grants = 'all' | ReadonlySet<string>;

export function grants(g: Grants, action: string): boolean {
  return g === 'all' || g.has(action);
}

/**
 * The actions an account holds (SPEC §6): every action for the administrator type, for an account
 * without a set and for the built-in administrator set; otherwise its set's actions.
 */
export function grantsOf(
  userType: number,
  set: { key: string; builtIn: boolean; actions: string } | null | undefined,
): Grants {
  if (userType === ADMIN_USER_TYPE || !set) return 'all';
  if (set.builtIn && set.key === BUILT_IN_SET_KEYS.admin) return 'all';
  return new Set(parseList(set.actions).filter(isAction));
}

/** Does a set (stored form) grant `action`? */
export function setGrants(set: { key: string; builtIn: boolean; actions: string }, action: string): boolean {
  if (set.builtIn && set.key === BUILT_IN_SET_KEYS.admin) return true;
  return parseList(set.actions).includes(action);
}

/** Splits a comma-separated stored list, dropping blanks and repeats. */
export function parseList(s: string | null | undefined): string[] {
  if (!s) return [];
  return [...new Set(s.split(',').map((x) => x.trim()).filter(Boolean))];
}

// ---------------------------------------------------------------------------------------------
// The function tree.

export interface FunctionNode {
  /** A route's full path, or an action name. */
  key: string;
  kind: 'group' | 'route' | 'action';
  /** i18n key: of the `route` namespace for routes and groups, of `messages` (permission.actions.<name>) for actions. */
  title: string;
  /** Hidden pages opened from this route (detail pages); granted with it. */
  companions?: string[];
  children?: FunctionNode[];
}

/** The actions shown below each menu route. Every action appears once (a test checks it). */
const ROUTE_ACTIONS: Record<string, Action[]> = {
  '/devices/list': [
    'device.add',
    'device.edit',
    'device.delete',
    'device.bind',
    'device.move',
    'device.import',
    'device.export',
    'device.command',
    'history.export',
  ],
  '/devices/roles': ['device.role'],
  '/devices/integrations': ['device.integration'],
  '/deviceFence': ['fence.edit'],
  '/alarm/rule': ['alarm.rule'],
  '/alarm/record': ['alarm.confirm', 'alarm.export'],
  '/alarm/alarmSetting': ['alarm.setting'],
  '/health/data': ['health.export'],
  '/account/accounts': [
    'account.add',
    'account.edit',
    'account.delete',
    'account.move',
    'account.password',
    'account.authorize',
  ],
  '/account/role': ['permission.edit'],
  '/account/showfence': ['accountFence.edit', 'attendance.export'],
  '/model/list': ['catalogue.edit'],
  '/inventory/list': ['inventory.edit'],
  '/position/beacons': ['beacon.edit'],
  '/scene/sencelist': ['scene.edit'],
  '/push/sendMessage': ['message.send'],
  '/push/pushlist': ['push.edit'],
  '/push/app': ['app.edit'],
  '/setting/platform': ['platform.edit'],
  '/setting/setingfunction': ['function.edit'],
  '/setting/userlogs': ['log.export'],
};

/** Hidden routes that are items of the tree of their own (the spec names them as permissions). */
const HIDDEN_ITEMS = new Set(['/account/role', '/setting/userlogs']);

/** Hidden pages granted with the menu route they are opened from. */
const COMPANIONS: Record<string, string[]> = {
  '/': ['/deviceAlarm', '/track/index'],
  '/devices/list': ['/devices/detail', '/devices/history'],
  '/health/data': ['/health/detail'],
  '/position/fenceList': ['/position/monitorDetail'],
  '/scene/sencelist': ['/scene/scenemap'],
  '/inventory/list': ['/inventory/batch'],
};

/** The message key of an action's name (shared by the server's refusals and the console). */
export function actionTitleKey(action: string): string {
  return `permission.actions.${action}`;
}

/** The account-permission route: a set that grants permission.edit must include it. */
export const PERMISSION_ROUTE = '/account/role';

function buildTree(routes: RouteDef[], base: string): FunctionNode[] {
  const out: FunctionNode[] = [];
  for (const r of routes) {
    const full = base ? joinPath(base, r.path) : r.path;
    if (r.children && r.children.length > 0) {
      const kids = buildTree(r.children, full);
      // An entry with a single page shows as that page, as in the menu ('/dashboard' -> its page).
      if ((!r.meta || !r.alwaysShow) && kids.length === 1) out.push(kids[0]!);
      else if (kids.length > 0) out.push({ key: full, kind: 'group', title: r.meta?.title ?? full, children: kids });
      continue;
    }
    if (!r.view || (r.hidden && !HIDDEN_ITEMS.has(full))) continue;
    const actions = ROUTE_ACTIONS[full] ?? [];
    const node: FunctionNode = { key: full, kind: 'route', title: r.meta?.title ?? full };
    if (COMPANIONS[full]) node.companions = COMPANIONS[full];
    if (actions.length > 0)
      node.children = actions.map((a) => ({ key: a, kind: 'action', title: actionTitleKey(a) }));
    out.push(node);
  }
  return out;
}

/** The checkable tree of the permission page: menu routes (grouped as in the menu) with their actions. */
export const FUNCTION_TREE: FunctionNode[] = buildTree(PROTECTED_ROUTES, '');

function flatten(nodes: FunctionNode[]): FunctionNode[] {
  return nodes.flatMap((n) => [n, ...(n.children ? flatten(n.children) : [])]);
}

/** The tree's route items (full paths), in tree order. */
export const TREE_ROUTES: string[] = flatten(FUNCTION_TREE)
  .filter((n) => n.kind === 'route')
  .map((n) => n.key);

/** The tree routes that are menu pages (the hidden items open from nowhere in the menu). */
export const MENU_PAGE_ROUTES: string[] = TREE_ROUTES.filter((r) => !HIDDEN_ITEMS.has(r));

/** Whether a set's ticked routes hold a menu page to land on after login. */
export function opensAMenuPage(routes: readonly string[]): boolean {
  return routes.some((r) => MENU_PAGE_ROUTES.includes(r));
}

/** The menu route each action is shown under. */
export const ACTION_ROUTE: Record<string, string> = Object.fromEntries(
  flatten(FUNCTION_TREE)
    .filter((n) => n.kind === 'route')
    .flatMap((n) => (n.children ?? []).map((c) => [c.key, n.key] as const)),
);

/**
 * The stored routes string of a set from its ticked tree routes: each route with its hidden
 * companions, in tree order, unknown paths dropped.
 */
export function routesWithCompanions(ticked: readonly string[]): string[] {
  const set = new Set(ticked);
  const out: string[] = [];
  for (const n of flatten(FUNCTION_TREE)) {
    if (n.kind !== 'route' || !set.has(n.key)) continue;
    out.push(n.key, ...(n.companions ?? []));
  }
  return [...new Set(out)];
}

/** The tree routes among a stored routes list (companions dropped), for ticking the tree. */
export function treeRoutesOf(stored: readonly string[]): string[] {
  const set = new Set(stored);
  return TREE_ROUTES.filter((r) => set.has(r));
}

/** The routes the actions are shown under (an action is only meaningful with its route). */
export function routesOfActions(actions: readonly string[]): string[] {
  return [...new Set(actions.map((a) => ACTION_ROUTE[a]).filter((r): r is string => !!r))];
}

/**
 * Every route (groups and pages, full paths) the route table opens to a user type's role (SPEC §6
 * role rules): a route without roles is open to all; a group whose children are all closed is closed.
 */
export function roleRoutes(userType: number): string[] {
  const label = roleLabelOf(userType);
  const out: string[] = [];
  const walk = (routes: RouteDef[], base: string): boolean => {
    let any = false;
    for (const r of routes) {
      if (r.meta?.roles && !r.meta.roles.includes(label)) continue;
      const full = base ? joinPath(base, r.path) : r.path;
      if (r.children && r.children.length > 0) {
        const at = out.length;
        out.push(full);
        if (!walk(r.children, full)) out.splice(at, 1);
        else any = true;
      } else {
        out.push(full);
        any = true;
      }
    }
    return any;
  };
  walk(PROTECTED_ROUTES, '');
  return [...new Set(out)];
}

/**
 * The routes string an account's UserInfo carries (SPEC §6): empty (by role) without a set or with
 * a set that lists none; otherwise the set's routes the account's role may open, and never empty
 * then (an empty list would mean "by role", wider than the set): the monitor home at least.
 */
export function effectiveRoutes(userType: number, setRoutes: string | null | undefined): string {
  const listed = parseList(setRoutes);
  if (listed.length === 0) return '';
  const open = new Set(roleRoutes(userType));
  const kept = listed.filter((r) => open.has(r));
  return (kept.length > 0 ? kept : ['/']).join(',');
}

/** UserInfo's Permissions: the granted actions, or ['*'] for every action. */
export function permissionList(g: Grants): string[] {
  return g === 'all' ? ['*'] : ACTIONS.filter((a) => g.has(a));
}

/**
 * Every route (groups and pages, full paths) an account sees in its menu, as the console's guard
 * builds it: from its route list (a group is seen when one of its pages is) or, without one, from
 * its user type's role; the platform's own pages only for the platform's administrators. The menus
 * an account may hide from the accounts below it are these.
 */
export function visibleRoutePaths(userType: number, routes: string | null | undefined, platformAdmin: boolean): Set<string> {
  const listed = new Set(parseList(routes).map((r) => (r.length > 1 ? r.replace(/\/$/, '') : r).toLowerCase()));
  const open = listed.size ? null : new Set(roleRoutes(userType));
  const out = new Set<string>();
  const walk = (items: RouteDef[], base: string): boolean => {
    let any = false;
    for (const r of items) {
      if (r.meta?.platform && !platformAdmin) continue;
      const full = base ? joinPath(base, r.path) : r.path;
      const kids = r.children && r.children.length > 0 ? walk(r.children, full) : false;
      const seen = open ? open.has(full) && (!r.children?.length || kids) : kids || listed.has(full.toLowerCase());
      if (seen) {
        out.add(full);
        any = true;
      }
    }
    return any;
  };
  walk(PROTECTED_ROUTES, '');
  return out;
}
