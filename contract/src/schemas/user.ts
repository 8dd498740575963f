// Schemas of the User area calls implemented so far (login, session, profile, login log).
import { z } from 'zod';
import { ok, pageOf, pageRequest } from '../envelope.js';
import { email, requiredString, strongPassword } from '../rules.js';
import { STORABLE, password, flag12, id, int, languageTag, optionalDate, optionalId, rawText, requiredText, text } from './common.js';

export const loginRequest = z.object({
  /**
   * Not refused for a NUL: a name no account can have is a failed login, counted toward the
   * lock-out like any other (the server looks no account up for it).
   */
  LoginName: requiredString('validation.accountRequired').max(64, { error: 'validation.tooLong' }),
  Password: password,
  /** Console language, remembered on the account for mails. */
  Language: languageTag,
});
export const loginResponse = z.object({
  State: z.literal(0),
  AccessToken: z.string(),
  refreshToken: z.string(),
  ExpiresIn: z.number().describe('access token lifetime, seconds'),
  Item: z.object({ UserId: z.number(), LoginName: z.string() }),
  /** The password was reset: it must be changed before anything else. */
  MustChangePassword: z.boolean(),
});

export const refreshTokenRequest = z.object({
  UserId: id,
  /** The refresh token (the spec's console posts it as AccessToken; both names are accepted). */
  RefreshToken: rawText(512).optional(),
  AccessToken: rawText(512).optional(),
});
export const refreshTokenResponse = ok({
  info: z.object({ RefreshToken: z.string(), AccessToken: z.string(), ExpiresIn: z.number() }),
});

export const userInfoSchema = z.object({
  UserId: z.number(),
  UserType: z.number().describe('effective user type (SPEC §4)'),
  ServerUserType: z.number(),
  RoleLabel: z.string(),
  AccountKind: z.string(),
  Username: z.string(),
  Avatar: z.string(),
  PageName: z.string(),
  CellPhone: z.string(),
  Email: z.string(),
  Address: z.string(),
  LoginName: z.string(),
  companyName: z.string(),
  Contact: z.string(),
  Introduction: z.string(),
  CreateDT: z.string(),
  ParentId: z.number().nullable(),
  isShowMapLabel: z.number(),
  IsInnerDoor: z.number(),
  IsDataShow: z.number(),
  IsHealthData: z.number(),
  IsShowMonitorFence: z.number(),
  switchAnimation: z.number(),
  switchFunctionSendCmd: z.number(),
  isWeatherConfig: z.number(),
  isSendMsgByRole: z.number(),
  isSendMessage: z.number(),
  /** 1 when the account's menu has the functional configuration page (/setting/setingfunction), else 2. */
  settingFunction: z.number(),
  alarmSet: z.number(),
  timeZoneOffset: z.number(),
  Language: z.string(),
  routes: z.string().describe('comma-separated permitted routes; empty means by role'),
  PermissionId: z.number().nullable(),
  AgentAuthorized: z.boolean(),
  /** One of the platform's administrators (roles.ts isPlatformAdministrator): changes what every tenant shares. */
  PlatformAdmin: z.boolean(),
  /** The password was reset: it must be changed before anything else. */
  MustChangePassword: z.boolean(),
  /** The actions of the account's permission set (contract permissions.ts), or ['*'] for every action. */
  Permissions: z.array(z.string()),
});
export type UserInfo = z.infer<typeof userInfoSchema>;

export const userInfoRequest = z.object({ UserId: optionalId });
export const userInfoResponse = ok({ UserInfo: userInfoSchema });

export const registerRequest = z
  .object({
    LoginName: requiredText('validation.accountRequired', 64),
    Password: password,
    ConfirmPassword: requiredText('validation.passwordConfirmRequired', 64),
    Email: email.max(128, { error: 'validation.tooLong' }).check(...STORABLE),
    Language: languageTag,
  })
  .refine((v) => v.Password === v.ConfirmPassword, { path: ['ConfirmPassword'], error: 'validation.passwordMismatch' });

export const findPasswordRequest = z.object({
  LoginName: requiredText('validation.accountRequired', 64),
  Email: email.max(128, { error: 'validation.tooLong' }).check(...STORABLE),
  Language: languageTag,
});

