// Companion app packages: POST /api/app-packages takes the raw bytes of an APK or IPA (an
// administrator with app.edit), streams them to DATA_DIR/app under a random key while counting and
// hashing them, refuses more than APP_PACKAGE_MAX_MB, and keeps the file only when its content is
// a ZIP holding AndroidManifest.xml (Android) or Payload/<name>.app/Info.plist (iOS), whatever its
// name says. GET /api/app-packages/<key>.<apk|ipa> serves it to the apps (no token: the key is 128
// random bits).
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps.js';
import { exportContext } from '../../lib/export-sheet.js';
import { AppError, fieldError, notFound } from '../../lib/errors.js';
import { isPlatformAdministrator } from '@wt/contract';

export type AppPlatform = 'android' | 'ios';
const MB = 1024 * 1024;
export const PACKAGE_KEY = /^([a-f0-9]{32})\.(apk|ipa)$/;

export const packagesDir = (deps: AppDeps) => path.join(deps.config.DATA_DIR, 'app');
export const packageUrl = (key: string) => `/api/app-packages/${key}`;
export const platformOfKey = (key: string): AppPlatform => (key.endsWith('.ipa') ? 'ios' : 'android');

/** The names of a ZIP's entries, read from its central directory (the end of the file). */
async function zipEntryNames(file: string, size: number): Promise<string[] | null> {
  const fh = await open(file, 'r');
  try {
    const head = Buffer.alloc(4);
    await fh.read(head, 0, 4, 0);
    if (head.readUInt32LE(0) !== 0x04034b50) return null;
    // End of central directory: 22 bytes plus a comment of at most 64 KB.
    const tailLen = Math.min(size, 22 + 0xffff);
    const tail = Buffer.alloc(tailLen);
    await fh.read(tail, 0, tailLen, size - tailLen);
    let eocd = -1;
    for (let i = tailLen - 22; i >= 0; i--) {
      if (tail.readUInt32LE(i) === 0x06054b50) {
        eocd = i;
        break;
      }
    }
    if (eocd < 0) return null;
    const count = tail.readUInt16LE(eocd + 10);
    const dirSize = tail.readUInt32LE(eocd + 12);
    const dirOffset = tail.readUInt32LE(eocd + 16);
    if (dirOffset + dirSize > size || dirSize > 64 * MB) return null;
    const dir = Buffer.alloc(dirSize);
    await fh.read(dir, 0, dirSize, dirOffset);
    const names: string[] = [];
    for (let p = 0, n = 0; n < count && p + 46 <= dir.length; n++) {
      if (dir.readUInt32LE(p) !== 0x02014b50) return null;
      const nameLen = dir.readUInt16LE(p + 28);
      const extra = dir.readUInt16LE(p + 30);
      const comment = dir.readUInt16LE(p + 32);
      names.push(dir.toString('utf8', p + 46, p + 46 + nameLen));
      p += 46 + nameLen + extra + comment;
    }
    return names;
  } finally {
    await fh.close();
  }
}

/** Android or iOS by the package's content; null when it is neither. */
export async function sniffPackage(file: string, size: number): Promise<AppPlatform | null> {
  const names = await zipEntryNames(file, size);
  if (!names) return null;
  if (names.includes('AndroidManifest.xml')) return 'android';
  if (names.some((n) => /^Payload\/[^/]+\.app\/Info\.plist$/.test(n))) return 'ios';
  return null;
}

/** Size and SHA-256 of a stored package; null when it is not there. */
export async function packageInfo(deps: AppDeps, key: string): Promise<{ size: number; sha256: string } | null> {
  if (!PACKAGE_KEY.test(key)) return null;
  const file = path.join(packagesDir(deps), key);
  const s = await stat(file).catch(() => null);
  if (!s) return null;
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return { size: s.size, sha256: hash.digest('hex') };
}

export async function appPackageRoutes(app: FastifyInstance, opts: { deps: AppDeps }) {
  const { deps } = opts;
  await app.register(async (scope) => {
    // The body is the package itself, read as a stream below.
    scope.addContentTypeParser('*', (_req, payload, done) => done(null, payload));
    scope.post('/api/app-packages', { bodyLimit: deps.config.APP_PACKAGE_MAX_MB * MB + 1 }, async (request) => {
      const ctx = await exportContext(app, deps, request, 'app.edit');
      if (!isPlatformAdministrator(ctx.user)) throw new AppError(403, 'common.forbidden');
      const max = deps.config.APP_PACKAGE_MAX_MB * MB;
      const dir = packagesDir(deps);
      await mkdir(dir, { recursive: true });
      const id = randomBytes(16).toString('hex');
      const tmp = path.join(dir, `${id}.upload`);
      const hash = createHash('sha256');
      let size = 0;
      const count = new Transform({
        transform(chunk: Buffer, _enc, cb) {
          size += chunk.length;
          if (size > max) return cb(fieldError('File', 'app.fileTooLarge', { max: deps.config.APP_PACKAGE_MAX_MB }));
          hash.update(chunk);
          cb(null, chunk);
        },
      });
      try {
        await pipeline(request.body as NodeJS.ReadableStream, count, createWriteStream(tmp));
        const platform = size > 0 ? await sniffPackage(tmp, size) : null;
        if (!platform) throw fieldError('File', 'app.fileType');
        const key = `${id}.${platform === 'ios' ? 'ipa' : 'apk'}`;
        await rename(tmp, path.join(dir, key));
        const name = String((request.query as Record<string, unknown>).name ?? '').slice(0, 200);
        return { State: 200, FileKey: key, FileName: name, Platform: platform, Size: size, Sha256: hash.digest('hex'), Url: packageUrl(key) };
      } catch (err) {
        await rm(tmp, { force: true });
        if (err instanceof AppError) throw err;
        // A body over the limit (Fastify's own check) reads as too large, not as a failure of ours.
        if ((err as { code?: string }).code === 'FST_ERR_CTP_BODY_TOO_LARGE') throw fieldError('File', 'app.fileTooLarge', { max: deps.config.APP_PACKAGE_MAX_MB });
        throw err;
      }
    });
  });

  app.get<{ Params: { key: string } }>('/api/app-packages/:key', async (request, reply) => {
    const key = request.params.key;
    if (!PACKAGE_KEY.test(key)) throw notFound('app.notFound');
    const file = path.join(packagesDir(deps), key);
    const s = await stat(file).catch(() => null);
    if (!s) throw notFound('app.notFound');
    reply.header('content-type', key.endsWith('.apk') ? 'application/vnd.android.package-archive' : 'application/octet-stream');
    reply.header('content-length', s.size);
    reply.header('content-disposition', `attachment; filename="${key}"`);
    reply.header('cache-control', 'public, max-age=31536000, immutable');
    return reply.send(createReadStream(file));
  });
}
