// Schemas of the User area calls implemented so far (login, session, profile, login log).
import { z } from 'zod';
import { ok, pageOf, pageRequest } from '../envelope.js';
import { email, loginPassword, requiredString, strongPassword } from '../rules.js';
import { flag12, id, optionalId } from './common.js';

export const loginRequest = z.object({
  LoginName: requiredString('validation.accountRequired').max(64, { error: 'validation.tooLong' }),
  Password: loginPassword,
  /** Console language, remembered on the account for mails. */
  Language: z.string().optional(),
});
export const loginResponse = z.object({
  State: z.literal(0),
  AccessToken: z.string(),
  refreshToken: z.string(),
  ExpiresIn: z.number().describe('access token lifetime, seconds'),
  Item: z.object({ UserId: z.number(), LoginName: z.string() }),
});

export const refreshTokenRequest = z.object({
  UserId: id,
  /** The refresh token (the spec's console posts it as AccessToken; both names are accepted). */
  RefreshToken: z.string().optional(),
  AccessToken: z.string().optional(),
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
  settingFunction: z.number(),
  alarmSet: z.number(),
  timeZoneOffset: z.number(),
  Language: z.string(),
  routes: z.string().describe('comma-separated permitted routes; empty means by role'),
  PermissionId: z.number().nullable(),
});
export type UserInfo = z.infer<typeof userInfoSchema>;

export const userInfoRequest = z.object({ UserId: optionalId });
export const userInfoResponse = ok({ UserInfo: userInfoSchema });

export const registerRequest = z
  .object({
    LoginName: requiredString('validation.accountRequired').max(64, { error: 'validation.tooLong' }),
    Password: loginPassword,
    ConfirmPassword: requiredString('validation.passwordConfirmRequired'),
    Email: email,
    Language: z.string().optional(),
  })
  .refine((v) => v.Password === v.ConfirmPassword, { path: ['ConfirmPassword'], error: 'validation.passwordMismatch' });

export const findPasswordRequest = z.object({
  LoginName: requiredString('validation.accountRequired'),
  Email: email,
  Language: z.string().optional(),
});

export const resetPasswordRequest = z
  .object({
    Token: requiredString(),
    NewPassword: loginPassword,
    ConfirmPassword: requiredString('validation.passwordConfirmRequired'),
  })
  .refine((v) => v.NewPassword === v.ConfirmPassword, { path: ['ConfirmPassword'], error: 'validation.passwordMismatch' });

export const changePasswordRequest = z
  .object({
    UserId: optionalId,
    Id: optionalId,
    OldPass: requiredString('validation.oldPasswordRequired'),
    NewPass: strongPassword,
    RePass: z.string().optional(),
    token: z.string().optional(),
  })
  .refine((v) => v.NewPass !== v.OldPass, { path: ['NewPass'], error: 'validation.passwordSameAsOld' })
  .refine((v) => v.RePass === undefined || v.RePass === v.NewPass, { path: ['RePass'], error: 'validation.passwordMismatch' });
export const changePasswordResponse = z.object({ State: z.literal(0), Message: z.string() });

const optionalText = (max: number) => z.string().trim().max(max, { error: 'validation.tooLong' }).optional();
export const editUserInfoRequest = z.object({
  UserId: optionalId,
  Username: optionalText(64),
  Avatar: optionalText(512),
  PageName: optionalText(64),
  CellPhone: z
    .string()
    .trim()
    .regex(/^(\+?[0-9][0-9\- ]{4,19})?$/, { error: 'validation.phoneInvalid' })
    .optional(),
  Email: z
    .string()
    .trim()
    .regex(/^([^\s@]+@[^\s@]+\.[^\s@]+)?$/, { error: 'validation.emailInvalid' })
    .optional(),
  Address: optionalText(256),
  companyName: optionalText(128),
  Contact: optionalText(64),
  Introduction: optionalText(512),
  Language: z.string().optional(),
  timeZoneOffset: z.coerce.number().int().min(-720).max(840).optional(),
});

export const mapLabelRequest = z.object({ UserId: optionalId, isShowMapLabel: z.coerce.number().int() });
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
  IPAddress: z.string().max(64).optional(),
  Address: z.string().max(256).optional(),
  ClientType: z.string().max(32).default(WEB_CLIENT.ClientType),
  ClientCode: z.coerce.number().int().default(WEB_CLIENT.ClientCode),
  ActionCode: z.coerce.number().int(),
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
  ActionCode: z.coerce.number().int().optional(),
  StartTime: z.string().optional(),
  EndTime: z.string().optional(),
  Keyword: z.string().optional(),
});
export const allLoginLogResponse = pageOf(loginLogSchema);
