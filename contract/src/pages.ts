// Pages and the reads only they make (SPEC §6): health data and charts, the dashboard, the inner
// map and the position group are open to some user types (or route lists) only; the reports page to
// the route lists that name it. The console hides
// them; the server refuses their reads to a caller the page is not open to, with the same 403 as a
// missing action. One definition: the console's route guard and the server's call gate both read
// `openPages`, and the server asks `pagesOfCall` which pages a call belongs to.
import { roleRoutes } from './permissions.js';
import { parseRoutes } from './roles.js';
import { PROTECTED_ROUTES, joinPath, platformRoutePaths, type RouteDef } from './routes.js';

/**
 * The reads that belong to pages a user type may not see. A call listed under several pages is
 * allowed when any of them is open; a call not listed here is not limited by pages (it is used by
 * pages every role has, or guarded by an action or the administrator marking).
 */
export const PAGE_CALLS: Record<string, readonly string[]> = {
  // The dashboard's alarm statistics read the reports' alarm figures; their export stays the reports page's.
  '/dashboard': ['/User/allAdminCount', '/User/adminPageAnalysis', '/Report/Alarms'],
  '/health/data': ['/Device/allHealthDataPage', '/health/HealthHasDataForUsers', '/health/HealthHasDataForDevice'],
  '/health/detail': ['/health/GetHealth2', '/health/HealthHasDataForUsers', '/health/HealthHasDataForDevice'],
  '/position/innerMap': ['/Scene/sceneInfoByMonitor', '/Scene/sceneInfoByMonitorForServer', '/Scene/deviceHistoryForScene'],
  '/position/beacons': ['/Bluetooth/btDeviceListByUserId', '/Bluetooth/btMacDevicesByUserId', '/Bluetooth/searchBTByIdentifier', '/Beacon/Export', '/Beacon/ImportTemplate'],
  '/position/assetInventory': ['/Asset/List', '/Asset/StockTakes', '/Asset/StockTakeExport'],
  // The same reads on the administrators' pages.
  '/indoorBeacons/index': ['/Bluetooth/btDeviceListByUserId', '/Bluetooth/btMacDevicesByUserId', '/Bluetooth/searchBTByIdentifier', '/Beacon/Export', '/Beacon/ImportTemplate'],
  '/scene/sencelist': ['/Scene/sceneInfoByMonitor'],
  '/scene/floors': ['/Scene/sceneInfoByMonitor'],
  '/scene/aoa': ['/Scene/sceneInfoByMonitor'],
  '/scene/beacons': ['/Scene/sceneInfoByMonitor'],
  '/scene/scenemap': ['/Scene/sceneInfoByMonitor'],
  '/scene/calibration': ['/Scene/sceneInfoByMonitor'],
  '/scene/projectMap': ['/Scene/ProjectMap'],
  // The reports page: open to every role, so only a route list without it closes its calls.
  '/report/index': ['/Report/Trips', '/Report/Summary', '/Report/Alarms', '/Report/Export', '/Report/Settings', '/Report/SaveSettings', '/Report/Subscriptions', '/Report/SubscriptionSave', '/Report/SubscriptionDelete'],
};

const PAGES_BY_CALL = new Map<string, string[]>();
for (const [page, calls] of Object.entries(PAGE_CALLS))
  for (const c of calls) PAGES_BY_CALL.set(c.toLowerCase(), [...(PAGES_BY_CALL.get(c.toLowerCase()) ?? []), page]);

/** The pages a call belongs to (case-insensitive path), undefined when pages do not limit it. */
export function pagesOfCall(path: string): readonly string[] | undefined {
  return PAGES_BY_CALL.get(path.toLowerCase());
}

/** Who asks: the effective user type, the routes list (empty: by role) and the platform-administrator flag. */
export interface PageSubject {
  userType: number;
  routes: string | readonly string[];
  platformAdmin: boolean;
}

function pagesOf(routes: RouteDef[], base = ''): string[] {
  return routes.flatMap((r) => {
    const full = base ? joinPath(base, r.path) : r.path;
    return [...(r.view ? [full] : []), ...(r.children ? pagesOf(r.children, full) : [])];
  });
}
const ALL_PAGES = [...new Set(pagesOf(PROTECTED_ROUTES))];
const PLATFORM_PAGES = new Set(platformRoutePaths());
const norm = (p: string) => (p.length > 1 && p.endsWith('/') ? p.slice(0, -1) : p).toLowerCase();

/**
 * The pages (full paths) open to a user (SPEC §6): those its route list names when the list is not
 * empty, else those its role may see; the platform's pages only for its administrators.
 */
export function openPages(s: PageSubject): Set<string> {
  const list = typeof s.routes === 'string' ? parseRoutes(s.routes) : [...s.routes];
  const allowed = list.length > 0 ? new Set(list.map(norm)) : new Set(roleRoutes(s.userType).map(norm));
  return new Set(ALL_PAGES.filter((p) => allowed.has(norm(p)) && (s.platformAdmin || !PLATFORM_PAGES.has(p))));
}

/** May this user make the call, as far as pages go? */
export function pageAllowsCall(s: PageSubject, path: string): boolean {
  const pages = pagesOfCall(path);
  if (!pages) return true;
  const open = openPages(s);
  return pages.some((p) => open.has(p));
}
