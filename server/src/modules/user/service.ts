// The rules of logging in, sessions, password recovery and the account's own profile
// (SPEC §3, §4, §5, §7, §8).
import { and, eq, gt, isNull } from 'drizzle-orm';
import {
  LOG_ACTIONS,
  State,
  effectiveRoutes,
  effectiveUserType,
  formatInZone,
  grantsOf,
  isPlatformAdministrator,
  permissionList,
  resolveLocale,
  roleLabelOf,
  type Locale,
  type SentTime,
  translate,
  unstorableText,
  visibleRoutePaths,
  type UserInfo,
} from '@wt/contract';

/** The functional configuration page, whose presence in an account's menu UserInfo.settingFunction tells. */
const SETTING_FUNCTION_ROUTE = '/setting/setingfunction';
import type { AuthedContext, CallContext } from '../../calls.js';
import { AppError, conflict, tokenInvalid } from '../../lib/errors.js';
import { ipLocationIn, ipLocationText } from '../../lib/iplocation.js';
import { hashPassword, verifyPassword } from '../../lib/passwords.js';
import { accountInScope, type AccountRow } from '../../lib/scope.js';
import { sentInstant, shownTime } from '../../lib/time.js';
import { randomToken, sha256, signAccessToken, signKnownBrowser, verifyKnownBrowser } from '../../lib/tokens.js';
import * as repo from './repo.js';
import { requireAction } from '../../plugins/calls.js';
import { REALTIME_TOPICS, type SessionsEndedEvent } from '../../realtime/topics.js';

const RESET_MINUTES = 30;
// Verifying against a real hash when the account does not exist keeps the answer time the same,
// so timing does not reveal which account names exist.
let dummyHash: Promise<string> | undefined;

export function issueAccess(ctx: CallContext, accountId: number, sessionId: number) {
  const ttl = ctx.deps.config.ACCESS_TOKEN_TTL;
  return {
    token: signAccessToken(ctx.deps.authSecret, { sub: accountId, sid: sessionId, exp: Math.floor(Date.now() / 1000) + ttl }),
    ttl,
  };
}

export async function log(ctx: CallContext, account: Pick<AccountRow, 'id' | 'loginName'>, actionCode: number, client?: { type?: string; code?: number }) {
  await repo.insertLoginLog(ctx.deps.database.db, {
    accountId: account.id,
    loginName: account.loginName,
    actionCode,
    ip: ctx.ip,
    ipLocation: ipLocationText(ctx.ip),
    clientType: client?.type ?? (ctx.userAgent ? 'Web' : ''),
    clientCode: client?.code ?? 1021,
  });
}

/** Cookie a browser keeps per account it logged in to; sent back to the login call only. */
const KNOWN_BROWSER_COOKIE = (accountId: number) => `wt_known_${accountId}`;
const KNOWN_BROWSER_DAYS = 180;

/** Gives this browser a new signed mark of the account: its later logins come from a known source. */
function markKnownBrowser(ctx: CallContext, accountId: number) {
  ctx.reply?.setCookie(KNOWN_BROWSER_COOKIE(accountId), signKnownBrowser(ctx.deps.authSecret, accountId), {
    path: '/api/User/Login',
    httpOnly: true,
    sameSite: 'strict',
    secure: ctx.request.protocol === 'https',
    maxAge: KNOWN_BROWSER_DAYS * 24 * 3600,
  });
}

/**
 * Where a login attempt comes from, for the failure counts: the account's own browser (its signed
 * mark) or else the address. `known` says whether the account logged in from there before.
 */
async function loginSource(ctx: CallContext, account: AccountRow | undefined) {
  const browser = account ? verifyKnownBrowser(ctx.deps.authSecret, account.id, ctx.request.cookies?.[KNOWN_BROWSER_COOKIE(account.id)]) : null;
  if (browser) return { key: `browser:${browser}`, known: async () => true };
  return {
    key: `address:${ctx.ip}`,
    // The same query whether or not the account exists (no account has id 0): the answer's time tells nothing.
    known: () => repo.loggedInFrom(ctx.deps.database.db, account?.id ?? 0, ctx.ip, KNOWN_BROWSER_DAYS),
  };
}

