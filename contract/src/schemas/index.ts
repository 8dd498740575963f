// Request and response schemas per call path, as they are implemented. Each area adds its own
// file and spreads it here; the server validates with these and the console types its client
// with them. Paths are written as in the registry (calls.ts).
import type { z } from 'zod';
import { okEmpty } from '../envelope.js';
import { refusingUnstorableText } from './common.js';
import * as user from './user.js';
import * as device from './device.js';
import * as person from './person.js';
import * as group from './group.js';
import * as fence from './fence.js';
import * as catalogue from './catalogue.js';
import * as role from './role.js';
import { alarmSchemas } from './alarm.js';
import { healthSchemas } from './health.js';
import { pushSchemas } from './push.js';
import { monitorSchemas } from './monitor.js';
import { commandSchemas } from './command-calls.js';
import * as integration from './integration.js';
import * as account from './account.js';
import { permissionSchemas } from './permission.js';
import * as oplog from './oplog.js';
import * as platform from './platform.js';
import * as accountFence from './account-fence.js';
import * as scene from './scene.js';
import * as messaging from './messaging.js';
import * as retention from './retention.js';
import * as escalation from './escalation.js';
import * as inventory from './inventory.js';
import * as erp from './erp.js';
import * as erpSales from './erp-sales.js';
import * as report from './report.js';
import * as beacon from './beacon.js';
import * as location from './location.js';
import * as masterSlave from './master-slave.js';
import * as asset from './asset.js';

export interface CallSchema {
  request: z.ZodType;
  response: z.ZodType;
}

const userSchemas = {
  '/User/Login': { request: user.loginRequest, response: user.loginResponse },
  '/User/RefreshToken': { request: user.refreshTokenRequest, response: user.refreshTokenResponse },
  '/User/UserInfo': { request: user.userInfoRequest, response: user.userInfoResponse },
  '/User/Register': { request: user.registerRequest, response: okEmpty },
  '/User/FindPassword': { request: user.findPasswordRequest, response: okEmpty },
  '/User/ResetPassword': { request: user.resetPasswordRequest, response: okEmpty },
  '/User/UnlockBrowser': { request: user.unlockBrowserRequest, response: user.unlockBrowserResponse },
  '/User/ChangePassword': { request: user.changePasswordRequest, response: user.changePasswordResponse },
  '/User/EditUserInfo': { request: user.editUserInfoRequest, response: user.userFlagResponse },
  '/User/EditUserInfoByStatus': { request: user.mapLabelRequest, response: user.userFlagResponse },
  '/User/EditUserInfoByFenceStatus': { request: user.fenceStatusRequest, response: user.userFlagResponse },
  '/User/EditUserInfoBySosAlarm': { request: user.sosAnimationRequest, response: user.userFlagResponse },
  '/User/EditUserBatchSendCmd': { request: user.batchSendCmdRequest, response: user.userFlagResponse },
  '/User/SaveUserLoginLog': { request: user.saveLoginLogRequest, response: okEmpty },
  '/User/allUserLoginLog': { request: user.allLoginLogRequest, response: user.allLoginLogResponse },
} satisfies Record<string, CallSchema>;

const deviceSchemas = {
  '/Device/devicesByUserId': { request: device.deviceListRequest, response: device.deviceListResponse },
  '/Device/DeviceDetail': { request: device.deviceDetailRequest, response: device.deviceDetailResponse },
  '/Device/EditDevice': { request: device.editDeviceRequest, response: device.editDeviceResponse },
  '/Device/addDevices': { request: device.addDeviceRequest, response: device.addDeviceResponse },
  '/Device/batchDevices': { request: device.batchAddRequest, response: device.batchResultResponse },
  '/Device/bindDeviceListAdd': { request: device.batchBindRequest, response: device.batchResultResponse },
  '/Device/unbindById': { request: device.unbindRequest, response: device.batchResultResponse },
  '/Device/unBandByImeis': { request: device.batchUnbindRequest, response: device.batchResultResponse },
  '/Device/BatchDeleteByDeviceId': { request: device.deleteByIdsRequest, response: device.batchResultResponse },
  '/Device/BatchDelDevices': { request: device.deleteByImeisRequest, response: device.batchResultResponse },
  '/Device/batchMoveDeviceToAccount': { request: device.moveRequest, response: device.batchResultResponse },
  '/Device/batchDevicesCreateUser': { request: device.createUserWithDevicesRequest, response: device.createUserWithDevicesResponse },
  '/Device/batchDevicesCreateUserByExcel': { request: device.importExcelRequest, response: device.importExcelResponse },
  '/Device/allDictionary': { request: device.dictionaryRequest, response: device.dictionaryResponse },
  '/device/AllPersonInfo': { request: person.allPersonInfoRequest, response: person.allPersonInfoResponse },
  '/device/updatePersonInfo': { request: person.updatePersonInfoRequest, response: person.personResponse },
  '/Person/SavePersonProfile': { request: person.savePersonProfileRequest, response: person.personResponse },
  '/Person/batchUpdatePerson': { request: person.batchUpdatePersonRequest, response: device.batchResultResponse },
  '/Person/GetPersonProfile': { request: person.getPersonProfileRequest, response: person.personResponse },
  '/group/GroupList': { request: group.groupListRequest, response: group.groupListResponse },
  '/group/AddGroup': { request: group.addGroupRequest, response: group.addGroupResponse },
  '/group/groupsDelete': { request: group.groupsDeleteRequest, response: device.batchResultResponse },
  '/group/UpdateDeviceGroupIDByImeis': { request: group.updateDeviceGroupRequest, response: device.batchResultResponse },
  '/DeviceRole/List': { request: role.roleListRequest, response: role.roleListResponse },
  '/DeviceRole/Save': { request: role.saveRoleRequest, response: role.saveRoleResponse },
  '/DeviceRole/Delete': { request: role.deleteRolesRequest, response: device.batchResultResponse },
  '/DeviceRole/AssignDevices': { request: role.assignRoleRequest, response: device.batchResultResponse },
  '/Geofence/addDeviceGeofence': { request: fence.addFenceRequest, response: fence.fenceResponse },
  '/Geofence/updateDeviceGeofence': { request: fence.updateFenceRequest, response: fence.fenceResponse },
  '/Geofence/GeofenceList': { request: fence.fenceListRequest, response: fence.fenceListResponse },
  '/Geofence/DeleteGeofence': { request: fence.deleteFencesRequest, response: device.batchResultResponse },
  '/Geofence/fenceGeoList': { request: fence.fenceGeoListRequest, response: fence.fenceGeoListResponse },
} satisfies Record<string, CallSchema>;

