// Messaging (SPEC §2 "SMS service (send message by role)", §3 SMS service): the SMS service of the
// accounts of a subtree and the alarm notices it pays for. Extra calls:
// - /SMS/Records   alarm notices (SMS and e-mail) of the subtree, with their delivery state.
// - /SMS/Changes   the change log of the balances: recharges, deductions, refunds, refusals.
import { z } from 'zod';
import { ok, pageOf, pageRequest } from '../envelope.js';
import { flag12, int, id, optionalDate, optionalId, text } from './common.js';
import { ipOrDomain, port } from '../rules.js';

export const SMS_MAX_RECHARGE = 1_000_000;

export const smsAccountSchema = z.object({
  UserId: z.number(),
  LoginName: z.string(),
  UserName: z.string(),
  /** 1 enabled, 2 disabled. */
  Status: z.number(),
  Recharged: z.number(),
  Used: z.number(),
  Remaining: z.number(),
  UpdatedAt: z.string().nullable(),
});
export const smsListRequest = z.object({ UserId: optionalId, Name: text(64).optional(), ...pageRequest });
export const smsListResponse = pageOf(smsAccountSchema);

/** Count > 0 recharges, < 0 corrects downwards (never below what is left); Status turns the service on or off. */
export const smsActionRequest = z
  .object({
    UserId: id,
    Count: int(-SMS_MAX_RECHARGE, SMS_MAX_RECHARGE).optional(),
    Status: flag12.optional(),
    Remark: text(200).default(''),
  })
  .superRefine((v, ctx) => {
    if (!v.Count && v.Status === undefined) ctx.addIssue({ code: 'custom', path: ['Count'], message: 'sms.countRequired' });
  });
export const smsActionResponse = ok({ Item: smsAccountSchema });

export const smsSyncRequest = z.object({ UserId: optionalId });
export const smsSyncResponse = ok({
  /** Accounts reconciled. */
  Accounts: z.number(),
  /** Texts reported undelivered whose charge was given back. */
  Refunded: z.number(),
  /** Accounts whose used and remaining counts were corrected. */
  Corrected: z.number(),
});

export const NOTICE_CHANNELS = ['sms', 'email'] as const;
/** `logged`: the SMS provider only writes texts to the server log (SMS_PROVIDER=log); nothing was sent or charged. */
export const NOTICE_STATUSES = ['pending', 'sent', 'delivered', 'undelivered', 'failed', 'refused', 'logged'] as const;

export const noticeSchema = z.object({
  Id: z.number(),
  Channel: z.enum(NOTICE_CHANNELS),
  UserId: z.number(),
  LoginName: z.string(),
  AlarmId: z.number().nullable(),
  Imei: z.string(),
  Recipient: z.string(),
  Subject: z.string(),
  Text: z.string(),
  Segments: z.number(),
  Status: z.enum(NOTICE_STATUSES),
  Attempts: z.number(),
  /** A message key (sms.*) or the provider's words. */
  Error: z.string(),
  CreatedAt: z.string(),
  DoneAt: z.string().nullable(),
});
export const noticeListRequest = z.object({
  UserId: optionalId,
  Channel: z.enum(NOTICE_CHANNELS).optional(),
  Status: z.enum(NOTICE_STATUSES).optional(),
  Recipient: text(64).optional(),
  StartTime: optionalDate,
  EndTime: optionalDate,
  ...pageRequest,
});
export const noticeListResponse = pageOf(noticeSchema);

export const SMS_CHANGE_KINDS = ['recharge', 'correct', 'deduct', 'refund', 'refuse', 'status', 'sync'] as const;
export const smsChangeSchema = z.object({
  Id: z.number(),
  UserId: z.number(),
  LoginName: z.string(),
  Kind: z.enum(SMS_CHANGE_KINDS),
  Amount: z.number(),
  Remaining: z.number(),
  ByName: z.string(),
  Remark: z.string(),
  NoticeId: z.number().nullable(),
  CreatedAt: z.string(),
});
export const smsChangeListRequest = z.object({ UserId: optionalId, ...pageRequest });
export const smsChangeListResponse = pageOf(smsChangeSchema);

export const messagingSchemas = {
  '/User/AllSMSList': { request: smsListRequest, response: smsListResponse },
  '/User/actionSMSData': { request: smsActionRequest, response: smsActionResponse },
  '/User/synchronizationSMSData': { request: smsSyncRequest, response: smsSyncResponse },
  '/SMS/Records': { request: noticeListRequest, response: noticeListResponse },
  '/SMS/Changes': { request: smsChangeListRequest, response: smsChangeListResponse },
} as const;

// ---- Messages to devices by role (SPEC §5 Messages; §3 isSendMsgByRole) -------------------------
// - /Command/sendMessageByRoles  the watch message to every device of the roles, groups and accounts.
// - /Message/Preview            how many devices a choice reaches, and how many are online.
// - /Message/Sends              the messages sent in the subtree, with their devices' states counted.
// - /Message/SendDevices        one send's devices and the state of each.

