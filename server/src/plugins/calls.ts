// Registers every call of the contract's registry as POST /api/<path>. Implemented calls get their
// zod schemas (validation, serialization, OpenAPI) and handler; the rest answer State 501 with a
// clear message, so a client can tell "not built yet" from "wrong path".
// A call's caller is authenticated when the request arrives, before its body is read: a request
// without a valid token is refused without reading or parsing what it sends. Bodies are small
// (BODY_LIMIT) except on the few calls that carry files; a larger one is refused (413) as it comes.
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  ADMIN_USER_TYPE,
  CALLS,
  EXTRA_CALLS,
  SCHEMAS,
  State,
  actionOfCall,
  failureSchema,
  grants,
  isAction,
  isPlatformAdministrator,
  pageAllowsCall,
  effectiveUserType,
  resolveLocale,
  translate,
  actionTitleKey,
  DISPLAY_SWITCH_SCOPE,
  type CallEntry,
  type Locale,
  type PageSwitch,
} from '@wt/contract';
import type { AuthUser, CallContext, CallDef } from '../calls.js';
import type { AppDeps } from '../deps.js';
import { Authenticator } from '../lib/auth.js';
import { AppError, forbidden } from '../lib/errors.js';

declare module 'fastify' {
  interface FastifyInstance {
    authenticator: Authenticator;
  }
  interface FastifyRequest {
    /** The caller of a call that needs one, set before the body is read. */
    authUser: AuthUser | null;
  }
}

/** Largest body of an ordinary call, in bytes (the app's default for every route). */
export const BODY_LIMIT = 1024 * 1024;
const MB = 1024 * 1024;
/** Calls that carry a file, with the body their largest file needs (the contract bounds the file). */
export const LARGE_BODY_LIMITS: Record<string, number> = {
  // The workbook, base64: at most 14 MB of it (device.importExcelRequest).
  '/device/batchdevicescreateuserbyexcel': 15 * MB,
  // A stock-in batch: 100 000 pasted IMEI/ICCID rows, or a workbook of them (at most 14 MB base64).
  '/inventory/batchinsert': 15 * MB,
  // A wearer's avatar as a data: URL: at most 3 MB of it (person profileFields).
  '/person/savepersonprofile': 4 * MB,
  '/person/batchupdateperson': 4 * MB,
  // A scene's SVG map (under 6 MB) and icon (256 KB), base64; a floor's PNG plan (10 MB), base64.
  '/scene/addsceneinfo': 9 * MB,
  '/scene/addsceneinfobymonitor': 9 * MB,
  '/scene/editsceneinfo': 9 * MB,
  '/scene/editsceneinfobymonitor': 9 * MB,
  '/scene/addfoorsinfo': 14 * MB,
  '/scene/editfoorsinfo': 14 * MB,
};

/** The calls a display switch turned off refuses (platform.ts DISPLAY_SWITCH_SCOPE), by lower-case path. */
const SWITCH_GATES = new Map<string, PageSwitch>(
  (Object.entries(DISPLAY_SWITCH_SCOPE) as [PageSwitch, (typeof DISPLAY_SWITCH_SCOPE)[PageSwitch]][]).flatMap(([k, v]) => v.calls.map((c) => [c.toLowerCase(), k] as const)),
);

/** Refuses (403) a call whose pages the caller's account has turned off with a display switch. */
async function requireSwitch(deps: AppDeps, user: AuthUser, key: PageSwitch, locale: Locale): Promise<void> {
  const [a] = await deps.database.query<{ on: number }>(`SELECT ${DISPLAY_SWITCH_SCOPE[key].column} AS "on" FROM accounts WHERE id = $1`, [user.id]);
  if (Number(a?.on) === 2) throw new AppError(State.FORBIDDEN, 'platform.switchedOff', { name: translate(locale, `platform.switches.${key}`) });
}

/** The calls an account that must change its password may still make. */
const WHILE_PASSWORD_MUST_CHANGE = new Set(['/user/userinfo', '/user/changepassword', '/user/refreshtoken', '/user/saveuserloginlog']);

/** The refusal of an action the caller's permission set lacks, naming the action in the caller's language. */
export function permissionDenied(action: string, locale: Locale): AppError {
  return new AppError(State.FORBIDDEN, 'permission.denied', { action: translate(locale, actionTitleKey(action)), code: action });
}

/** Refuses (403) a caller whose permission set lacks `action`. */
export function requireAction(user: AuthUser, action: string, locale: Locale): void {
  if (!grants(user.actions, action)) throw permissionDenied(action, locale);
}

/**
 * What a logged-in caller must pass before a call's body is read: the forced password change, the
 * action the call needs, and the registry's marking: an administrator of its branch (user type 3),
 * or one of the platform's administrators for what every tenant shares.
 */
