// Companion app versions (SPEC §3 App version): per platform, the newest version (by its integer
// version code) is what apps are offered. An app below it is told to update; forced when that
// version is marked forced or the app is below its minimum supported version. The package is one
// uploaded to DATA_DIR (size and SHA-256 recorded) or an external URL; the update content is kept
// per language and answered in the app's.
import { State, messaging, resolveLocale, type CallResponse } from '@wt/contract';
import { defineCall, type AuthedContext } from '../../calls.js';
import { conflict, fieldError, notFound } from '../../lib/errors.js';
import { iso, isUniqueViolation, jsonParam, pagedQuery } from '../../lib/sql.js';
import { packageInfo, packageUrl, platformOfKey } from './packages.js';

type Row = Record<string, unknown>;
type AppItem = CallResponse<'/APPInfo/List'>['Items'][number];
type SaveBody = Omit<AppItem, 'Id' | 'Url' | 'Size' | 'Sha256' | 'CreatedAt' | 'UpdatedAt'> & { FileKey?: string; Url: string };

const toItem = (r: Row): AppItem => ({
  Id: Number(r.id),
  Platform: r.platform as 'android',
  OldVersion: String(r.old_version),
  NewVersion: String(r.new_version),
  VersionCode: Number(r.version_code),
  MinVersion: String(r.min_version),
  Forced: Number(r.forced),
  Url: r.file_key ? packageUrl(String(r.file_key)) : String(r.url),
  FileName: String(r.file_name ?? ''),
  Size: r.file_size === null ? null : Number(r.file_size),
  Sha256: (r.sha256 as string | null) ?? null,
  Content: (r.content ?? {}) as Record<string, string>,
  CreatedAt: iso(r.created_at as string)!,
  UpdatedAt: iso(r.updated_at as string)!,
});

/** The columns a save writes: the uploaded package checked (there, and for the version's platform), or the URL. */
async function columnsOf(ctx: AuthedContext, b: SaveBody) {
  let file: { key: string; size: number; sha256: string } | null = null;
  if (b.FileKey) {
    if (platformOfKey(b.FileKey) !== b.Platform) throw fieldError('FileKey', 'app.filePlatform', { actual: platformOfKey(b.FileKey), expected: b.Platform });
    const info = await packageInfo(ctx.deps, b.FileKey);
    if (!info) throw fieldError('FileKey', 'app.fileMissing');
    file = { key: b.FileKey, ...info };
  }
  const content = Object.fromEntries(Object.entries(b.Content).filter(([, v]) => v.trim() !== ''));
  return [
    b.Platform,
    b.OldVersion,
    b.NewVersion,
    b.VersionCode,
    b.MinVersion,
    b.Forced,
    file?.key ?? null,
    file ? b.FileName : '',
    file?.size ?? null,
    file?.sha256 ?? null,
    file ? '' : b.Url,
    jsonParam(content),
  ];
}

async function saving<T>(code: number, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict('app.versionCodeExists', { code });
    throw err;
  }
}

export const appCalls = [
  defineCall('/APPInfo/List', async (ctx, b) => {
    const where = b.Platform ? `WHERE platform = $1` : '';
    const params = b.Platform ? [b.Platform] : [];
    const { total, rows } = await pagedQuery<Row>(ctx.deps.database, { select: '*', from: `FROM app_versions ${where}`, order: 'platform, version_code DESC', params, page: b });
    return { State: State.OK, Total: total, Items: rows.map(toItem) };
  }),

  defineCall('/APPInfo/Save', async (ctx, b) => {
    const cols = await columnsOf(ctx, b);
    const [r] = await saving(b.VersionCode, () =>
      ctx.deps.database.query<Row>(
        `INSERT INTO app_versions (platform, old_version, new_version, version_code, min_version, forced, file_key, file_name, file_size, sha256, url, content, created_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12::jsonb, $13) RETURNING *`,
        [...cols, ctx.user.id],
      ),
    );
    return { State: State.OK, Item: toItem(r!) } as const;
  }),

  defineCall('/APPInfo/UpdateAppVersionByID', async (ctx, b) => {
    const [cur] = await ctx.deps.database.query<Row>(`SELECT file_key, file_name FROM app_versions WHERE id = $1`, [b.Id]);
    if (!cur) throw notFound('app.notFound');
    const cols = await columnsOf(ctx, { ...b, FileName: b.FileName || (b.FileKey === cur.file_key ? String(cur.file_name) : '') });
    const [r] = await saving(b.VersionCode, () =>
      ctx.deps.database.query<Row>(
        `UPDATE app_versions SET platform = $1, old_version = $2, new_version = $3, version_code = $4, min_version = $5, forced = $6,
                file_key = $7, file_name = $8, file_size = $9, sha256 = $10, url = $11, content = $12::jsonb, updated_at = now()
          WHERE id = $13 RETURNING *`,
        [...cols, b.Id],
      ),
    );
    return { State: State.OK, Item: toItem(r!) } as const;
  }),

  defineCall('/APPInfo/Delete', async (ctx, b) => {
    const rows = await ctx.deps.database.query(`DELETE FROM app_versions WHERE id = ANY($1::int[]) RETURNING id`, [b.Ids]);
    return { State: State.OK, Deleted: rows.length } as const;
  }),

  defineCall('/APPInfo/CheckAppVersion', async (ctx, b) => {
    const [latest] = await ctx.deps.database.query<Row>(`SELECT * FROM app_versions WHERE platform = $1 ORDER BY version_code DESC LIMIT 1`, [b.Platform]);
    if (!latest) return { State: State.OK, Update: false, Forced: false, NewVersion: '', VersionCode: 0, MinVersion: '', Url: '', Size: null, Sha256: null, Content: '' } as const;
    const item = toItem(latest);
    const update = messaging.compareVersions(b.Version, item.NewVersion) < 0;
    const belowMin = item.MinVersion !== '' && messaging.compareVersions(b.Version, item.MinVersion) < 0;
    const locale = resolveLocale(b.Language ?? ctx.locale);
    const content = item.Content[locale] || item.Content[locale === 'zh-TW' ? 'zh-CN' : locale === 'zh-CN' ? 'zh-TW' : 'en'] || Object.values(item.Content).find(Boolean) || '';
    return {
      State: State.OK,
      Update: update,
      Forced: update && (item.Forced === 1 || belowMin),
      NewVersion: item.NewVersion,
      VersionCode: item.VersionCode,
      MinVersion: item.MinVersion,
      Url: item.Url,
      Size: item.Size,
      Sha256: item.Sha256,
      Content: content,
    } as const;
  }),
];
