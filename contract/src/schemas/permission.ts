// Permission sets (SPEC §6): a key, a name, a description, the ticked menu routes and the actions
// granted below them. The spec names four calls (list, edit, insert, delete); applying a set to
// oneself (SPEC §4 "changing the role") is an extra call answering a new token.
import { z } from 'zod';
import { ok, okEmpty, pageOf, pageRequest } from '../envelope.js';
import { LIMITS } from '../rules.js';
import { id, requiredText, text } from './common.js';
import { opensAMenuPage } from '../permissions.js';

export const MAX_PERMISSION_SETS = LIMITS.permissionSets;

export const permissionSetSchema = z.object({
  Id: z.number(),
  Key: z.string(),
  Name: z.string(),
  Description: z.string(),
  /** The ticked menu routes (full paths of the function tree). */
  Routes: z.array(z.string()),
  /** The granted actions; ['*'] for the built-in administrator set. */
  Actions: z.array(z.string()),
  BuiltIn: z.boolean(),
  OwnerId: z.number().nullable(),
  OwnerName: z.string(),
  AccountCount: z.number(),
  /** The caller may edit and delete it (not built in, not its own set unless administrator). */
  Editable: z.boolean(),
  UpdatedAt: z.string(),
});
export type PermissionSet = z.infer<typeof permissionSetSchema>;

export const permissionListRequest = z.object({
  ...pageRequest,
  /** Matches the name, the key or the description. */
  Search: text(64).optional(),
});
export const permissionListResponse = pageOf(permissionSetSchema);

const KEY = /^[A-Za-z0-9_-]+$/;
const setFields = {
  Key: requiredText('permission.keyRequired', 32).regex(KEY, { error: 'permission.keyInvalid' }),
  Name: requiredText('permission.nameRequired', 32),
  Description: text(200).default(''),
  // A set opens at least one menu page: its accounts land there after login.
  Routes: z
    .array(text(100))
    .max(200, { error: 'validation.tooLong' })
    .default([])
    .refine(opensAMenuPage, { error: 'permission.noPage' }),
  Actions: z.array(text(64)).max(200, { error: 'validation.tooLong' }).default([]),
};
export const insertPermissionRequest = z.object(setFields);
export const editPermissionRequest = z.object({ Id: id, ...setFields });
export const savePermissionResponse = ok({ Item: permissionSetSchema });
export const deletePermissionRequest = z.object({ Id: id });
export const applyPermissionRequest = z.object({ Id: id });
export const applyPermissionResponse = ok({
  AccessToken: z.string(),
  refreshToken: z.string(),
  ExpiresIn: z.number(),
});

export const permissionSchemas = {
  '/user/rolePermissionList': { request: permissionListRequest, response: permissionListResponse },
  '/user/InsertRoleInfo': { request: insertPermissionRequest, response: savePermissionResponse },
  '/user/editRolePermissionList': { request: editPermissionRequest, response: savePermissionResponse },
  '/user/delRoleInfo': { request: deletePermissionRequest, response: okEmpty },
  '/user/applyPermissionSet': { request: applyPermissionRequest, response: applyPermissionResponse },
};
