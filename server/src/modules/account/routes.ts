// Account administration calls: the subtree as a tree and tables, sub-accounts created, edited,
// reset, deleted and moved, and the agent authorization.
import { defineCall } from '../../calls.js';
import * as service from './service.js';

export const accountCalls = [
  defineCall('/user/childrenUsers', (ctx, body) => service.children(ctx, body)),
  defineCall('/user/allChildrenUsers', (ctx, body) => service.treeNode(ctx, body)),
  defineCall('/user/searchAccountByName', (ctx, body) => service.search(ctx, body)),
  defineCall('/user/registerNewUser', (ctx, body) => service.create(ctx, body)),
  defineCall('/user/EditUserInfoOther', (ctx, body) => service.editOther(ctx, body)),
  defineCall('/user/EditUserInfoForCurrentUser', (ctx, body) => service.editSelf(ctx, body)),
  defineCall('/user/InitUserPassword', (ctx, body) => service.initPassword(ctx, body)),
  defineCall('/user/removeUserById', (ctx, body) => service.remove(ctx, body)),
  defineCall('/user/moveAccount', (ctx, body) => service.move(ctx, body)),
  defineCall('/user/setAgentAuthorization', (ctx, body) => service.setAgentAuthorization(ctx, body)),
  defineCall('/user/setAccountDisabled', (ctx, body) => service.setDisabled(ctx, body)),
  defineCall('/user/agentAuthorize', (ctx, body) => service.agentAuthorize(ctx, body)),
];
