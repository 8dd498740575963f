// Texts the server stores or sends, in the reader's language: alarm contents (records, the realtime
// event, exports, partner pushes), alarm type names (zh-TW traditional, an administrator's edit
// converted), command names by code (seeded rows and migrated ones), the import sheet's columns,
// the track export and the login log's places.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALARM_CODES as C, type RealtimeMessage } from '@wt/contract';
import { REALTIME_TOPICS } from '../src/realtime/topics.js';
import { databases, startTestPlatform, type TestPlatform } from './helpers.js';
import { addDevice, deviceAlarm, healthReading, type TestDevice } from './alarm-fixtures.js';
import { RealtimeClient } from './monitor-fixtures.js';

const HAN = /[\u3400-\u9fff]/;

async function sheet(res: Response) {
  expect(res.status).toBe(200);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(Buffer.from(await res.arrayBuffer()) as never);
  return wb;
}
const rowValues = (ws: ExcelJS.Worksheet, n: number) => (ws.getRow(n).values as unknown[]).slice(1);

describe.each(databases())('texts in the reader’s language on %s', (kind) => {
  let p: TestPlatform;
  let admin: string;
  let agent: string;
  let watch: TestDevice;
  const raised: Record<string, unknown>[] = [];
  const as = (token: string, language: string) => ({ token, headers: { 'x-language': language } });
  const call = (path: string, body: unknown, who: { token: string; headers: Record<string, string> }) => p.call(path, body, who.token, who.headers);

  beforeAll(async () => {
    p = await startTestPlatform(kind, { OUTBOUND_ALLOW: '127.0.0.1/32' });
    p.deps.bus.subscribe(REALTIME_TOPICS.alarmRaised, (e) => raised.push(e as Record<string, unknown>));
    admin = (await p.login()).token;
    agent = (await p.login('agent01')).token;
    watch = await addDevice(p, 'clinic01', '865000000007001', 'Grandma');
  });
  afterAll(() => p?.stop());

  it('sends an alarm on the realtime socket with its key and parameters, and lists it in the caller’s language', async () => {
    const { token, userId } = await p.login('agent01');
    const socket = await RealtimeClient.connect(p.url, token, userId);
    try {
      await healthReading(p, watch, { heartRate: 150 });
      const event = raised.find((e) => e.NotificationType === C.heartRateHigh)!;
      expect(event).toMatchObject({ MessageKey: 'alarm.msg.above', MessageParams: { measure: 'heartRate', value: 150, limit: 120 } });
      // Partner clients without the catalogue still get the text.
      expect(event.Message).toBe('心率 150 高于上限 120');
      const m = (await socket.until((x) => x.type === 'alarm' && x.alarm.NotificationType === C.heartRateHigh)) as Extract<RealtimeMessage, { type: 'alarm' }>;
      expect(m.alarm).toMatchObject({ MessageKey: 'alarm.msg.above', MessageParams: { measure: 'heartRate', value: 150, limit: 120 } });
    } finally {
      socket.close();
    }
    const list = async (language: string) =>
      (await call('/ExceptionMessage/allExceptionMsgPage', { PageNo: 1, PageCount: 10, Type: [C.heartRateHigh] }, as(agent, language))).body.Items[0].Message;
    expect(await list('en')).toBe('Heart rate 150 above the upper limit 120');
    expect(await list('zh-TW')).toBe('心率 150 高於上限 120');
    expect(await list('zh-CN')).toBe('心率 150 高于上限 120');
    const record = (await call('/ExceptionMessage/allExceptionMsgPage', { PageNo: 1, PageCount: 10, Type: [C.heartRateHigh] }, as(agent, 'en'))).body.Items[0];
    expect(record).toMatchObject({ MessageKey: 'alarm.msg.above', MessageParams: { measure: 'heartRate', value: 150, limit: 120 } });
  });

  it('names alarm types in zh-TW in traditional characters, an administrator’s edit included', async () => {
    const types = async (language: string) => (await call('/ExceptionMessage/ExcdeptionListWhitoutCode', {}, as(agent, language))).body.Items as Record<string, any>[];
    const tw = await types('zh-TW');
    expect(tw.find((t) => t.Code === C.accountFenceIn)).toMatchObject({ NameZh: '进入账户围栏', Name: '進入帳戶圍欄', Description: '裝置進入了帳戶圍欄' });
    expect(tw.find((t) => t.Code === C.offline)!.Name).toBe('裝置離線');
    expect((await types('en')).find((t) => t.Code === C.accountFenceIn)).toMatchObject({ Name: 'Entered account fence', Description: 'The device entered an account fence' });
    expect((await types('zh-CN')).find((t) => t.Code === C.accountFenceIn)!.Name).toBe('进入账户围栏');

    const lowBat = tw.find((t) => t.Code === C.lowBattery)!;
    const saved = await p.call('/ExceptionMessage/saveExceptionType', { ...lowBat, NameZh: '电池电量报警', DescriptionZh: '账户下设备电量低' }, admin);
    expect(saved.body.State).toBe(200);
    const edited = (await types('zh-TW')).find((t) => t.Code === C.lowBattery)!;
    expect(edited).toMatchObject({ NameZh: '电池电量报警', Name: '電池電量報警', Description: '帳戶下裝置電量低' });
    expect((await types('zh-CN')).find((t) => t.Code === C.lowBattery)!.Name).toBe('电池电量报警');
    // A zh-TW reader finds a type by the name they see.
    const found = await call('/ExceptionMessage/ExceptionType', { PageNo: 1, PageCount: 10, Keyword: '電池電量' }, as(admin, 'zh-TW'));
    expect(found.body.Items.map((t: { Code: number }) => t.Code)).toEqual([C.lowBattery]);
  });

  it('exports alarm records with type names and contents in the caller’s language', async () => {
    const exportAs = (language: string) =>
      fetch(`${p.url}/api/export/alarm-records`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${agent}`, 'x-language': language },
        body: JSON.stringify({ Type: [C.heartRateHigh] }),
      });
    const en = (await sheet(await exportAs('en'))).worksheets[0]!;
    expect(rowValues(en, 1)).toContain('Type');
    const row = rowValues(en, 2);
    expect(row).toContain('Heart rate high');
    expect(row).toContain('Heart rate 150 above the upper limit 120');
    // Nothing but the user's data (device and account names) is Chinese.
    expect(row.filter((v) => typeof v === 'string' && HAN.test(v))).toEqual([watch.name, '康宁养老院'].filter((v) => HAN.test(v)));
    const tw = rowValues((await sheet(await exportAs('zh-TW'))).worksheets[0]!, 2);
    expect(tw).toContain('心率過高');
    expect(tw).toContain('心率 150 高於上限 120');
  });

  it('pushes an alarm to a partner in the language of the account the company belongs to', async () => {
    await p.deps.database.query(`UPDATE accounts SET language = 'en' WHERE login_name = 'admin'`);
    const saved = await p.call('/Push/SaveCompany', { Name: 'Night Desk', PushUrl: 'http://127.0.0.1:9/alarms', VerificationCode: 'night-desk-secret', PushModel: 1, DefaultFormat: 2 }, admin);
    expect(saved.body.State).toBe(200);
    await deviceAlarm(p, watch, 'fall');
    const [row] = await p.deps.database.query<{ body: string }>(`SELECT body FROM push_outbox WHERE company_id = $1`, [saved.body.Id]);
    expect(JSON.parse(row!.body)).toMatchObject({ NotificationType: C.fall, Message: 'A fall was detected' });
  });

  it('names commands by code in the caller’s language; the dictionary keeps only overrides', async () => {
    const list = async (language: string, body: Record<string, unknown> = {}) =>
      (await call('/Command/cmdCollectionForPaging', { PageNo: 1, PageCount: 100, ...body }, as(admin, language))).body.Items as Record<string, any>[];
    const all = await list('en');
    expect(all.length).toBeGreaterThan(10);
    expect(all.every((c) => c.Name === '' && c.Details === '')).toBe(true);
    // A search finds commands by their name in the caller's language.
    expect((await list('en', { Keyword: 'heart rate' })).map((c) => c.Code)).toEqual(expect.arrayContaining(['HEART_RATE', 'HEART_RATE_THRESHOLD']));
    expect((await list('zh-CN', { Keyword: '心率' })).map((c) => c.Code)).toEqual(expect.arrayContaining(['HEART_RATE', 'HEART_RATE_THRESHOLD']));
    // The name may be left empty when saving.
    const upload = all.find((c) => c.Code === 'UPLOAD')!;
    const saved = await p.call('/Command/SaveCommandDictionary', { CommandId: upload.CommandId, ProtocolId: upload.ProtocolId, Code: 'UPLOAD', Name: '', Details: '' }, admin);
    expect(saved.body.State).toBe(200);
  });

  it('migrates the seeded command texts to the catalogue and keeps an administrator’s own', async () => {
    const [c] = await p.deps.database.query<{ id: number; protocol_id: number }>(`SELECT id, protocol_id FROM command_dictionary WHERE code = 'FIND'`);
    const [r] = await p.deps.database.query<{ id: number }>(`SELECT id FROM command_dictionary WHERE code = 'RESET' AND protocol_id = $1`, [c!.protocol_id]);
    // As the catalogue was first written, and an administrator's own name.
    await p.deps.database.query(`UPDATE command_dictionary SET name = '查找设备', details = 'Make the device ring to find it' WHERE id = $1`, [c!.id]);
    await p.deps.database.query(`UPDATE command_dictionary SET name = '重启一下', details = '' WHERE id = $1`, [r!.id]);
    const file = path.join(import.meta.dirname, '../src/db/migrations/0008_command_texts_by_code.sql');
    for (const statement of readFileSync(file, 'utf8').split('--> statement-breakpoint')) await p.deps.database.query(statement);
    const rows = await p.deps.database.query<{ id: number; name: string; details: string }>(`SELECT id, name, details FROM command_dictionary WHERE id IN ($1, $2)`, [c!.id, r!.id]);
    expect(rows.find((x) => x.id === c!.id)).toMatchObject({ name: '', details: '' });
    expect(rows.find((x) => x.id === r!.id)).toMatchObject({ name: '重启一下' });
  });

  it('titles the import template’s columns in the reader’s language and reads headers in any of them', async () => {
    const template = async (language: string) => sheet(await fetch(`${p.url}/api/device/import-template.xlsx`, { headers: { 'x-language': language } }));
    const en = await template('en');
    expect(rowValues(en.worksheets[0]!, 1)).toEqual(['Login name', 'Password', 'User name', 'Email', 'IMEI', 'ICCID', 'Model', 'Device name']);
    expect(en.worksheets.map((w) => w.name)).toEqual(['Devices', 'Models']);
    const tw = await template('zh-TW');
    expect(rowValues(tw.worksheets[0]!, 1)).toEqual(['登入帳號', '密碼', '使用者名稱', '郵箱', 'IMEI', 'ICCID', '型號', '裝置名稱']);
    // Each language's template, and one with the raw names mixed in, is read back.
    for (const wb of [en, tw, await template('zh-CN')]) {
      const r = await p.call('/Device/batchDevicesCreateUserByExcel', { Content: Buffer.from(await wb.xlsx.writeBuffer()).toString('base64'), DryRun: true }, agent);
      expect(r.body).toMatchObject({ State: 200, Failed: [], Rows: 1 });
    }
    const mixed = tw.worksheets[0]!;
    mixed.getRow(1).getCell(1).value = 'LoginName';
    mixed.getRow(1).getCell(5).value = 'imei';
    const r = await p.call('/Device/batchDevicesCreateUserByExcel', { Content: Buffer.from(await tw.xlsx.writeBuffer()).toString('base64'), DryRun: true }, agent);
    expect(r.body).toMatchObject({ State: 200, Failed: [], Rows: 1 });
  });

  it('exports a track with headers in the caller’s language, zh-TW included', async () => {
    await p.deps.database.query(`INSERT INTO positions (device_id, time, received_at, lat, lon, valid, speed, course) VALUES ($1, now() - interval '1 hour', now(), 22.5, 114.0, true, 3, 90)`, [watch.id]);
    const r = await call(
      '/device/BatchExportHistoryDataByUserId',
      { Imeis: [watch.imei], Start: new Date(Date.now() - 86_400_000).toISOString(), End: new Date().toISOString(), Language: 'zh-TW' },
      as(agent, 'zh-TW'),
    );
    expect(r.body.State).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(r.body.Data, 'base64') as never);
    expect(wb.worksheets[0]!.name).toBe('軌跡');
    expect(rowValues(wb.worksheets[0]!, 1)).toEqual(['IMEI', '裝置名稱', '時間', '緯度', '經度', '速度(km/h)', '方向']);
  });

  it('shows a login’s place in the caller’s language', async () => {
    await p.deps.database.query(`UPDATE login_logs SET ip_location = '中国 广东省 深圳市'`);
    const place = async (language: string) => (await call('/User/allUserLoginLog', { PageNo: 1, PageCount: 1 }, as(admin, language))).body.Items[0].Address;
    expect(await place('en')).toBe('China, Guangdong, Shenzhen');
    expect(await place('zh-TW')).toBe('中國 廣東省 深圳市');
    expect(await place('zh-CN')).toBe('中国 广东省 深圳市');
  });
});