/**
 * Stores a one-time token for the account (its hash, valid `minutes` from `now`) and mails the
 * account the console's link `<PUBLIC_URL>/login?<kind>=<token>` with the mail.<kind>Subject and Body.
 */
async function mailLink(ctx: CallContext, account: AccountRow, o: { kind: 'reset' | 'unlock'; minutes: number; now: number; locale: Locale }) {
  const token = randomToken();
  const table = o.kind === 'reset' ? repo.passwordResets : repo.loginUnlocks;
  await ctx.deps.database.db.insert(table).values({ accountId: account.id, tokenHash: sha256(token), expiresAt: new Date(o.now + o.minutes * 60_000) });
  const link = `${ctx.deps.config.PUBLIC_URL}/login?${o.kind}=${encodeURIComponent(token)}`;
  const params = { title: ctx.deps.config.PLATFORM_TITLE, name: account.username || account.loginName, minutes: o.minutes, link };
  await ctx.deps.mailer.send({
    to: account.email,
    subject: translate(o.locale, `mail.${o.kind}Subject`, params),
    text: translate(o.locale, `mail.${o.kind}Body`, params),
  });
}

/** An unlock link works once, this long; at most one goes out per account this often. */
const UNLOCK_MINUTES = 30;
const UNLOCK_MAIL_EVERY_MINUTES = 10;

/**
 * Mails the account an unlock link while its logins from new places are delayed, unless one went
 * out in the last UNLOCK_MAIL_EVERY_MINUTES (an earlier link still works then). Not awaited by the
 * login, so the answer's time does not tell whether the account exists or has an e-mail.
 */
async function mailUnlockLink(ctx: CallContext, loginName: string, account: AccountRow | undefined) {
  const limiter = ctx.deps.loginLimiter;
  if (!account?.email || !(await limiter.claimUnlockMail(loginName, UNLOCK_MAIL_EVERY_MINUTES * 60_000))) return;
  // The owner's language, not the one of whoever tried.
  await mailLink(ctx, account, { kind: 'unlock', minutes: UNLOCK_MINUTES, now: limiter.now(), locale: resolveLocale(account.language) });
}

/** Opens a mailed unlock link: the browser sending the token becomes one of the account's own. */
export async function unlockBrowser(ctx: CallContext, body: { Token: string }) {
  const { db } = ctx.deps.database;
  const t = new Date(ctx.deps.loginLimiter.now());
  const [used] = await db
    .update(repo.loginUnlocks)
    .set({ usedAt: t })
    .where(and(eq(repo.loginUnlocks.tokenHash, sha256(body.Token)), isNull(repo.loginUnlocks.usedAt), gt(repo.loginUnlocks.expiresAt, t)))
    .returning({ accountId: repo.loginUnlocks.accountId });
  const [account] = used ? await db.select().from(repo.accounts).where(eq(repo.accounts.id, used.accountId)) : [];
  if (!account) throw new AppError(State.BAD_REQUEST, 'auth.unlockTokenInvalid');
  markKnownBrowser(ctx, account.id);
  return { State: 200 as const, Message: 'auth.browserUnlocked', LoginName: account.loginName };
}

