// The files of indoor scenes: checking uploads (a scene's SVG map, a floor's PNG plan, a scene's
// PNG or SVG icon) by their content, and serving them. Files live in the rows; each stored file gets
// a new random key, and its URL names the row and that key (`<id>-<key>`), so a URL is unguessable,
// found by primary key, and never names other bytes: the answer is cached for a year.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { sql } from 'drizzle-orm';
import { scene as schemas } from '@wt/contract';
import type { AppDeps } from '../../deps.js';
import { fieldError } from '../../lib/errors.js';
import { rows } from '../../lib/sql.js';
import {
  declaresEntities,
  decodeUpload,
  isPng,
  isSvg,
  pngInfo,
  sanitizeSvg,
  sniffImage,
  svgText,
} from '../../lib/uploads.js';

const { FLOOR_PLAN_MAX_BYTES, FLOOR_PLAN_MAX_SIDE, SCENE_ICON_MAX_BYTES, SCENE_MAP_MAX_BYTES } = schemas;
const MB = 1024 * 1024;

/** A new file key: 128 random bits, hex. */
export const newFileKey = () => randomBytes(16).toString('hex');

export const mapUrl = (sceneId: number, key: string) => `/api/scene/map/${sceneId}-${key}.svg`;
export const planUrl = (floorId: number, key: string) => `/api/scene/plan/${floorId}-${key}.png`;
export const iconUrl = (sceneId: number, key: string | null) =>
  key ? `/api/scene/icon/${sceneId}-${key}` : null;

/** The sanitized SVG map of field `field`: SVG only, under 6 MB, something left once cleaned. */
export function checkMap(data: string, field = 'MapSvg'): string {
  const bytes = decodeUpload(data);
  if (!bytes || !bytes.length) throw fieldError(field, 'scene.mapType');
  if (bytes.length >= SCENE_MAP_MAX_BYTES)
    throw fieldError(field, 'scene.mapTooLarge', { max: SCENE_MAP_MAX_BYTES / MB });
  const text = svgText(bytes);
  // Entity declarations are never expanded; a map declaring them is refused whole.
  if (declaresEntities(text)) throw fieldError(field, 'scene.mapInvalid');
  if (!isSvg(bytes)) throw fieldError(field, 'scene.mapType');
  // A map of which nothing drawable is left once cleaned is no map.
  const clean = sanitizeSvg(text, { requireContent: true });
  if (!clean) throw fieldError(field, 'scene.mapInvalid');
  return clean;
}

/** A floor plan: PNG by its bytes, with a readable header giving its size, within the limits. */
export function checkPlan(data: string, field = 'Plan'): { bytes: Buffer; width: number; height: number } {
  const bytes = decodeUpload(data);
  const tooLarge = () =>
    fieldError(field, 'scene.planTooLarge', { max: FLOOR_PLAN_MAX_BYTES / MB, side: FLOOR_PLAN_MAX_SIDE });
  if (!bytes || !isPng(bytes)) throw fieldError(field, 'scene.planType');
  if (bytes.length > FLOOR_PLAN_MAX_BYTES) throw tooLarge();
  const info = pngInfo(bytes);
  if (!info) throw fieldError(field, 'scene.planType');
  if (info.width > FLOOR_PLAN_MAX_SIDE || info.height > FLOOR_PLAN_MAX_SIDE) throw tooLarge();
  return { bytes, ...info };
}

/** A scene icon: PNG (with a readable header) or SVG (sanitized), at most 256 KB. */
export function checkSceneIcon(data: string, field = 'Icon'): { bytes: Buffer; type: 'png' | 'svg' } {
  const invalid = () => fieldError(field, 'scene.iconInvalid', { max: SCENE_ICON_MAX_BYTES / 1024 });
  const bytes = decodeUpload(data);
  if (!bytes || !bytes.length || bytes.length > SCENE_ICON_MAX_BYTES) throw invalid();
  const type = sniffImage(bytes);
  if (type === 'png') {
    if (!pngInfo(bytes)) throw invalid();
    return { bytes, type };
  }
  if (type !== 'svg' || declaresEntities(svgText(bytes))) throw invalid();
  const clean = sanitizeSvg(svgText(bytes));
  if (!clean) throw invalid();
  return { bytes: Buffer.from(clean, 'utf8'), type };
}

const ID_KEY = /^(\d{1,10})-([a-f0-9]{32})$/;

/** The row id and key of a file name with the given extension, or null. */
function parseName(name: string, ext: string): { id: number; key: string } | null {
  if (!name.endsWith(ext)) return null;
  const m = ID_KEY.exec(name.slice(0, name.length - ext.length));
  if (!m || Number(m[1]) > 2147483647) return null;
  return { id: Number(m[1]), key: m[2]! };
}

const sameKey = (a: string | null, b: string) =>
  a !== null && a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

function send(reply: FastifyReply, type: string, body: Buffer | string) {
  return (
    reply
      .type(type)
      .header('cache-control', 'public, max-age=31536000, immutable')
      // Opened on its own, an SVG may not run or load anything.
      .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; img-src data:")
      .header('x-content-type-options', 'nosniff')
      .send(body)
  );
}

const notFound = (reply: FastifyReply) => reply.code(404).type('text/plain').send('Not found');

/**
 * GET /api/scene/map/<id>-<key>.svg, /api/scene/plan/<id>-<key>.png, /api/scene/icon/<id>-<key>:
 * public like the brand icon (an <img> sends no token); the random key is what protects them.
 */
export const sceneFileRoutes: FastifyPluginAsync<{ deps: AppDeps }> = async (app, { deps }) => {
  const db = () => deps.database.db;

  app.get<{ Params: { name: string } }>('/api/scene/map/:name', async (req, reply) => {
    const ref = parseName(req.params.name, '.svg');
    if (!ref) return notFound(reply);
    const [row] = await rows<{ map_svg: string; map_key: string }>(
      db(),
      sql`SELECT map_svg, map_key FROM scenes WHERE id = ${ref.id}`,
    );
    if (!row || !sameKey(row.map_key, ref.key)) return notFound(reply);
    return send(reply, 'image/svg+xml', row.map_svg);
  });

  app.get<{ Params: { name: string } }>('/api/scene/plan/:name', async (req, reply) => {
    const ref = parseName(req.params.name, '.png');
    if (!ref) return notFound(reply);
    const [row] = await rows<{ plan: Buffer | Uint8Array; plan_key: string }>(
      db(),
      sql`SELECT plan, plan_key FROM floors WHERE id = ${ref.id}`,
    );
    if (!row || !sameKey(row.plan_key, ref.key)) return notFound(reply);
    return send(reply, 'image/png', Buffer.from(row.plan));
  });

  app.get<{ Params: { name: string } }>('/api/scene/icon/:name', async (req, reply) => {
    const ref = parseName(req.params.name, '');
    if (!ref) return notFound(reply);
    const [row] = await rows<{
      icon: Buffer | Uint8Array | null;
      icon_type: string | null;
      icon_key: string | null;
    }>(db(), sql`SELECT icon, icon_type, icon_key FROM scenes WHERE id = ${ref.id}`);
    if (!row?.icon || !sameKey(row.icon_key, ref.key)) return notFound(reply);
    return send(reply, row.icon_type === 'svg' ? 'image/svg+xml' : 'image/png', Buffer.from(row.icon));
  });
};
