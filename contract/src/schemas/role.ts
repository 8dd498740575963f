// Device roles (SPEC §3 Device role, §5 "name and colour required; at most 30 roles"): how a
// device is drawn on the map. The registry has no role calls, so these are extra calls:
// - /DeviceRole/List           an account's roles with device counts.
// - /DeviceRole/Save           create, or update when RoleId is given.
// - /DeviceRole/Delete         delete roles; their devices keep no role.
// - /DeviceRole/AssignDevices  give devices a role (RoleId null takes it away).
import { z } from 'zod';
import { ok, pageOf } from '../envelope.js';
import { LIMITS } from '../rules.js';
import { id, optionalId, requiredText, text } from './common.js';
import { ROLE_COLORS, ROLE_SHAPES, imeiField } from './device.js';

export const MAX_DEVICE_ROLES = LIMITS.deviceRoles;

export const roleSchema = z.object({
  RoleId: z.number(),
  Name: z.string(),
  Description: z.string(),
  Color: z.enum(ROLE_COLORS),
  Shape: z.enum(ROLE_SHAPES),
  /** Optional icon (URL or icon name) drawn inside the shape. */
  Icon: z.string(),
  AccountId: z.number(),
  DeviceCount: z.number(),
  CreatedAt: z.string(),
});
export const roleListRequest = z.object({ UserId: optionalId, Name: text(64).optional() });
export const roleListResponse = pageOf(roleSchema);
export const saveRoleRequest = z.object({
  RoleId: optionalId,
  UserId: optionalId,
  Name: requiredText('device.roleNameRequired', 64),
  Description: text(256).default(''),
  Color: z.enum(ROLE_COLORS, { error: 'device.roleColorRequired' }),
  Shape: z.enum(ROLE_SHAPES).default('circle'),
  Icon: text(256).default(''),
});
export const saveRoleResponse = ok({ Item: roleSchema });
export const deleteRolesRequest = z.object({ RoleIds: z.array(id).min(1, { error: 'validation.required' }).max(1000) });
export const assignRoleRequest = z.object({
  Imeis: z.array(imeiField).min(1, { error: 'validation.imeiRequired' }).max(5000),
  RoleId: z.preprocess((v) => (v === 0 || v === '0' || v === '' ? null : v), id.nullable()),
});
