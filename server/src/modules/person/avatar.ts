// Wearer avatars: a data: URL from the console, checked (type by its bytes, size) and written under
// DATA_DIR/uploads/avatars with a random name; served by GET /api/uploads/avatars/<name>.
import { randomBytes } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { State, person as personSchemas } from '@wt/contract';
import { AppError } from '../../lib/errors.js';

export const AVATAR_DIR = (dataDir: string) => path.resolve(dataDir, 'uploads', 'avatars');
export const AVATAR_NAME = /^[a-f0-9]{32}\.(png|jpg|gif|webp)$/;
export const AVATAR_URL_PREFIX = '/api/uploads/avatars/';

const EXT: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/gif': 'gif', 'image/webp': 'webp' };
const MIME: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp' };
export const avatarMime = (name: string) => MIME[name.split('.').pop()!] ?? 'application/octet-stream';

/** The image type the bytes really are, whatever the data: URL claims. */
function sniff(b: Buffer): string | undefined {
  if (b.length > 8 && b[0] === 0x89 && b.toString('latin1', 1, 4) === 'PNG') return 'image/png';
  if (b.length > 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
  if (b.length > 6 && b.toString('latin1', 0, 4) === 'GIF8') return 'image/gif';
  if (b.length > 12 && b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WEBP') return 'image/webp';
  return undefined;
}

const invalid = (key: string, params?: Record<string, unknown>) =>
  new AppError(State.BAD_REQUEST, 'common.validation', undefined, [{ Field: 'Avatar', Message: key, Params: params }]);

/** Stores the avatar and answers its file name. */
export async function saveAvatar(dataDir: string, dataUrl: string): Promise<string> {
  const m = /^data:([\w/+.-]+);base64,(.*)$/s.exec(dataUrl.trim());
  if (!m) throw invalid('device.avatarType');
  const claimed = m[1]!.toLowerCase();
  if (!(personSchemas.AVATAR_TYPES as readonly string[]).includes(claimed)) throw invalid('device.avatarType');
  const bytes = Buffer.from(m[2]!, 'base64');
  if (bytes.length > personSchemas.AVATAR_MAX_BYTES) throw invalid('device.avatarTooLarge', { max: personSchemas.AVATAR_MAX_BYTES / 1024 / 1024 });
  const real = sniff(bytes);
  if (!real) throw invalid('device.avatarType');
  const name = `${randomBytes(16).toString('hex')}.${EXT[real]}`;
  const dir = AVATAR_DIR(dataDir);
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, name), bytes);
  return name;
}

export async function removeAvatar(dataDir: string, name: string) {
  if (AVATAR_NAME.test(name)) await rm(path.join(AVATAR_DIR(dataDir), name), { force: true });
}
