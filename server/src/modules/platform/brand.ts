// Platform info (SPEC §3) and white label. An account's brand is its row of platform_brands; an
// account without one shows the nearest brand above it. The menus a brand hides are hidden from
// every account below its owner (not from the owner, which could otherwise hide its own settings).
// A brand's key (`/login?platform=<key>`) and host name open the login page with its title and icon.
import { eq, inArray, sql } from 'drizzle-orm';
import { allRoutePaths, effectiveRoutes, isPlatformAdministrator, visibleRoutePaths, type Brand, type PlatformInfo, type SavePlatformBody } from '@wt/contract';
import type { AuthedContext, CallContext } from '../../calls.js';
import type { Db } from '../../db/client.js';
import { accounts, platformBrands } from '../../db/schema/index.js';
import { conflict, fieldError } from '../../lib/errors.js';
import { accountInScope, type AccountRow } from '../../lib/scope.js';
import { isUniqueViolation } from '../../lib/sql.js';
import { applySwitches } from './switches.js';
import { permissionSetOf } from '../user/repo.js';

type BrandRow = typeof platformBrands.$inferSelect;

/** Where a brand's icon is served (GET, public: the login page shows it). */
export const iconUrl = (icon: string) => (icon ? `/api/brand/icon/${icon}` : '');

/** The ids of a path, root first: '/1/5/12/' → [1, 5, 12]. */
export const pathIds = (path: string) => path.split('/').filter(Boolean).map(Number);

const splitMenus = (v: string) => v.split(',').map((s) => s.trim()).filter(Boolean);

function infoOf(r: BrandRow): PlatformInfo {
  return {
    UserId: r.accountId,
    Key: r.key ?? '',
    HostName: r.hostName ?? '',
    Title: r.title,
    PageTitle: r.pageTitle,
    IconUrl: iconUrl(r.icon),
    CompanyName: r.companyName,
    Phone: r.phone,
    Email: r.email,
    Address: r.address,
    HiddenMenus: splitMenus(r.hiddenMenus),
  };
}

export function publicBrand(r: BrandRow): Brand {
  return { Title: r.title, PageTitle: r.pageTitle, IconUrl: iconUrl(r.icon), CompanyName: r.companyName };
}

/** The brands on an account's path (itself and its ancestors), nearest first. */
async function brandsOnPath(db: Db, path: string): Promise<(BrandRow & { loginName: string })[]> {
  const ids = pathIds(path);
  const found = await db
    .select({ brand: platformBrands, loginName: accounts.loginName })
    .from(platformBrands)
    .innerJoin(accounts, eq(accounts.id, platformBrands.accountId))
    .where(inArray(platformBrands.accountId, ids));
  const depth = new Map(ids.map((id, i) => [id, i]));
  return found.map((f) => ({ ...f.brand, loginName: f.loginName })).sort((a, b) => depth.get(b.accountId)! - depth.get(a.accountId)!);
}

async function infoAnswer(db: Db, account: AccountRow) {
  const brands = await brandsOnPath(db, account.path);
  const own = brands.find((b) => b.accountId === account.id) ?? null;
  const nearest = brands[0] ?? null;
  const hidden = new Set(brands.filter((b) => b.accountId !== account.id).flatMap((b) => splitMenus(b.hiddenMenus)));
  return {
    State: 200 as const,
    Own: own ? infoOf(own) : null,
    Effective: nearest ? { ...publicBrand(nearest), OwnerId: nearest.accountId, OwnerLoginName: nearest.loginName } : null,
    HiddenMenus: [...hidden].sort(),
    isShowMapLabel: account.isShowMapLabel === 1 ? 1 : 2,
    switchFunctionSendCmd: account.switchFunctionSendCmd,
  };
}

export async function info(ctx: AuthedContext, body: { UserId?: number }) {
  const db = ctx.deps.database.db;
  return infoAnswer(db, await accountInScope(db, ctx.user, body.UserId));
}

const MENU_PATHS = new Set(allRoutePaths());


export async function save(ctx: AuthedContext, body: SavePlatformBody) {
  const db = ctx.deps.database.db;
  const account = await accountInScope(db, ctx.user, body.UserId);
  body.HiddenMenus.forEach((route, i) => {
    if (!MENU_PATHS.has(route)) throw fieldError(`HiddenMenus.${i}`, 'platform.menuUnknown', { route });
  });
  // Only a menu the account itself sees can be hidden from those below it (one hidden before stays allowed).
  const set = await permissionSetOf(db, account.permissionSetId);
  const visible = visibleRoutePaths(account.userType, effectiveRoutes(account.userType, set?.routes), isPlatformAdministrator(account));
  const [stored] = await db.select({ hidden: platformBrands.hiddenMenus }).from(platformBrands).where(eq(platformBrands.accountId, account.id));
  const before = new Set(splitMenus(stored?.hidden ?? ''));
  body.HiddenMenus.forEach((route, i) => {
    if (!visible.has(route) && !before.has(route)) throw fieldError(`HiddenMenus.${i}`, 'platform.menuNotVisible', { route });
  });
  const values = {
    key: body.Key || null,
    hostName: body.HostName || null,
    title: body.Title,
    pageTitle: body.PageTitle,
    companyName: body.CompanyName,
    phone: body.Phone,
    email: body.Email,
    address: body.Address,
    hiddenMenus: [...new Set(body.HiddenMenus)].join(','),
    updatedAt: new Date(),
  };
  const taken = async () => {
    if (values.key) {
      const [k] = await db.select({ id: platformBrands.accountId }).from(platformBrands).where(eq(platformBrands.key, values.key));
      if (k && k.id !== account.id) return conflict('platform.keyTaken', { key: values.key });
    }
    if (values.hostName) {
      const [h] = await db
        .select({ id: platformBrands.accountId })
        .from(platformBrands)
        .where(sql`lower(${platformBrands.hostName}) = ${values.hostName}`);
      if (h && h.id !== account.id) return conflict('platform.hostTaken', { host: values.hostName });
    }
    return null;
  };
  const clash = await taken();
  if (clash) throw clash;
  try {
    await db.transaction(async (tx) => {
      await tx
        .insert(platformBrands)
        .values({ accountId: account.id, ...values })
        .onConflictDoUpdate({ target: platformBrands.accountId, set: values });
      // The switches follow the rules of the function switches (who may turn which).
      await applySwitches(ctx, tx as unknown as Db, account, { isShowMapLabel: body.isShowMapLabel, switchFunctionSendCmd: body.switchFunctionSendCmd });
    });
  } catch (err) {
    // Another save took the key or host name between the check and the write.
    if (isUniqueViolation(err)) throw (await taken()) ?? conflict('platform.keyTaken', { key: values.key ?? '' });
    throw err;
  }
  const [fresh] = await db.select().from(accounts).where(eq(accounts.id, account.id));
  return infoAnswer(db, fresh!);
}

/** The brand the login page shows: by key, else by the host name the page was asked for. */
export async function brand(ctx: CallContext, body: { Key?: string }) {
  const db = ctx.deps.database.db;
  const key = body.Key?.trim().toLowerCase();
  let row: BrandRow | undefined;
  if (key) [row] = await db.select().from(platformBrands).where(eq(platformBrands.key, key)).limit(1);
  if (!row) {
    const host = (ctx.request.hostname ?? '').replace(/:\d+$/, '').toLowerCase();
    if (host) [row] = await db.select().from(platformBrands).where(sql`lower(${platformBrands.hostName}) = ${host}`).limit(1);
  }
  return { State: 200 as const, Item: row ? publicBrand(row) : null };
}
