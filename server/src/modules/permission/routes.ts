// Permission sets (SPEC §6): list, create, edit, delete, and applying one to oneself (SPEC §4).
import { defineCall } from '../../calls.js';
import * as service from './service.js';

export const permissionCalls = [
  defineCall('/user/rolePermissionList', (ctx, q) => service.list(ctx, q)),
  defineCall('/user/InsertRoleInfo', (ctx, b) => service.insert(ctx, b)),
  defineCall('/user/editRolePermissionList', (ctx, b) => service.edit(ctx, b)),
  defineCall('/user/delRoleInfo', (ctx, b) => service.remove(ctx, b)),
  defineCall('/user/applyPermissionSet', (ctx, b) => service.applyToSelf(ctx, b)),
];