export async function login(ctx: CallContext, body: { LoginName: string; Password: string; Language?: string }) {
  const { db } = ctx.deps.database;
  const limiter = ctx.deps.loginLimiter;
  // No account name holds NUL or a lone surrogate (the contract refuses both): such a name is an
  // unknown account, a failed login.
  const account = unstorableText(body.LoginName) ? undefined : await repo.findAccountByLogin(db, body.LoginName);
  const source = await loginSource(ctx, account);
  // A source's own failures lock it; the account's failures from everywhere delay unknown sources
  // only, so a stranger's guessing does not lock the owner out of its own browsers and places, and
  // a new place has the mailed unlock link.
  const wait = await limiter.wait(body.LoginName, source.key, source.known);
  if (wait?.reason === 'source') throw new AppError(State.TOO_MANY_REQUESTS, 'auth.tooManyAttempts', { seconds: wait.seconds });
  if (wait) {
    void mailUnlockLink(ctx, body.LoginName, account).catch((err) => ctx.deps.log.error({ err }, 'sending an unlock link failed'));
    throw new AppError(State.TOO_MANY_REQUESTS, 'auth.tooManyAttemptsNewPlace', { seconds: wait.seconds });
  }

  dummyHash ??= hashPassword(randomToken());
  const valid = await verifyPassword(account?.passwordHash ?? (await dummyHash), body.Password);
  if (!account || !valid) {
    await limiter.fail(body.LoginName, source.key);
    if (account) await log(ctx, account, LOG_ACTIONS.LOGIN_FAILED);
    throw new AppError(State.BAD_REQUEST, 'auth.loginFailed');
  }
  if (account.disabled) throw new AppError(State.FORBIDDEN, 'auth.accountDisabled');
  await limiter.succeed(body.LoginName, source.key);
  markKnownBrowser(ctx, account.id);

  const refresh = randomToken();
  const expires = new Date(Date.now() + ctx.deps.config.REFRESH_TOKEN_TTL * 1000);
  const sessionId = await repo.createSession(db, account.id, sha256(refresh), expires, ctx.userAgent.slice(0, 200));
  if (body.Language) {
    await db.update(repo.accounts).set({ language: resolveLocale(body.Language) }).where(eq(repo.accounts.id, account.id));
  }
  await log(ctx, account, LOG_ACTIONS.LOGIN);
  const access = issueAccess(ctx, account.id, sessionId);
  return {
    State: 0 as const,
    AccessToken: access.token,
    refreshToken: refresh,
    ExpiresIn: access.ttl,
    Item: { UserId: account.id, LoginName: account.loginName },
    MustChangePassword: account.mustChangePassword,
  };
}

/** Rotates the refresh token. Presenting a token that was already rotated ends the session. */
export async function refresh(ctx: CallContext, body: { UserId: number; RefreshToken?: string; AccessToken?: string }) {
  const { db } = ctx.deps.database;
  const presented = body.RefreshToken ?? body.AccessToken;
  if (!presented) throw tokenInvalid();
  const hash = sha256(presented);
  const [session] = await db
    .select()
    .from(repo.sessions)
    .where(and(eq(repo.sessions.refreshHash, hash), eq(repo.sessions.accountId, body.UserId), isNull(repo.sessions.revokedAt), gt(repo.sessions.expiresAt, new Date())))
    .limit(1);
  if (!session) {
    const [stolen] = await db.select().from(repo.sessions).where(eq(repo.sessions.previousHash, hash)).limit(1);
    if (stolen) {
      await db.update(repo.sessions).set({ revokedAt: new Date() }).where(eq(repo.sessions.id, stolen.id));
      ctx.request.server.authenticator.forget(stolen.id);
      ctx.deps.bus.publish(REALTIME_TOPICS.sessionsEnded, { accountId: stolen.accountId, sessionId: stolen.id } satisfies SessionsEndedEvent);
    }
    throw new AppError(State.TOKEN_INVALID, 'auth.refreshInvalid');
  }
  const next = randomToken();
  const expires = new Date(Date.now() + ctx.deps.config.REFRESH_TOKEN_TTL * 1000);
  const rotated = await db
    .update(repo.sessions)
    .set({ refreshHash: sha256(next), previousHash: hash, expiresAt: expires })
    .where(and(eq(repo.sessions.id, session.id), eq(repo.sessions.refreshHash, hash)))
    .returning({ id: repo.sessions.id });
  // Two refreshes racing with the same token: only one wins.
  if (rotated.length === 0) throw new AppError(State.TOKEN_INVALID, 'auth.refreshInvalid');
  const access = issueAccess(ctx, session.accountId, session.id);
  return { State: 200 as const, info: { RefreshToken: next, AccessToken: access.token, ExpiresIn: access.ttl } };
}

