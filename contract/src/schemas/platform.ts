// Platform info (SPEC §3) and white label: an account's brand (title, page title, icon, company and
// contact details, the key of its login link and its host name, menus hidden from the accounts
// below it) seen by every account below it that has none of its own; and the function switches of
// SPEC §3 User state. Extra calls:
// - /Platform/Info        the brand of an account in scope (its own row and the one it inherits).
// - /Platform/Save        create or update an account's brand and its label and batch-command switches.
// - /Platform/UploadIcon  the brand's icon (PNG, SVG or ICO, at most 512 KB; SVG sanitized).
// - /Platform/Brand       public: what the login page shows for `/login?platform=<key>` or a host name.
// - /User/EditFunctionSwitches  the function switches of an account in scope.
import { z } from 'zod';
import { ok } from '../envelope.js';
import { flag12, optionalId, rawText, text } from './common.js';
import { userInfoSchema } from './user.js';

/** The key of `/login?platform=<key>`: 2 to 40 lower-case letters, digits and dashes, not at either end. */
export const BRAND_KEY = /^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])$/;
/** A host name: labels of letters, digits and dashes separated by dots. */
export const BRAND_HOST = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;
/** The largest icon, in bytes. */
export const BRAND_ICON_MAX_BYTES = 512 * 1024;

/** The public face of a brand: nothing private. */
export const brandSchema = z.object({
  Title: z.string(),
  PageTitle: z.string(),
  /** Empty when the brand has no icon. */
  IconUrl: z.string(),
  CompanyName: z.string(),
});
export type Brand = z.infer<typeof brandSchema>;

export const platformInfoSchema = z.object({
  UserId: z.number(),
  Key: z.string(),
  HostName: z.string(),
  Title: z.string(),
  PageTitle: z.string(),
  IconUrl: z.string(),
  CompanyName: z.string(),
  Phone: z.string(),
  Email: z.string(),
  Address: z.string(),
  /** Menu routes hidden from the accounts below this one. */
  HiddenMenus: z.array(z.string()),
});
export type PlatformInfo = z.infer<typeof platformInfoSchema>;

export const platformInfoRequest = z.object({ UserId: optionalId });
export const platformInfoResponse = ok({
  /** The account's own brand, null when it has none. */
  Own: platformInfoSchema.nullable(),
  /** The brand the account shows: its own, else the nearest ancestor's; null when none on the path. */
  Effective: brandSchema.extend({ OwnerId: z.number(), OwnerLoginName: z.string() }).nullable(),
  /** Menu routes the brands above the account hide from it. */
  HiddenMenus: z.array(z.string()),
  /** Device label visibility (1 shown, 2 hidden) and the batch-command feature (1 on, 2 off) of the account. */
  isShowMapLabel: z.number(),
  switchFunctionSendCmd: z.number(),
});

const optionalText = (max: number) => text(max).optional().default('');
const keyField = z
  .string({ error: 'validation.string' })
  .trim()
  .toLowerCase()
  .refine((v) => v === '' || BRAND_KEY.test(v), { error: 'platform.keyInvalid' })
  .optional()
  .default('');
const hostField = z
  .string({ error: 'validation.string' })
  .trim()
  .toLowerCase()
  .refine((v) => v === '' || BRAND_HOST.test(v), { error: 'platform.hostInvalid' })
  .optional()
  .default('');

export const savePlatformRequest = z.object({
  UserId: optionalId,
  Title: optionalText(64),
  PageTitle: optionalText(64),
  CompanyName: optionalText(128),
  Phone: text(32)
    .regex(/^(\+?[0-9][0-9\- ]{4,19})?$/, { error: 'validation.phoneInvalid' })
    .optional()
    .default(''),
  Email: text(128)
    .regex(/^([^\s@]+@[^\s@]+\.[^\s@]+)?$/, { error: 'validation.emailInvalid' })
    .optional()
    .default(''),
  Address: optionalText(256),
  Key: keyField,
  HostName: hostField,
  HiddenMenus: z.array(text(128)).max(200, { error: 'validation.tooMany' }).optional().default([]),
  isShowMapLabel: flag12.optional(),
  switchFunctionSendCmd: flag12.optional(),
});
export type SavePlatformBody = z.output<typeof savePlatformRequest>;
export const savePlatformResponse = platformInfoResponse;

export const uploadIconRequest = z.object({
  UserId: optionalId,
  FileName: text(255).optional(),
  /** The file, base64 or as a data: URL. */
  /** Room beyond the largest icon's base64, so a file just over the limit is told so by its size. */
  Data: rawText(Math.ceil(BRAND_ICON_MAX_BYTES * 1.5)).min(1, { error: 'platform.iconRequired' }),
});
export const uploadIconResponse = ok({ IconUrl: z.string() });

export const brandRequest = z.object({ Key: text(64).optional() });
export const brandResponse = ok({ Item: brandSchema.nullable() });

/** Switches an account turns for itself (SPEC §3 User state): how the console shows things. */
export const DISPLAY_SWITCHES = ['switchAnimation', 'IsShowMonitorFence', 'IsInnerDoor', 'IsDataShow', 'IsHealthData'] as const;
/**
 * What a display switch turned off (2) hides from its account: the console's pages under `routes`
 * (menu and guard), and the calls that read their data, which the server refuses.
 */
export const DISPLAY_SWITCH_SCOPE = {
  IsInnerDoor: {
    column: 'is_inner_door',
    routes: ['/position'],
    calls: ['/Scene/sceneInfoByMonitorForServer', '/Scene/deviceHistoryForScene'],
  },
  IsDataShow: { column: 'is_data_show', routes: ['/dashboard'], calls: ['/User/adminPageAnalysis', '/User/allAdminCount'] },
  IsHealthData: {
    column: 'is_health_data',
    routes: ['/health'],
    calls: ['/health/GetHealth2', '/health/HealthHasDataForDevice', '/health/HealthHasDataForUsers', '/Device/allHealthDataPage'],
  },
} as const satisfies Record<string, { column: string; routes: readonly string[]; calls: readonly string[] }>;
export type PageSwitch = keyof typeof DISPLAY_SWITCH_SCOPE;

/** Services an ancestor with function.edit grants: never more than it has itself. */
export const SERVICE_SWITCHES = ['switchFunctionSendCmd', 'isWeatherConfig', 'isSendMsgByRole', 'isSendMessage'] as const;
export type FunctionSwitch = (typeof DISPLAY_SWITCHES)[number] | (typeof SERVICE_SWITCHES)[number];
export const FUNCTION_SWITCHES: readonly FunctionSwitch[] = [...DISPLAY_SWITCHES, ...SERVICE_SWITCHES];

export const editFunctionSwitchesRequest = z.object({
  UserId: optionalId,
  ...(Object.fromEntries(FUNCTION_SWITCHES.map((k) => [k, flag12.optional()])) as Record<FunctionSwitch, z.ZodOptional<typeof flag12>>),
});
export const editFunctionSwitchesResponse = ok({ UserInfo: userInfoSchema });

export const platformSchemas = {
  '/Platform/Info': { request: platformInfoRequest, response: platformInfoResponse },
  '/Platform/Save': { request: savePlatformRequest, response: savePlatformResponse },
  '/Platform/UploadIcon': { request: uploadIconRequest, response: uploadIconResponse },
  '/Platform/Brand': { request: brandRequest, response: brandResponse },
  '/User/EditFunctionSwitches': { request: editFunctionSwitchesRequest, response: editFunctionSwitchesResponse },
};
