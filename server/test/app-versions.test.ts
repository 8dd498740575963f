// Companion app versions: publishing with an uploaded package (checked by content: APK or IPA,
// size limit) or an external URL, editing, and CheckAppVersion across forced, optional and
// minimum-version cases in the app's language; only administrators publish.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, startTestPlatform, type TestPlatform } from './helpers.js';
import { zipOf } from './zip-fixture.js';

const APK = zipOf({ 'AndroidManifest.xml': '<manifest/>', 'classes.dex': 'dex\n035' });
const IPA = zipOf({ 'Payload/Guardian.app/Info.plist': '<plist/>', 'Payload/Guardian.app/Guardian': 'bin' });

describe.each(databases())('app versions on %s', (kind) => {
  let p: TestPlatform;
  let admin: string;
  beforeAll(async () => {
    p = await startTestPlatform(kind, { APP_PACKAGE_MAX_MB: '1' });
    admin = (await p.login()).token;
  });
  afterAll(() => p?.stop());

  const upload = async (bytes: Buffer, token = admin, name = 'guardian.apk') => {
    const res = await fetch(`${p.url}/api/app-packages?name=${encodeURIComponent(name)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream', authorization: `Bearer ${token}` },
      body: new Uint8Array(bytes),
    });
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  };
  const check = async (Platform: string, Version: string, Language?: string) => (await p.call('/APPInfo/CheckAppVersion', { Platform, Version, Language })).body;

  it('stores an uploaded APK with its size and SHA-256, and serves it', async () => {
    const up = await upload(APK);
    expect(up.body).toMatchObject({ State: 200, Platform: 'android', Size: APK.length, Sha256: createHash('sha256').update(APK).digest('hex') });
    const saved = await p.call(
      '/APPInfo/Save',
      { Platform: 'android', OldVersion: '1.0.0', NewVersion: '1.2.0', VersionCode: 12, MinVersion: '1.0.5', Forced: 2, FileKey: up.body.FileKey, FileName: 'guardian.apk', Content: { 'zh-CN': '修复定位问题', en: 'Fixes location' } },
      admin,
    );
    expect(saved.body.Item).toMatchObject({ NewVersion: '1.2.0', Size: APK.length, Sha256: up.body.Sha256, FileName: 'guardian.apk', Url: `/api/app-packages/${up.body.FileKey}` });
    const file = await fetch(`${p.url}${saved.body.Item.Url}`);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('application/vnd.android.package-archive');
    expect(Buffer.from(await file.arrayBuffer()).equals(APK)).toBe(true);
  });

  it('answers the app: optional above the minimum, forced below it or when marked, nothing when current', async () => {
    expect(await check('android', '1.1.0', 'en')).toMatchObject({ State: 200, Update: true, Forced: false, NewVersion: '1.2.0', Content: 'Fixes location' });
    expect(await check('android', '1.0.4', 'zh-CN')).toMatchObject({ Update: true, Forced: true, Content: '修复定位问题' });
    // zh-TW has no text of its own: the simplified one comes.
    expect((await check('android', '1.0.10', 'zh-TW')).Content).toBe('修复定位问题');
    expect(await check('android', '1.2.0')).toMatchObject({ Update: false, Forced: false });
    expect(await check('android', '1.10.0')).toMatchObject({ Update: false });
    expect(await check('ios', '1.0.0')).toMatchObject({ Update: false, NewVersion: '' });

    // An iOS version marked forced, with an external URL.
    const ios = await p.call('/APPInfo/Save', { Platform: 'ios', NewVersion: '2.0', VersionCode: 20, Forced: 1, Url: 'https://apps.apple.com/app/id123', Content: { en: 'New look' } }, admin);
    expect(ios.body.State).toBe(200);
    expect(await check('ios', '1.9.9', 'en')).toMatchObject({ Update: true, Forced: true, Url: 'https://apps.apple.com/app/id123', Size: null, Content: 'New look' });

    // Editing the Android version to forced forces everyone below it.
    const list = (await p.call('/APPInfo/List', { Platform: 'android' }, admin)).body.Items;
    const edit = await p.call('/APPInfo/UpdateAppVersionByID', { ...list[0], Id: list[0].Id, FileKey: list[0].Url.split('/').pop(), Url: '', Forced: 1 }, admin);
    expect(edit.body.Item).toMatchObject({ Forced: 1, FileName: 'guardian.apk' });
    expect(await check('android', '1.1.0')).toMatchObject({ Update: true, Forced: true });
  });

  it('refuses packages that are not APK or IPA, too large, for the other platform, and bad fields', async () => {
    expect((await upload(Buffer.from('MZ not a zip at all'))).body.Fields[0]).toMatchObject({ Field: 'File', Message: 'app.fileType' });
    expect((await upload(zipOf({ 'readme.txt': 'hello' }))).body.Fields[0].Message).toBe('app.fileType');
    expect((await upload(Buffer.alloc(1024 * 1024 + 10, 1))).body.Fields[0]).toMatchObject({ Field: 'File', Message: 'app.fileTooLarge' });
    const ipa = await upload(IPA, admin, 'guardian.ipa');
    expect(ipa.body.Platform).toBe('ios');
    const wrong = await p.call('/APPInfo/Save', { Platform: 'android', NewVersion: '1.3', VersionCode: 13, FileKey: ipa.body.FileKey, Content: { en: 'x' } }, admin);
    expect(wrong.body.Fields[0]).toMatchObject({ Field: 'FileKey', Message: 'app.filePlatform' });
    const bad = await p.call('/APPInfo/Save', { Platform: 'android', NewVersion: 'v1', VersionCode: 0, MinVersion: '9.0', Content: {} }, admin);
    const fields = Object.fromEntries(bad.body.Fields.map((f: { Field: string; Message: string }) => [f.Field, f.Message]));
    expect(fields).toMatchObject({ NewVersion: 'app.versionFormat', VersionCode: 'validation.min', Url: 'app.packageRequired', 'Content.zh-CN': 'app.contentRequired' });
    const same = await p.call('/APPInfo/Save', { Platform: 'android', NewVersion: '1.2.1', VersionCode: 12, Url: 'https://example.com/a.apk', Content: { en: 'x' } }, admin);
    expect(same.body).toMatchObject({ State: 409, Message: 'app.versionCodeExists' });
    const above = await p.call('/APPInfo/Save', { Platform: 'android', NewVersion: '1.3', VersionCode: 13, MinVersion: '1.4', Url: 'https://example.com/a.apk', Content: { en: 'x' } }, admin);
    expect(above.body.Fields[0]).toMatchObject({ Field: 'MinVersion', Message: 'app.minAboveNew' });
    expect((await check('android', 'latest')).Fields[0]).toMatchObject({ Field: 'Version', Message: 'app.versionFormat' });
  });

  it('lets only administrators publish', async () => {
    const agent = (await p.login('agent01')).token;
    expect((await upload(APK, agent)).status).toBe(403);
    expect((await p.call('/APPInfo/Save', { Platform: 'android', NewVersion: '9', VersionCode: 90, Url: 'https://example.com/a.apk', Content: { en: 'x' } }, agent)).body.State).toBe(403);
    expect((await p.call('/APPInfo/Delete', { Ids: [1] }, agent)).body.State).toBe(403);
    expect((await fetch(`${p.url}/api/app-packages/${'0'.repeat(32)}.apk`)).status).toBe(404);
  });
});