export async function toUserInfo(ctx: CallContext, a: AccountRow): Promise<UserInfo> {
  const set = await repo.permissionSetOf(ctx.deps.database.db, a.permissionSetId);
  const routes = effectiveRoutes(a.userType, set?.routes);
  const type = effectiveUserType(a.userType, routes);
  return {
    UserId: a.id,
    UserType: type,
    ServerUserType: a.userType,
    RoleLabel: roleLabelOf(type),
    AccountKind: a.kind,
    Username: a.username || a.loginName,
    Avatar: a.avatar,
    PageName: a.pageName || a.username || a.loginName,
    CellPhone: a.phone,
    Email: a.email,
    Address: a.address,
    LoginName: a.loginName,
    companyName: a.companyName,
    Contact: a.contact,
    Introduction: a.introduction,
    // In the viewer's zone; the account's own, as just saved, when it reads itself.
    CreateDT: formatInZone(a.createdAt, !ctx.user || ctx.user.id === a.id ? a.timeZoneOffset : ctx.user.timeZoneOffset),
    ParentId: a.parentId,
    // A stored -1 ("unset" in older data) reads as hidden (SPEC §3).
    isShowMapLabel: a.isShowMapLabel === 1 ? 1 : 2,
    IsInnerDoor: a.isInnerDoor,
    IsDataShow: a.isDataShow,
    IsHealthData: a.isHealthData,
    IsShowMonitorFence: a.isShowMonitorFence,
    switchAnimation: a.switchAnimation,
    switchFunctionSendCmd: a.switchFunctionSendCmd,
    isWeatherConfig: a.isWeatherConfig,
    isSendMsgByRole: a.isSendMsgByRole,
    isSendMessage: a.isSendMessage,
    // Whether the account has the functional configuration page (SPEC §2: tested for in its route list).
    settingFunction: visibleRoutePaths(type, routes, isPlatformAdministrator(a)).has(SETTING_FUNCTION_ROUTE) ? 1 : 2,
    alarmSet: a.alarmSet,
    timeZoneOffset: a.timeZoneOffset,
    Language: a.language,
    routes,
    PermissionId: a.permissionSetId,
    AgentAuthorized: a.agentAuthorized,
    PlatformAdmin: isPlatformAdministrator(a),
    MustChangePassword: a.mustChangePassword,
    Permissions: permissionList(grantsOf(a.userType, set)),
  };
}

export async function userInfo(ctx: AuthedContext, userId?: number) {
  const account = await accountInScope(ctx.deps.database.db, ctx.user, userId);
  return { State: 200 as const, UserInfo: await toUserInfo(ctx, account) };
}

export async function register(ctx: CallContext, body: { LoginName: string; Password: string; Email: string; Language?: string }) {
  const { db } = ctx.deps.database;
  if (await repo.findAccountByLogin(db, body.LoginName)) throw conflict('auth.accountExists');
  if (await repo.emailTaken(db, body.Email)) throw conflict('auth.emailExists');
  const root = await repo.rootAccount(db);
  const account = await repo.insertAccount(db, {
    parentId: root?.id ?? null,
    parentPath: root?.path,
    loginName: body.LoginName.trim(),
    passwordHash: await hashPassword(body.Password),
    email: body.Email.trim(),
    kind: 'user',
    userType: 1,
    origin: 'registered',
    language: resolveLocale(body.Language ?? ctx.locale),
  });
  await log(ctx, account, LOG_ACTIONS.REGISTER);
  return { State: 200 as const, Message: 'auth.registerOk' };
}

