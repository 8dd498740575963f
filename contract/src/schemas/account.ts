// Account administration (SPEC §3 Account, §6, §8): the caller's subtree as a lazy tree and tables
// of children, creating, editing, resetting, deleting and moving sub-accounts, and the agent
// authorization that takes self-registered end users (and their devices) under an agent.
import { z } from 'zod';
import { ok, pageRequest } from '../envelope.js';
import { ACCOUNT_KINDS, ADMIN_USER_TYPE, USER_TYPES } from '../roles.js';
import { EMAIL, IMEI, PHONE } from '../rules.js';
import { STORABLE, id, int, optionalId, password, requiredText, text } from './common.js';

/** Accounts a tree node or a search answers at most per request. */
export const TREE_PAGE_MAX = 1000;
/** IMEIs one agent authorization takes at most. */
export const AGENT_IMEIS_MAX = 5000;

/**
 * The user types an account of type `own` may give (SPEC §4): an administrator any; another
 * account only types whose pages (indoor, data show, health data) are all among its own, and
 * never the administrator type.
 */
const FEATURES: Record<number, readonly string[]> = {
  1: [],
  2: [],
  4: ['indoor'],
  5: ['datashow'],
  6: ['indoor', 'datashow'],
  7: ['health'],
  8: ['health', 'indoor'],
  9: ['health', 'datashow'],
  10: ['indoor', 'datashow', 'health'],
};
export function userTypeWithin(own: number, type: number): boolean {
  if (own === ADMIN_USER_TYPE) return true;
  if (type === ADMIN_USER_TYPE) return false;
  const mine = FEATURES[own] ?? [];
  return (FEATURES[type] ?? ['?']).every((f) => mine.includes(f));
}
export function assignableUserTypes(own: number): number[] {
  return USER_TYPES.filter((t) => userTypeWithin(own, t));
}

const optionalText = (max: number) => text(max).optional();
const phoneField = text(32)
  .regex(new RegExp(`(${PHONE.source})|^$`), { error: 'validation.phoneInvalid' })
  .optional();
const emailField = text(128)
  .regex(new RegExp(`(${EMAIL.source})|^$`), { error: 'validation.emailInvalid' })
  .optional();
const kindField = z.enum(ACCOUNT_KINDS, { error: 'account.kindInvalid' });
const userTypeField = int(1, 10);
/** A permission set, or none (null / 0: every action, as before sets existed). */
const permissionField = z.preprocess((v) => (v === 0 || v === '' ? null : v), id.nullable()).optional();
/** Login names: letters, digits and . _ - @, as typed into the login form. */
export const LOGIN_NAME = /^[A-Za-z0-9._@-]+$/;

// ---- reading the tree ----------------------------------------------------------------------------

export const accountNodeSchema = z.object({
  UserId: z.number(),
  ParentId: z.number().nullable(),
  LoginName: z.string(),
  Username: z.string(),
  companyName: z.string(),
  Contact: z.string(),
  AccountKind: z.string(),
  HasChildren: z.boolean(),
});
export type AccountNode = z.infer<typeof accountNodeSchema>;

export const accountRowSchema = z.object({
  UserId: z.number(),
  ParentId: z.number().nullable(),
  LoginName: z.string(),
  Username: z.string(),
  PageName: z.string().describe('platform title'),
  companyName: z.string(),
  Contact: z.string(),
  CellPhone: z.string(),
  Email: z.string(),
  AccountKind: z.string(),
  UserType: z.number(),
  RoleLabel: z.string(),
  PermissionId: z.number().nullable(),
  PermissionName: z.string(),
  DeviceCount: z.number().describe('devices of the account itself'),
  TotalDeviceCount: z.number().describe('devices of the account and every account below it'),
  ChildCount: z.number().describe('direct sub-accounts'),
  CreateDT: z.string(),
  AgentAuthorized: z.boolean(),
  MustChangePassword: z.boolean(),
  /** Disabled by an administrator above it: it cannot log in, and its sessions ended. */
  Disabled: z.boolean(),
});
export type AccountRowInfo = z.infer<typeof accountRowSchema>;

export const childrenUsersRequest = z.object({
  ...pageRequest,
  /** The account whose direct children are listed; the caller when absent. */
  UserId: optionalId,
  /** Narrows by login name, company or contact. */
  Keyword: optionalText(64),
});
export const childrenUsersResponse = ok({ Total: z.number().int(), Items: z.array(accountRowSchema), Parent: accountNodeSchema });

export const allChildrenUsersRequest = z.object({
  /** The node opened; the caller when absent. */
  UserId: optionalId,
  PageNo: int(1, 1_000_000).default(1),
  PageCount: int(1, TREE_PAGE_MAX).default(500),
});
export const allChildrenUsersResponse = ok({ Node: accountNodeSchema, Total: z.number().int(), Items: z.array(accountNodeSchema) });

export const searchAccountRequest = z.object({
  Keyword: requiredText('account.keywordRequired', 64),
  Limit: int(1, 100).default(20),
});
export const searchAccountResponse = ok({
  Items: z.array(accountNodeSchema.extend({ Ancestors: z.array(accountNodeSchema).describe('from the caller down to the parent') })),
});

// ---- changing accounts ---------------------------------------------------------------------------

const profileFields = {
  Username: optionalText(64),
  PageName: optionalText(64),
  companyName: optionalText(128),
  Contact: optionalText(64),
  CellPhone: phoneField,
  Email: emailField,
};