export const MESSAGE_MAX_LENGTH = 140;
const targetIds = z.array(id).max(1000, { error: 'validation.tooMany' }).default([]);

/** Device roles, groups and accounts (with the accounts below them); at least one of them. */
const targets = z.object({ RoleIds: targetIds, GroupIds: targetIds, UserIds: targetIds });
const needsTarget = (v: z.infer<typeof targets>, ctx: z.RefinementCtx) => {
  if (!v.RoleIds.length && !v.GroupIds.length && !v.UserIds.length) ctx.addIssue({ code: 'custom', path: ['RoleIds'], message: 'message.targetsRequired' });
};

export const messagePreviewRequest = targets.superRefine(needsTarget);
export const messagePreviewResponse = ok({ Total: z.number(), Online: z.number(), Unsupported: z.number() });

export const sendMessageRequest = targets
  .extend({
    Name: text(32).pipe(z.string().min(1, { error: 'message.nameRequired' })),
    Content: text(MESSAGE_MAX_LENGTH).pipe(z.string().min(1, { error: 'validation.messageRequired' })),
  })
  .superRefine(needsTarget);
export const sendMessageResponse = ok({ SendId: z.number(), Total: z.number(), Unsupported: z.number() });

export const COMMAND_STATES = ['queued', 'sent', 'answered', 'failed'] as const;

export const messageSendSchema = z.object({
  SendId: z.number(),
  /** message: a text to the watches; ip: the server address command. */
  Kind: z.string(),
  Name: z.string(),
  Content: z.string(),
  SenderName: z.string(),
  Total: z.number(),
  Queued: z.number(),
  Sent: z.number(),
  Answered: z.number(),
  Failed: z.number(),
  CreatedAt: z.string(),
});
export const messageSendsRequest = z.object({ ...pageRequest });
export const messageSendsResponse = pageOf(messageSendSchema);

export const messageDeviceSchema = z.object({
  CommandId: z.number(),
  DeviceId: z.number(),
  Imei: z.string(),
  DeviceName: z.string(),
  Status: z.enum(COMMAND_STATES),
  Reply: z.string().nullable(),
  Error: z.string(),
  SentAt: z.string().nullable(),
  AnsweredAt: z.string().nullable(),
});
export const messageDevicesRequest = z.object({ SendId: id, Status: z.enum(COMMAND_STATES).optional(), ...pageRequest });
export const messageDevicesResponse = pageOf(messageDeviceSchema);

export const messageSchemas = {
  '/Command/sendMessageByRoles': { request: sendMessageRequest, response: sendMessageResponse },
  '/Message/Preview': { request: messagePreviewRequest, response: messagePreviewResponse },
  '/Message/Sends': { request: messageSendsRequest, response: messageSendsResponse },
  '/Message/SendDevices': { request: messageDevicesRequest, response: messageDevicesResponse },
} as const;

// ---- Companion app versions (SPEC §3 App version) ---------------------------------------------
// - /APPInfo/CheckAppVersion      public: the app asks whether to update, how and where.
// - /APPInfo/UpdateAppVersionByID edit a version.
// - /APPInfo/List, /APPInfo/Save, /APPInfo/Delete  the versions; packages are uploaded to
//   POST /api/app-packages (raw bytes) and served from GET /api/app-packages/<key>.<apk|ipa>.

export const APP_PLATFORMS = ['android', 'ios'] as const;
export const APP_LANGUAGES = ['zh-CN', 'zh-TW', 'en'] as const;
/** Dotted numeric versions: 1, 1.2, 1.2.3 or 1.2.3.4, each part at most 5 digits. */
export const APP_VERSION_RE = /^\d{1,5}(\.\d{1,5}){0,3}$/;

/** Compares dotted versions numerically (1.10 > 1.9); missing parts count as 0. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  return 0;
}

const version = (required: boolean) => {
  const base = text(24).refine((v) => v === '' || APP_VERSION_RE.test(v), { error: 'app.versionFormat' });
  return required ? base.refine((v) => v !== '', { error: 'app.versionRequired' }) : base.default('');
};
const appPlatform = z.enum(APP_PLATFORMS, { error: 'app.platformRequired' });

export const appVersionSchema = z.object({
  Id: z.number(),
  Platform: z.enum(APP_PLATFORMS),
  OldVersion: z.string(),
  NewVersion: z.string(),
  VersionCode: z.number(),
  MinVersion: z.string(),
  /** 1 forced, 2 optional. */
  Forced: z.number(),
  /** Where the app downloads it: the stored package's address, or the external URL. */
  Url: z.string(),
  FileName: z.string(),
  Size: z.number().nullable(),
  Sha256: z.string().nullable(),
  Content: z.record(z.string(), z.string()),
  CreatedAt: z.string(),
  UpdatedAt: z.string(),
});
export const appListRequest = z.object({ Platform: z.enum(APP_PLATFORMS).optional(), ...pageRequest });
export const appListResponse = pageOf(appVersionSchema);