export async function findPassword(ctx: CallContext, body: { LoginName: string; Email: string; Language?: string }) {
  const { db } = ctx.deps.database;
  const account = await repo.findAccountByLogin(db, body.LoginName);
  if (!account || !account.email || account.email.trim().toLowerCase() !== body.Email.trim().toLowerCase()) {
    throw new AppError(State.BAD_REQUEST, 'auth.resetFailed');
  }
  await mailLink(ctx, account, { kind: 'reset', minutes: RESET_MINUTES, now: Date.now(), locale: resolveLocale(body.Language ?? ctx.locale) });
  return { State: 200 as const, Message: 'auth.resetMailSent' };
}

export async function resetPassword(ctx: CallContext, body: { Token: string; NewPassword: string }) {
  const { db } = ctx.deps.database;
  const [reset] = await db
    .select()
    .from(repo.passwordResets)
    .where(and(eq(repo.passwordResets.tokenHash, sha256(body.Token)), isNull(repo.passwordResets.usedAt), gt(repo.passwordResets.expiresAt, new Date())))
    .limit(1);
  if (!reset) throw new AppError(State.BAD_REQUEST, 'auth.resetTokenInvalid');
  const [account] = await db.select().from(repo.accounts).where(eq(repo.accounts.id, reset.accountId));
  if (!account) throw new AppError(State.BAD_REQUEST, 'auth.resetTokenInvalid');
  if (await verifyPassword(account.passwordHash, body.NewPassword)) {
    throw new AppError(State.BAD_REQUEST, 'common.validation', undefined, [{ Field: 'NewPassword', Message: 'validation.passwordSameAsOld' }]);
  }
  const used = await db
    .update(repo.passwordResets)
    .set({ usedAt: new Date() })
    .where(and(eq(repo.passwordResets.id, reset.id), isNull(repo.passwordResets.usedAt)))
    .returning({ id: repo.passwordResets.id });
  if (used.length === 0) throw new AppError(State.BAD_REQUEST, 'auth.resetTokenInvalid');
  await db.update(repo.accounts).set({ passwordHash: await hashPassword(body.NewPassword), updatedAt: new Date() }).where(eq(repo.accounts.id, account.id));
  await repo.revokeSessions(db, account.id);
  ctx.deps.bus.publish(REALTIME_TOPICS.sessionsEnded, { accountId: account.id } satisfies SessionsEndedEvent);
  await log(ctx, account, LOG_ACTIONS.PASSWORD_RESET);
  return { State: 200 as const, Message: 'auth.resetOk' };
}

export async function changePassword(ctx: AuthedContext, body: { UserId?: number; Id?: number; OldPass: string; NewPass: string }) {
  const { db } = ctx.deps.database;
  const target = body.Id ?? body.UserId ?? ctx.user.id;
  // Only one's own password changes here; an administrator resets others' through account management.
  if (target !== ctx.user.id) throw new AppError(State.FORBIDDEN, 'common.forbidden');
  const [account] = await db.select().from(repo.accounts).where(eq(repo.accounts.id, ctx.user.id));
  if (!account) throw tokenInvalid();
  if (!(await verifyPassword(account.passwordHash, body.OldPass))) throw new AppError(State.BAD_REQUEST, 'auth.oldPasswordWrong');
  await db
    .update(repo.accounts)
    .set({ passwordHash: await hashPassword(body.NewPass), mustChangePassword: false, updatedAt: new Date() })
    .where(eq(repo.accounts.id, account.id));
  // The forced change is done: the session no longer waits for it.
  if (account.mustChangePassword) ctx.request.server.authenticator.invalidateAccount(account.id);
  // Other sessions end now; this one lives until the console logs out, which it does at once.
  await repo.revokeSessions(db, account.id, ctx.user.sessionId);
  ctx.deps.bus.publish(REALTIME_TOPICS.sessionsEnded, { accountId: account.id, exceptSessionId: ctx.user.sessionId } satisfies SessionsEndedEvent);
  await log(ctx, account, LOG_ACTIONS.PASSWORD_CHANGE);
  return { State: 0 as const, Message: 'auth.passwordChanged' };
}

