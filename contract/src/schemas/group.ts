// Device groups (named only by calls in the spec): an account's named sets of devices.
// - /group/GroupList                groups of an account (the caller's when absent) with device counts.
// - /group/AddGroup                 create a group, or rename it when GroupId is given.
// - /group/groupsDelete             delete groups; their devices are left without a group.
// - /group/UpdateDeviceGroupIDByImeis  put devices into a group (GroupId null/0 takes them out).
import { z } from 'zod';
import { ok, pageOf, pageRequest } from '../envelope.js';
import { id, int, optionalId, requiredText, text } from './common.js';
import { imeiField } from './device.js';

export const groupSchema = z.object({
  GroupId: z.number(),
  Name: z.string(),
  AccountId: z.number(),
  AccountName: z.string(),
  DeviceCount: z.number(),
  CreatedAt: z.string(),
});
export const groupListRequest = z.object({
  ...pageRequest,
  PageCount: int(1, 1000).default(1000),
  UserId: optionalId,
  Name: text(64).optional(),
});
export const groupListResponse = pageOf(groupSchema);
export const addGroupRequest = z.object({
  GroupId: optionalId,
  Name: requiredText('device.groupNameRequired', 64),
  UserId: optionalId,
});
export const addGroupResponse = ok({ Item: groupSchema });
export const groupsDeleteRequest = z.object({ GroupIds: z.array(id).min(1, { error: 'validation.required' }).max(1000) });
export const updateDeviceGroupRequest = z.object({
  Imeis: z.array(imeiField).min(1, { error: 'validation.imeiRequired' }).max(5000),
  GroupId: z.preprocess((v) => (v === 0 || v === '0' || v === '' ? null : v), id.nullable()),
});