function admit(entry: CallEntry, user: AuthUser, request: FastifyRequest): void {
  if (user.mustChangePassword && !WHILE_PASSWORD_MUST_CHANGE.has(entry.path.toLowerCase()))
    throw new AppError(State.FORBIDDEN, 'account.mustChangePassword');
  // The set's refusal names what is missing, so it comes before the administrator-only marking.
  const need = actionOfCall(entry.path);
  if (need && isAction(need)) requireAction(user, need, requestLocale(request));
  if (entry.permission === 'branchAdmin' && user.userType !== ADMIN_USER_TYPE) throw forbidden();
  if (entry.permission === 'admin' && !isPlatformAdministrator(user)) throw forbidden();
  // The reads of pages the caller's type or route list does not open (SPEC §6), as the console hides them.
  const routes = user.routes ?? '';
  if (!pageAllowsCall({ userType: effectiveUserType(user.userType, routes), routes, platformAdmin: isPlatformAdministrator(user) }, entry.path)) throw forbidden();
}

export function requestLocale(request: FastifyRequest) {
  return resolveLocale((request.headers['x-language'] as string | undefined) ?? request.headers['accept-language']);
}

export default fp(
  async function calls(app: FastifyInstance, opts: { deps: AppDeps; handlers: CallDef[] }) {
    const { deps } = opts;
    const authenticator = new Authenticator(deps);
    app.decorate('authenticator', authenticator);
    app.decorateRequest('authUser', null);
    app.addHook('onClose', async () => authenticator.close());

    const byPath = new Map<string, CallDef>();
    for (const h of opts.handlers) {
      const key = h.path.toLowerCase();
      if (byPath.has(key)) throw new Error(`Call ${h.path} is implemented twice`);
      byPath.set(key, h);
    }
    const known = new Set([...CALLS, ...EXTRA_CALLS].map((c) => c.path.toLowerCase()));
    for (const key of byPath.keys()) if (!known.has(key)) throw new Error(`Call ${key} is not in the contract's registry`);
    for (const key of Object.keys(LARGE_BODY_LIMITS)) if (!known.has(key)) throw new Error(`Body limit of ${key}: not a call of the registry`);

    const register = (entry: CallEntry) => {
      const def = byPath.get(entry.path.toLowerCase());
      const schemas = (SCHEMAS as Record<string, { request: unknown; response: unknown } | undefined>)[entry.path];
      const tags = [entry.area];
      const isPublic = entry.permission === 'public';
      const gate = SWITCH_GATES.get(entry.path.toLowerCase());
      const authenticate = async (request: FastifyRequest) => {
        request.authUser = await authenticator.fromHeader(request.headers.authorization);
        admit(entry, request.authUser, request);
        if (gate) await requireSwitch(deps, request.authUser, gate, requestLocale(request));
      };
      if (!def) {
        app.post(`/api${entry.path}`, {
          // After the request rate limit (onRequest), before the body is read.
          preParsing: isPublic ? undefined : async (request, _reply, payload) => (await authenticate(request), payload),
          schema: { tags, summary: `${entry.path} (not implemented yet)`, response: { 501: failureSchema } },
          handler: async () => {
            throw new AppError(State.NOT_IMPLEMENTED, 'common.notImplemented', { path: entry.path });
          },
        });
        return;
      }
      if (!schemas) throw new Error(`Call ${entry.path} has a handler but no schema in the contract`);
      app.post(`/api${entry.path}`, {
        bodyLimit: LARGE_BODY_LIMITS[entry.path.toLowerCase()] ?? BODY_LIMIT,
        // Public calls an app makes unattended get their own, narrower limit per address.
        config: entry.path === '/APPInfo/CheckAppVersion' ? { rateLimit: { max: deps.config.APP_CHECK_PER_MINUTE, timeWindow: '1 minute' } } : undefined,
        // After the request rate limit (onRequest), before the body is read.
        preParsing: isPublic ? undefined : async (request, _reply, payload) => (await authenticate(request), payload),
        schema: {
          tags,
          summary: entry.note ? `${entry.path} (${entry.note})` : entry.path,
          security: entry.permission === 'public' ? [] : [{ bearer: [] }],
          body: schemas.request as never,
          response: { 200: schemas.response as never, '4xx': failureSchema, '5xx': failureSchema },
        },
        // An absent body is an empty object, so "no parameters" calls validate.
        preValidation: async (request) => {
          if (request.body === undefined || request.body === null) request.body = {};
        },
        handler: async (request, reply) => {
          const ctx: CallContext = {
            deps,
            user: request.authUser,
            locale: requestLocale(request),
            ip: request.ip,
            userAgent: String(request.headers['user-agent'] ?? ''),
            request,
            reply,
          };
          return def.handler(ctx, request.body);
        },
      });
    };
    for (const entry of [...CALLS, ...EXTRA_CALLS]) register(entry);
  },
  { name: 'calls' },
);

export { AppError };
