// A brand's icon: PNG, ICO or SVG, recognised by its bytes (never by its name or claimed type), at
// most 512 KB. An SVG is sanitized before it is stored: no scripts, event handlers, foreignObject,
// style sheets or references outside the file. Stored under DATA_DIR/brand with a random name and
// served by GET /api/brand/icon/<name> (public: the login page shows it).
import { randomBytes } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyPluginAsync } from 'fastify';
import { eq } from 'drizzle-orm';
import { BRAND_ICON_MAX_BYTES } from '@wt/contract';
import type { AuthedContext } from '../../calls.js';
import type { AppDeps } from '../../deps.js';
import { platformBrands } from '../../db/schema/index.js';
import { badRequest } from '../../lib/errors.js';
import { accountInScope } from '../../lib/scope.js';
import { decodeUpload, isPng, isSvg, sanitizeSvg, svgText } from '../../lib/uploads.js';
import { iconUrl } from './brand.js';

export const BRAND_DIR = (dataDir: string) => path.resolve(dataDir, 'brand');
export const ICON_NAME = /^\d+-[a-f0-9]{16}\.(png|svg|ico)$/;
const MIME: Record<string, string> = { png: 'image/png', svg: 'image/svg+xml', ico: 'image/x-icon' };

type IconType = 'png' | 'ico' | 'svg';

/** The icon type the bytes are, or null. */
export function sniffIcon(b: Buffer): IconType | null {
  if (isPng(b)) return 'png';
  // ICONDIR: reserved 0, type 1 (icon), at least one image.
  if (b.length > 6 && b.readUInt16LE(0) === 0 && b.readUInt16LE(2) === 1 && b.readUInt16LE(4) > 0) return 'ico';
  return isSvg(b) ? 'svg' : null;
}

/**
 * Checks and, for an SVG, cleans an icon; answers the bytes to store and their type. A refusal is a
 * message about the icon itself, not about the call's internal `Data` field.
 */
export function checkIcon(data: string): { bytes: Buffer; type: IconType } {
  const bytes = decodeUpload(data);
  if (!bytes || bytes.length === 0) throw badRequest('platform.iconInvalid');
  if (bytes.length > BRAND_ICON_MAX_BYTES) throw badRequest('platform.iconTooLarge', { max: BRAND_ICON_MAX_BYTES / 1024 });
  const type = sniffIcon(bytes);
  if (!type) throw badRequest('platform.iconType');
  if (type !== 'svg') return { bytes, type };
  const clean = sanitizeSvg(svgText(bytes));
  if (!clean) throw badRequest('platform.iconInvalid');
  return { bytes: Buffer.from(clean, 'utf8'), type };
}

export async function uploadIcon(ctx: AuthedContext, body: { UserId?: number; Data: string }) {
  const db = ctx.deps.database.db;
  const account = await accountInScope(db, ctx.user, body.UserId);
  const { bytes, type } = checkIcon(body.Data);
  const name = `${account.id}-${randomBytes(8).toString('hex')}.${type}`;
  const dir = BRAND_DIR(ctx.deps.config.DATA_DIR);
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, name), bytes);
  const [old] = await db.select({ icon: platformBrands.icon }).from(platformBrands).where(eq(platformBrands.accountId, account.id));
  await db
    .insert(platformBrands)
    .values({ accountId: account.id, icon: name })
    .onConflictDoUpdate({ target: platformBrands.accountId, set: { icon: name, updatedAt: new Date() } });
  if (old?.icon && ICON_NAME.test(old.icon)) await rm(path.join(dir, old.icon), { force: true });
  return { State: 200 as const, IconUrl: iconUrl(name) };
}

/** GET /api/brand/icon/<name>: names are random and never reused, so the answer is cached for good. */
export const brandIconRoutes: FastifyPluginAsync<{ deps: AppDeps }> = async (app, { deps }) => {
  app.get<{ Params: { name: string } }>('/api/brand/icon/:name', async (req, reply) => {
    const { name } = req.params;
    const file = path.join(BRAND_DIR(deps.config.DATA_DIR), name);
    if (!ICON_NAME.test(name) || !existsSync(file)) return reply.code(404).type('text/plain').send('Not found');
    return reply
      .type(MIME[name.split('.').pop()!]!)
      .header('cache-control', 'public, max-age=31536000, immutable')
      // Opened on its own, an SVG may not run or load anything.
      .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; img-src data:")
      .send(createReadStream(file));
  });
};