export const registerNewUserRequest = z.object({
  LoginName: requiredText('validation.accountRequired', 64).regex(LOGIN_NAME, { error: 'account.loginNameChars' }),
  /** Empty or absent: the server generates one and answers it once. */
  Password: z.preprocess((v) => (v === '' || v === null ? undefined : v), password.optional()),
  ParentId: optionalId,
  AccountKind: kindField.default('user'),
  UserType: userTypeField.default(1),
  PermissionId: permissionField,
  ...profileFields,
});
export const registerNewUserResponse = ok({
  UserId: z.number(),
  /** The generated password, answered this once; absent when the caller gave one. */
  Password: z.string().optional(),
});

export const editUserOtherRequest = z.object({
  UserId: id,
  AccountKind: kindField.optional(),
  UserType: userTypeField.optional(),
  PermissionId: permissionField,
  ...profileFields,
});
export const editUserSelfRequest = z.object({
  ...profileFields,
  /** One's own type, kind, set and parent are not changed here; sending another value is refused. */
  UserType: userTypeField.optional(),
  AccountKind: kindField.optional(),
  PermissionId: permissionField,
  ParentId: optionalId,
});
export const accountResponse = ok({ Item: accountRowSchema });

export const initPasswordRequest = z.object({ UserId: id });
export const initPasswordResponse = ok({ Password: z.string() });

export const removeUserRequest = z.object({ UserId: id });

export const moveAccountRequest = z.object({
  UserId: id,
  /** The new parent. */
  ParentId: id,
});
export const moveAccountResponse = ok({ Item: accountRowSchema, Accounts: z.number().describe('accounts moved, the account included'), Devices: z.number() });

export const setAccountDisabledRequest = z.object({ UserId: id, Disabled: z.boolean({ error: 'validation.required' }) });

export const setAgentAuthorizationRequest = z.object({ UserId: id, AgentAuthorized: z.boolean({ error: 'validation.required' }) });

/**
 * What became of each IMEI an agent claims. A refusal tells nothing about who holds the device:
 * `notSoldToYou` (no sale of it to the agent on record, whatever the platform knows of it), or
 * `notTakeable` (sold to the agent, but not held by an end user who registered himself and sits
 * directly below the platform).
 */
export const AGENT_OUTCOMES = ['moved', 'invalid', 'duplicate', 'inYourTree', 'notSoldToYou', 'notTakeable'] as const;
export type AgentOutcome = (typeof AGENT_OUTCOMES)[number];

export const agentAuthorizeRequest = z
  .object({
    /** IMEIs, one per line or separated by commas or spaces. */
    Imeis: z.union([z.array(text(32)).max(AGENT_IMEIS_MAX, { error: 'validation.tooMany' }), text(AGENT_IMEIS_MAX * 17)]).optional(),
    /** An .xlsx workbook, base64, within the ordinary body limit: every 15-digit cell of its first sheet is an IMEI. */
    Content: z
      .string()
      .trim()
      .max(1_000_000, { error: 'validation.tooLong' })
      .check(...STORABLE)
      .optional(),
    FileName: optionalText(255),
  })
  .refine((v) => (typeof v.Imeis === 'string' ? v.Imeis.trim() : v.Imeis?.length) || v.Content, { path: ['Imeis'], error: 'account.agentImeisRequired' });
export const agentResultSchema = z.object({
  Imei: z.string(),
  Outcome: z.enum(AGENT_OUTCOMES),
  /** The owning account, only where the agent may know it: moved to it, or already in its tree. */
  LoginName: z.string().optional(),
});
export const agentAuthorizeResponse = ok({
  Moved: z.number().describe('IMEIs whose owner came under the agent'),
  Accounts: z.number().describe('accounts that came under the agent'),
  Items: z.array(agentResultSchema),
});

/** Splits a typed or pasted IMEI list. */
export function splitImeis(v: string | string[] | undefined): string[] {
  if (!v) return [];
  const list = Array.isArray(v) ? v : v.split(/[\s,;，；]+/);
  return list.map((s) => s.trim()).filter(Boolean);
}
export const isImei = (s: string) => IMEI.test(s);

export const accountSchemas = {
  '/user/childrenUsers': { request: childrenUsersRequest, response: childrenUsersResponse },
  '/user/allChildrenUsers': { request: allChildrenUsersRequest, response: allChildrenUsersResponse },
  '/user/searchAccountByName': { request: searchAccountRequest, response: searchAccountResponse },
  '/user/registerNewUser': { request: registerNewUserRequest, response: registerNewUserResponse },
  '/user/EditUserInfoOther': { request: editUserOtherRequest, response: accountResponse },
  '/user/EditUserInfoForCurrentUser': { request: editUserSelfRequest, response: accountResponse },
  '/user/InitUserPassword': { request: initPasswordRequest, response: initPasswordResponse },
  '/user/removeUserById': { request: removeUserRequest, response: ok({ Message: z.string().optional() }) },
  '/user/moveAccount': { request: moveAccountRequest, response: moveAccountResponse },
  '/user/setAgentAuthorization': { request: setAgentAuthorizationRequest, response: accountResponse },
  '/user/setAccountDisabled': { request: setAccountDisabledRequest, response: accountResponse },
  '/user/agentAuthorize': { request: agentAuthorizeRequest, response: agentAuthorizeResponse },
} as const;
