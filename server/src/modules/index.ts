// The areas of the platform. Each contributes the calls it implements and, where it needs them,
// plugins for routes outside the call registry (device ingest endpoints, the realtime socket).
import type { FastifyPluginAsync } from 'fastify';
import type { CallDef } from '../calls.js';
import type { AppDeps } from '../deps.js';
import { userCalls } from './user/routes.js';
import { deviceCalls, deviceFileRoutes } from './device/routes.js';
import { personCalls } from './person/routes.js';
import { groupCalls } from './group/routes.js';
import { roleCalls } from './role/routes.js';
import { fenceCalls } from './fence/routes.js';
import { accountFenceCalls } from './account-fence/routes.js';
import { catalogueCalls } from './catalogue/routes.js';
import { monitorCalls } from './monitor/routes.js';
import { historyCalls } from './history/routes.js';
import realtimePlugin from '../realtime/hub.js';
import { ingestRoutes } from '../gateway/http.js';
import { commandCalls } from './command/routes.js';
import { alarmCalls } from './alarm/routes.js';
import { healthCalls } from './health/routes.js';
import { pushCalls } from './push/routes.js';
import { integrationCalls } from './integration/routes.js';
import { exportRoutes } from './alarm/export.js';
import { accountCalls } from './account/routes.js';
import { brandIconRoutes, platformCalls } from './platform/routes.js';
import { oplogCalls } from './oplog/routes.js';
import { permissionCalls } from './permission/routes.js';
import { attendanceCalls } from './account-fence/attendance/routes.js';
import { sceneCalls } from './scene/routes.js';
import { indoorCalls } from './indoor/routes.js';
import { sceneFileRoutes } from './scene/files.js';
import { smsCalls } from './sms/routes.js';
import { messageCalls } from './message/routes.js';
import { weatherCalls } from './message/weather.js';
import { appCalls } from './app/routes.js';
import { appPackageRoutes } from './app/packages.js';
import { retentionCalls } from './retention/routes.js';
import { escalationCalls } from './escalation/routes.js';
import { inventoryCalls } from './inventory/routes.js';
import { erpCalls } from './erp/routes.js';
import { beaconCalls } from './beacon/routes.js';
import { locationCalls } from './location/routes.js';
import { masterSlaveCalls } from './master-slave/routes.js';
import { assetCalls } from './asset/routes.js';
import { reportCalls } from './report/routes.js';

export function allCalls(): CallDef[] {
  // One area a line, so that adding an area touches one line.
  return [
    ...userCalls,
    ...deviceCalls,
    ...personCalls,
    ...groupCalls,
    ...roleCalls,
    ...fenceCalls,
    ...accountFenceCalls,
    ...catalogueCalls,
    ...monitorCalls,
    ...historyCalls,
    ...commandCalls,
    ...alarmCalls,
    ...healthCalls,
    ...pushCalls,
    ...integrationCalls,
    ...accountCalls,
    ...permissionCalls,
    ...platformCalls,
    ...oplogCalls,
    ...attendanceCalls,
    ...sceneCalls,
    ...indoorCalls,
    ...smsCalls,
    ...messageCalls,
    ...appCalls,
    ...weatherCalls,
    ...retentionCalls,
    ...escalationCalls,
    ...inventoryCalls,
    ...erpCalls,
    ...beaconCalls,
    ...locationCalls,
    ...masterSlaveCalls,
    ...assetCalls,
    ...reportCalls,
  ];
}

export const areaPlugins: FastifyPluginAsync<{ deps: AppDeps }>[] = [
  deviceFileRoutes,
  realtimePlugin,
  ingestRoutes,
  exportRoutes,
  brandIconRoutes,
  sceneFileRoutes,
  appPackageRoutes,
];