export const resetPasswordRequest = z
  .object({
    Token: requiredText('validation.required', 512),
    NewPassword: password,
    ConfirmPassword: requiredText('validation.passwordConfirmRequired', 64),
  })
  .refine((v) => v.NewPassword === v.ConfirmPassword, { path: ['ConfirmPassword'], error: 'validation.passwordMismatch' });

/** The token of a mailed unlock link: the browser that sends it becomes one of the account's own. */
export const unlockBrowserRequest = z.object({
  Token: requiredText('validation.required', 512),
});

export const unlockBrowserResponse = ok({
  Message: z.string(),
  /** The account's login name, to fill the login form. */
  LoginName: z.string(),
});

export const changePasswordRequest = z
  .object({
    UserId: optionalId,
    Id: optionalId,
    OldPass: requiredText('validation.oldPasswordRequired', 64),
    NewPass: strongPassword,
    RePass: rawText(64).optional(),
    token: rawText(512).optional(),
  })
  .refine((v) => v.NewPass !== v.OldPass, { path: ['NewPass'], error: 'validation.passwordSameAsOld' })
  .refine((v) => v.RePass === undefined || v.RePass === v.NewPass, { path: ['RePass'], error: 'validation.passwordMismatch' });
export const changePasswordResponse = z.object({ State: z.literal(0), Message: z.string() });

const optionalText = (max: number) => text(max).optional();
export const editUserInfoRequest = z.object({
  UserId: optionalId,
  Username: optionalText(64),
  Avatar: optionalText(512),
  PageName: optionalText(64),
  CellPhone: text(32)
    .regex(/^(\+?[0-9][0-9\- ]{4,19})?$/, { error: 'validation.phoneInvalid' })
    .optional(),
  Email: text(128)
    .regex(/^([^\s@]+@[^\s@]+\.[^\s@]+)?$/, { error: 'validation.emailInvalid' })
    .optional(),
  Address: optionalText(256),
  companyName: optionalText(128),
  Contact: optionalText(64),
  Introduction: optionalText(512),
  Language: languageTag,
  timeZoneOffset: int(-720, 840).optional(),
});

export const mapLabelRequest = z.object({ UserId: optionalId, isShowMapLabel: int() });
export const fenceStatusRequest = z.object({ UserId: optionalId, IsShowMonitorFence: flag12 });
export const sosAnimationRequest = z.object({ UserId: optionalId, switchAnimation: flag12 });
export const batchSendCmdRequest = z.object({ UserId: optionalId, switchFunctionSendCmd: flag12 });
export const userFlagResponse = ok({ UserInfo: userInfoSchema });

/** Action codes of the login log. */
export const LOG_ACTIONS = { LOGIN: 1001, LOGIN_FAILED: 1002, REFRESH: 1003, LOGOUT: 1004, PASSWORD_CHANGE: 1005, PASSWORD_RESET: 1006, REGISTER: 1007 } as const;
/** The web console's fixed client marker and code (SPEC §3 login log payload). */
export const WEB_CLIENT = { ClientType: 'Web', ClientCode: 1021 } as const;

export const saveLoginLogRequest = z.object({
  UserId: optionalId,
  IPAddress: text(64).optional(),
  Address: text(256).optional(),
  ClientType: text(32).default(WEB_CLIENT.ClientType),
  ClientCode: int().default(WEB_CLIENT.ClientCode),
  ActionCode: int(),
});

export const loginLogSchema = z.object({
  Id: z.number(),
  UserId: z.number(),
  LoginName: z.string(),
  ActionCode: z.number(),
  IPAddress: z.string(),
  Address: z.string(),
  ClientType: z.string(),
  ClientCode: z.number(),
  CreateDT: z.string(),
});
export const allLoginLogRequest = z.object({
  ...pageRequest,
  UserId: optionalId,
  ActionCode: int().optional(),
  StartTime: optionalDate,
  EndTime: optionalDate,
  Keyword: text(64).optional(),
});
export const allLoginLogResponse = pageOf(loginLogSchema);