const appFields = {
  Platform: appPlatform,
  OldVersion: version(false),
  NewVersion: version(true),
  VersionCode: int(1, 2_000_000_000),
  MinVersion: version(false),
  Forced: flag12.default(2),
  /** A package uploaded to /api/app-packages (its key), or an external download URL. */
  FileKey: z.string().regex(/^[a-f0-9]{32}\.(apk|ipa)$/, { error: 'app.fileInvalid' }).optional(),
  /** The uploaded file's own name, shown in the list. */
  FileName: text(200).default(''),
  Url: text(500)
    .refine((v) => v === '' || /^https?:\/\/\S+$/i.test(v), { error: 'app.urlInvalid' })
    .default(''),
  Content: z.object({ 'zh-CN': text(2000).default(''), 'zh-TW': text(2000).default(''), en: text(2000).default('') }).default({ 'zh-CN': '', 'zh-TW': '', en: '' }),
};
const appChecks = (v: { FileKey?: string; Url: string; Content: Record<string, string>; MinVersion: string; NewVersion: string }, ctx: z.RefinementCtx) => {
  if (!v.FileKey && !v.Url) ctx.addIssue({ code: 'custom', path: ['Url'], message: 'app.packageRequired' });
  if (!Object.values(v.Content).some((c) => c.trim() !== '')) ctx.addIssue({ code: 'custom', path: ['Content', 'zh-CN'], message: 'app.contentRequired' });
  if (v.MinVersion && APP_VERSION_RE.test(v.MinVersion) && APP_VERSION_RE.test(v.NewVersion) && compareVersions(v.MinVersion, v.NewVersion) > 0)
    ctx.addIssue({ code: 'custom', path: ['MinVersion'], message: 'app.minAboveNew' });
};
export const saveAppRequest = z.object(appFields).superRefine(appChecks);
export const updateAppRequest = z.object({ Id: id, ...appFields }).superRefine(appChecks);
export const saveAppResponse = ok({ Item: appVersionSchema });
export const deleteAppRequest = z.object({ Ids: z.array(id).min(1, { error: 'validation.required' }).max(100) });
export const deleteAppResponse = ok({ Deleted: z.number() });

export const checkAppRequest = z.object({
  Platform: appPlatform,
  Version: text(24).refine((v) => APP_VERSION_RE.test(v), { error: 'app.versionFormat' }),
  /** The app's language; the update content comes in it (or the nearest there is). */
  Language: text(35).optional(),
});
export const checkAppResponse = ok({
  Update: z.boolean(),
  Forced: z.boolean(),
  NewVersion: z.string(),
  VersionCode: z.number(),
  MinVersion: z.string(),
  Url: z.string(),
  Size: z.number().nullable(),
  Sha256: z.string().nullable(),
  Content: z.string(),
});

export const appSchemas = {
  '/APPInfo/CheckAppVersion': { request: checkAppRequest, response: checkAppResponse },
  '/APPInfo/UpdateAppVersionByID': { request: updateAppRequest, response: saveAppResponse },
  '/APPInfo/List': { request: appListRequest, response: appListResponse },
  '/APPInfo/Save': { request: saveAppRequest, response: saveAppResponse },
  '/APPInfo/Delete': { request: deleteAppRequest, response: deleteAppResponse },
} as const;

// ---- Server address push (SPEC §5 Server address distribution) --------------------------------
// /Command/sendIPInfoByUserId: the server address command to every device of an account and the
// accounts below it. With Preview it only counts the devices that would move (the console's
// confirmation names that number); the send answers its id, whose devices /Message/SendDevices lists.
export const SEND_KINDS = ['message', 'ip', 'weather'] as const;

export const sendIpRequest = z.object({
  UserId: optionalId,
  Host: ipOrDomain.pipe(z.string().max(253, { error: 'validation.tooLong' })),
  Port: z.preprocess((v) => (v === '' || v === null ? undefined : v), port),
  Preview: z.boolean().default(false),
});
export const sendIpResponse = ok({ SendId: z.number().nullable(), Total: z.number(), Unsupported: z.number() });

export const ipSchemas = {
  '/Command/sendIPInfoByUserId': { request: sendIpRequest, response: sendIpResponse },
} as const;

// ---- Weather (/Command/sendWeatherAllDevice) -----------------------------------------------------
// The watch weather command, with the forecast of each device's last known place, to every device
// of an account and the accounts below it that has a position.
export const sendWeatherRequest = z.object({ UserId: optionalId });
export const sendWeatherResponse = ok({
  SendId: z.number().nullable(),
  Total: z.number(),
  /** Devices without a known position, left out. */
  NoPosition: z.number(),
  /** Devices whose area's forecast could not be had, left out. */
  NoForecast: z.number(),
  Unsupported: z.number(),
});
export const weatherSchemas = {
  '/Command/sendWeatherAllDevice': { request: sendWeatherRequest, response: sendWeatherResponse },
} as const;