type ProfileFields = Partial<Pick<AccountRow, 'username' | 'avatar' | 'pageName' | 'phone' | 'email' | 'address' | 'companyName' | 'contact' | 'introduction' | 'language' | 'timeZoneOffset' | 'isShowMapLabel' | 'isShowMonitorFence' | 'switchAnimation' | 'switchFunctionSendCmd'>>;

export async function updateProfile(ctx: AuthedContext, userId: number | undefined, fields: ProfileFields) {
  const { db } = ctx.deps.database;
  const account = await accountInScope(db, ctx.user, userId);
  const set = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as ProfileFields;
  // The platform title is the platform's, not the profile's: changing it needs platform.edit.
  if (set.pageName !== undefined && set.pageName !== account.pageName) requireAction(ctx.user, 'platform.edit', ctx.locale);
  if (set.email && set.email.toLowerCase() !== account.email.toLowerCase() && (await repo.emailTaken(db, set.email))) {
    throw conflict('auth.emailExists');
  }
  const [updated] = await db.update(repo.accounts).set({ ...set, updatedAt: new Date() }).where(eq(repo.accounts.id, account.id)).returning();
  // Its sessions show and read times in the new zone from the next request on.
  if (set.timeZoneOffset !== undefined && set.timeZoneOffset !== account.timeZoneOffset) ctx.request.server.authenticator.invalidateAccount(account.id);
  return { State: 200 as const, UserInfo: await toUserInfo(ctx, updated!) };
}

export async function saveLoginLog(ctx: AuthedContext, body: { UserId?: number; ActionCode: number; ClientType: string; ClientCode: number }) {
  const { db } = ctx.deps.database;
  // The log is about the caller's own session; the address is the one the server sees.
  const [account] = await db.select().from(repo.accounts).where(eq(repo.accounts.id, ctx.user.id));
  if (!account) throw tokenInvalid();
  // The server already recorded a password change where it happened; the console's report of it is not repeated.
  const duplicate = body.ActionCode === LOG_ACTIONS.PASSWORD_CHANGE && (await repo.recentLog(db, account.id, body.ActionCode, 120_000));
  if (!duplicate) await log(ctx, account, body.ActionCode, { type: body.ClientType, code: body.ClientCode });
  if (body.ActionCode === LOG_ACTIONS.LOGOUT) {
    await db.update(repo.sessions).set({ revokedAt: new Date() }).where(eq(repo.sessions.id, ctx.user.sessionId));
    ctx.request.server.authenticator.forget(ctx.user.sessionId);
    ctx.deps.bus.publish(REALTIME_TOPICS.sessionsEnded, { accountId: ctx.user.id, sessionId: ctx.user.sessionId } satisfies SessionsEndedEvent);
  }
  return { State: 200 as const, Message: 'common.ok' };
}

export async function loginLogs(
  ctx: AuthedContext,
  body: { PageNo: number; PageCount: number; UserId?: number; ActionCode?: number; StartTime?: SentTime; EndTime?: SentTime; Keyword?: string },
) {
  if (body.UserId) await accountInScope(ctx.deps.database.db, ctx.user, body.UserId);
  const { total, items } = await repo.listLoginLogs(ctx.deps.database.db, ctx.user, {
    accountId: body.UserId,
    actionCode: body.ActionCode,
    from: sentInstant(ctx.user, body.StartTime),
    to: sentInstant(ctx.user, body.EndTime),
    keyword: body.Keyword?.trim() || undefined,
    offset: (body.PageNo - 1) * body.PageCount,
    limit: body.PageCount,
  });
  return {
    State: 200 as const,
    Total: total,
    Items: items.map((r) => ({
      Id: r.id,
      UserId: r.accountId,
      LoginName: r.loginName,
      ActionCode: r.actionCode,
      IPAddress: r.ip,
      Address: ipLocationIn(ctx.locale, r.ipLocation),
      ClientType: r.clientType,
      ClientCode: r.clientCode,
      CreateDT: shownTime(ctx.user, r.createdAt),
    })),
  };
}