const catalogueSchemas = {
  '/Command/allModelList': { request: catalogue.modelListRequest, response: catalogue.modelListResponse },
  '/Command/SaveDeviceModelNew': { request: catalogue.saveModelRequest, response: catalogue.saveModelResponse },
  '/Command/DelDeviceModelNew': { request: catalogue.deleteModelsRequest, response: okEmpty },
  '/Command/protocolForPaging': { request: catalogue.protocolListRequest, response: catalogue.protocolListResponse },
  '/Command/SaveProtocol': { request: catalogue.saveProtocolRequest, response: catalogue.saveProtocolResponse },
  '/Command/DelProtocol': { request: catalogue.deleteProtocolsRequest, response: okEmpty },
  '/Command/cmdCollectionForPaging': { request: catalogue.commandListRequest, response: catalogue.commandListResponse },
  '/Command/SaveCommandDictionary': { request: catalogue.saveCommandRequest, response: catalogue.saveCommandResponse },
  '/Command/DelCommandDictionary': { request: catalogue.deleteCommandsRequest, response: okEmpty },
  '/Command/commandDictionaryCollection': { request: catalogue.commandCollectionRequest, response: catalogue.commandCollectionResponse },
  '/Command/deviceProtocolALL': { request: catalogue.emptyRequest, response: catalogue.protocolAllResponse },
  '/Command/deviceProtocolByCommandValues': { request: catalogue.commandsOfRequest, response: catalogue.commandCollectionResponse },
  '/Command/FetchHealthConfig': { request: catalogue.modelOptionsRequest, response: catalogue.optionsResponse },
  '/Command/FetchAppShowDeviceParams': { request: catalogue.modelOptionsRequest, response: catalogue.optionsResponse },
  '/Command/FetchAPPHomeFx': { request: catalogue.modelOptionsRequest, response: catalogue.optionsResponse },
  '/Command/FetchCommandType': { request: catalogue.emptyRequest, response: catalogue.commandTypesResponse },
} satisfies Record<string, CallSchema>;

const ALL_SCHEMAS = {
  ...userSchemas,
  ...deviceSchemas,
  ...catalogueSchemas,
  ...alarmSchemas,
  ...healthSchemas,
  ...pushSchemas,
  ...monitorSchemas,
  ...commandSchemas,
  ...integration.integrationSchemas,
  ...account.accountSchemas,
  ...permissionSchemas,
  ...oplog.oplogSchemas,
  ...platform.platformSchemas,
  ...accountFence.accountFenceSchemas,
  ...scene.sceneSchemas,
  ...messaging.messagingSchemas,
  ...messaging.messageSchemas,
  ...messaging.appSchemas,
  ...messaging.ipSchemas,
  ...messaging.weatherSchemas,
  ...retention.retentionSchemas,
  ...escalation.escalationSchemas,
  ...inventory.inventorySchemas,
  ...erp.erpSchemas,
  ...erpSales.erpSalesSchemas,
  ...report.reportSchemas,
  ...beacon.beaconSchemas,
  ...location.locationSchemas,
  ...masterSlave.masterSlaveSchemas,
  ...asset.assetSchemas,
} satisfies Record<string, CallSchema>;

/** Fields whose handler takes NUL or a lone surrogate itself: such a login name is a failed login, counted. */
const UNSTORABLE_ALLOWED: Partial<Record<keyof typeof ALL_SCHEMAS, readonly string[]>> = { '/User/Login': ['LoginName'] };

/** Every call's schemas; no request lets a NUL or a lone surrogate through to a handler (PostgreSQL cannot hold them). */
export const SCHEMAS = Object.fromEntries(
  Object.entries(ALL_SCHEMAS).map(([path, s]) => [
    path,
    { request: refusingUnstorableText(s.request as z.ZodType, UNSTORABLE_ALLOWED[path as keyof typeof ALL_SCHEMAS]), response: s.response },
  ]),
) as typeof ALL_SCHEMAS;

export type CallPath = keyof typeof SCHEMAS;
export type CallRequest<P extends CallPath> = z.input<(typeof SCHEMAS)[P]['request']>;
export type CallResponse<P extends CallPath> = z.output<(typeof SCHEMAS)[P]['response']>;

export { user };
export { device, person, group, fence, catalogue, role, integration, account, oplog, platform, accountFence, scene, messaging };
export { inventory, erp, erpSales, report };
export { beacon, location, masterSlave, asset };
export * from './walk.js';
export * from './issues.js';
export * from './permission.js';
