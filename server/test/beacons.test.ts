// The beacon registry: both identity models with good and bad input (each refusal naming its
// field), "beacon code or MAC already exists" across models and against scene anchors, the subtree
// scope (a sibling's ids answer "not found"), state changes and deletion per id, placement on a
// floor plan and removeInnerBT (the positioning engine is told), search by any spelling of an
// identity, and the Excel import (row-by-row report, all or nothing) and export.
import ExcelJS from 'exceljs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scene as sceneSchemas } from '@wt/contract';
import { rows } from '../src/lib/sql.js';
import { CLEAN_SVG, pngDataUrl, svgDataUrl } from './images.js';
import { databases, startTestPlatform, type TestPlatform } from './helpers.js';

type Fields = { Fields?: { Field: string; Message: string }[] };
const CODE = 'E2C56DB5DFFB48D2B060D0F5A71096E0';

async function sheet(rowsOf: (string | number)[][]): Promise<string> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('beacons');
  ws.addRows(rowsOf);
  return Buffer.from(await wb.xlsx.writeBuffer()).toString('base64');
}

describe.each(databases())('beacon registry on %s', (kind) => {
  let p: TestPlatform;
  let agent: string;
  let clinic: string;
  let operator: string;
  let ids: { agent: number; clinic: number };
  const changes: number[][] = [];
  const fields = (body: Fields) => (body.Fields ?? []).map((f) => [f.Field, f.Message]);
  const uuid = (extra: Record<string, unknown> = {}) => ({ Code: CODE, Major: 100, Minor: 1, Address: '一楼大厅', Lon: 113.94, Lat: 22.54, ...extra });

  beforeAll(async () => {
    p = await startTestPlatform(kind);
    await p.deps.database.db.execute(sql`UPDATE accounts SET user_type = 3 WHERE login_name IN ('agent01', 'clinic01', 'operator01')`);
    const g = await p.login('agent01');
    const c = await p.login('clinic01');
    agent = g.token;
    clinic = c.token;
    operator = (await p.login('operator01')).token;
    ids = { agent: g.userId, clinic: c.userId };
    p.deps.bus.subscribe<{ sceneIds: number[] }>(sceneSchemas.SCENES_CHANGED_TOPIC, (e) => changes.push(e.sceneIds));
  });
  afterAll(() => p?.stop());

  it('registers, lists, edits and deletes UUID-model beacons', async () => {
    const made = await p.call('/Bluetooth/addBTDeviceInfo', uuid({ Name: '大厅', UserId: ids.clinic }), agent);
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const id = made.body.BeaconId as number;
    const listed = await p.call('/Bluetooth/btDeviceListByUserId', { Keyword: 'e2c56d' }, agent);
    expect(listed.body.Total).toBe(1);
    expect(listed.body.Items[0]).toMatchObject({
      BeaconId: id,
      AccountId: ids.clinic,
      AccountName: 'clinic01',
      Model: 1,
      Code: CODE,
      Major: 100,
      Minor: 1,
      Mac: null,
      Name: '大厅',
      Address: '一楼大厅',
      Lon: 113.94,
      Lat: 22.54,
      State: 1,
      Type: 1,
      SceneId: null,
      FloorId: null,
    });
    // The clinic (the owner) sees it; its MAC-model list does not have it.
    expect((await p.call('/Bluetooth/btDeviceListByUserId', {}, clinic)).body.Total).toBe(1);
    expect((await p.call('/Bluetooth/btMacDevicesByUserId', {}, clinic)).body.Total).toBe(0);

    const edited = await p.call('/Bluetooth/updateBeaconInfo', uuid({ BeaconId: id, Minor: 2, Mac: 'ac233fa0ff01', Type: 2, State: 2, Lon: null, Lat: null }), clinic);
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    const [after] = (await p.call('/Bluetooth/allBTDeviceInfo', { Keyword: 'AC:23:3F:A0:FF:01' }, clinic)).body.Items;
    expect(after).toMatchObject({ Minor: 2, Mac: 'AC:23:3F:A0:FF:01', Type: 2, State: 2, Lon: null, Lat: null });

    // The MAC-model calls refuse a UUID-model beacon.
    const wrong = await p.call('/Bluetooth/updateBeaconInfoMac', { BeaconId: id, Mac: 'ac233fa0ff01' }, clinic);
    expect([wrong.status, wrong.body.Message]).toEqual([409, 'beacon.wrongModel']);
    const wrongDel = await p.call('/Bluetooth/removeBTMac', { BeaconIds: [id] }, clinic);
    expect(wrongDel.body).toMatchObject({ Succeeded: 0, Failed: [{ Imei: String(id), Message: 'beacon.wrongModel' }] });

    const gone = await p.call('/Bluetooth/removeBT', { BeaconIds: [id, 999999] }, clinic);
    expect(gone.body).toMatchObject({ Succeeded: 1, Failed: [{ Imei: '999999', Message: 'beacon.notFound' }] });
    expect((await p.call('/Bluetooth/btDeviceListByUserId', {}, agent)).body.Total).toBe(0);
  });

  it('registers MAC-model beacons, normalizing the MAC', async () => {
    const made = await p.call('/Bluetooth/addBTDeviceInfoMac', { Mac: 'ac-23-3f-a0-00-aa', Name: '门口', Type: 1 }, agent);
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const id = made.body.BeaconId as number;
    const [item] = (await p.call('/Bluetooth/btMacDevicesByUserId', {}, agent)).body.Items;
    expect(item).toMatchObject({ BeaconId: id, Model: 2, Mac: 'AC:23:3F:A0:00:AA', Code: null, Major: null, Minor: null });
    const edited = await p.call('/Bluetooth/updateBeaconInfoMac', { BeaconId: id, Mac: 'AC233FA000AB', Address: '北门' }, agent);
    expect(edited.status).toBe(200);
    const found = await p.call('/Bluetooth/searchBTByIdentifier', { Identifier: 'ac:23:3f:a0:00:ab' }, agent);
    expect(found.body.Items.map((b: { BeaconId: number; Address: string }) => [b.BeaconId, b.Address])).toEqual([[id, '北门']]);
    expect((await p.call('/Bluetooth/removeBTMac', { BeaconIds: [id] }, agent)).body.Succeeded).toBe(1);
  });

  it('refuses bad input naming the field, and changes nothing', async () => {
    const cases: [string, Record<string, unknown>, string, string][] = [
      ['/Bluetooth/addBTDeviceInfo', uuid({ Code: '1234' }), 'Code', 'beacon.codeInvalid'],
      ['/Bluetooth/addBTDeviceInfo', uuid({ Code: undefined }), 'Code', 'beacon.codeRequired'],
      ['/Bluetooth/addBTDeviceInfo', uuid({ Major: 70000 }), 'Major', 'validation.max'],
      ['/Bluetooth/addBTDeviceInfo', uuid({ Minor: undefined }), 'Minor', 'beacon.minorRequired'],
      ['/Bluetooth/addBTDeviceInfo', uuid({ Mac: 'zz:zz' }), 'Mac', 'beacon.macInvalid'],
      ['/Bluetooth/addBTDeviceInfo', uuid({ Lon: 200 }), 'Lon', 'validation.max'],
      ['/Bluetooth/addBTDeviceInfo', uuid({ Lat: null }), 'Lat', 'beacon.lonLatBoth'],
      ['/Bluetooth/addBTDeviceInfo', uuid({ Type: 3 }), 'Type', 'beacon.typeInvalid'],
      ['/Bluetooth/addBTDeviceInfo', uuid({ State: 5 }), 'State', 'beacon.stateInvalid'],
      ['/Bluetooth/addBTDeviceInfo', uuid({ Address: 'x'.repeat(201) }), 'Address', 'validation.tooLong'],
      ['/Bluetooth/addBTDeviceInfoMac', { Name: 'x' }, 'Mac', 'beacon.macRequired'],
      ['/Bluetooth/addBTDeviceInfoMac', { Mac: '00:11:22:33:44' }, 'Mac', 'beacon.macInvalid'],
      ['/Bluetooth/searchBTByIdentifier', { Identifier: ' ' }, 'Identifier', 'beacon.identifierRequired'],
      ['/Bluetooth/updateBTBindStatus', { BeaconIds: [], State: 1 }, 'BeaconIds', 'validation.required'],
      ['/Bluetooth/removeInnerBT', { BeaconIds: ['x'] }, 'BeaconIds.0', 'validation.number'],
    ];
    for (const [path, body, field, key] of cases) {
      const r = await p.call(path, body, agent);
      expect(r.status, `${path} ${JSON.stringify(body)}`).toBe(400);
      expect(fields(r.body), `${path} ${JSON.stringify(body)}`).toContainEqual([field, key]);
    }
    const n = await rows<{ n: number }>(p.deps.database.db, sql`SELECT count(*)::int AS n FROM scene_anchors WHERE scene_id IS NULL`);
    expect(Number(n[0]!.n)).toBe(0);
  });

  it('refuses a code+major+minor or MAC already registered, in either model and against scene anchors', async () => {
    const a = await p.call('/Bluetooth/addBTDeviceInfo', uuid({ Minor: 50, Mac: 'AC:23:3F:A0:50:50' }), agent);
    expect(a.status).toBe(200);
    // The same code in other case and with dashes is the same beacon.
    const sameCode = await p.call('/Bluetooth/addBTDeviceInfo', uuid({ Minor: 50, Code: CODE.toLowerCase() }), clinic);
    expect([sameCode.status, sameCode.body.Message]).toEqual([409, 'beacon.exists']);
    const sameMac = await p.call('/Bluetooth/addBTDeviceInfoMac', { Mac: 'ac233fa05050' }, clinic);
    expect([sameMac.status, sameMac.body.Message]).toEqual([409, 'beacon.exists']);
    // Another minor is another beacon.
    const other = await p.call('/Bluetooth/addBTDeviceInfo', uuid({ Minor: 51 }), agent);
    expect(other.status).toBe(200);
    const clash = await p.call('/Bluetooth/updateBeaconInfo', uuid({ BeaconId: other.body.BeaconId, Minor: 50 }), agent);
    expect([clash.status, clash.body.Message]).toEqual([409, 'beacon.exists']);
    // Two creates of one identity at once: one passes.
    const both = await Promise.all([1, 2].map(() => p.call('/Bluetooth/addBTDeviceInfoMac', { Mac: 'AC:23:3F:A0:60:60' }, agent)));
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    await p.call('/Bluetooth/batchDelBTBindStatus', { BeaconIds: [a.body.BeaconId, other.body.BeaconId, ...both.map((r) => r.body.BeaconId).filter(Boolean)] }, agent);
  });

  it('keeps each account to its subtree: a sibling sees nothing and its ids are "not found"', async () => {
    const mine = (await p.call('/Bluetooth/addBTDeviceInfoMac', { Mac: 'AC:23:3F:A0:70:70' }, agent)).body.BeaconId as number;
    // operator01 owns the demo care home's anchors, never the agent's.
    const seen = (await p.call('/Bluetooth/allBTDeviceInfo', { PageCount: 1000 }, operator)).body.Items as { BeaconId: number; AccountName: string }[];
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.filter((b) => b.BeaconId === mine || b.AccountName !== 'operator01')).toEqual([]);
    expect((await p.call('/Bluetooth/searchBTByIdentifier', { Identifier: 'AC:23:3F:A0:70:70' }, operator)).body.Items).toEqual([]);
    const edit = await p.call('/Bluetooth/updateBeaconInfoMac', { BeaconId: mine, Mac: 'AC:23:3F:A0:70:71' }, operator);
    expect([edit.status, edit.body.Message]).toEqual([404, 'beacon.notFound']);
    for (const path of ['/Bluetooth/removeBTMac', '/Bluetooth/batchDelBTBindStatus', '/Bluetooth/removeInnerBT']) {
      const r = await p.call(path, { BeaconIds: [mine] }, operator);
      expect(r.body, path).toMatchObject({ Succeeded: 0, Failed: [{ Imei: String(mine), Message: 'beacon.notFound' }] });
    }
    const state = await p.call('/Bluetooth/updateBTBindStatus', { BeaconIds: [mine], State: 2 }, operator);
    expect(state.body).toMatchObject({ Succeeded: 0, Failed: [{ Message: 'beacon.notFound' }] });
    // Creating for an account outside the subtree, or listing one, is refused.
    const outside = await p.call('/Bluetooth/addBTDeviceInfoMac', { Mac: 'AC:23:3F:A0:70:72', UserId: ids.agent }, operator);
    expect([outside.status, outside.body.Message]).toEqual([403, 'account.notInScope']);
    // The child clinic does not see its parent's beacon; the parent lists by its child.
    expect((await p.call('/Bluetooth/allBTDeviceInfo', {}, clinic)).body.Total).toBe(0);
    expect((await p.call('/Bluetooth/allBTDeviceInfo', { UserId: ids.clinic }, agent)).body.Total).toBe(0);
    await p.call('/Bluetooth/removeBTMac', { BeaconIds: [mine] }, agent);
  });

  it('places a beacon on a floor plan for the positioning engine, and removeInnerBT takes it off', async () => {
    const scene = await p.call('/Scene/addSceneInfo', { Name: '楼', Lat: 22.54, Lon: 113.93, Address: '深圳', BeaconType: 1, Method: 1, MapSvg: svgDataUrl(CLEAN_SVG) }, agent);
    const sceneId = scene.body.SceneId as number;
    const floor = await p.call('/Scene/addFoorsInfo', { SceneId: sceneId, FloorNo: 1, Name: '一楼', Description: '大厅', Type: 1, Plan: pngDataUrl(40, 30) }, agent);
    const floorId = floor.body.FloorId as number;
    const id = (await p.call('/Bluetooth/addBTDeviceInfoMac', { Mac: 'AC:23:3F:A0:80:80', Name: 'P1' }, agent)).body.BeaconId as number;
    changes.length = 0;
    const placed = await p.call('/Beacon/Place', { BeaconId: id, FloorId: floorId, X: 4, Y: 5 }, agent);
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);
    expect(changes).toEqual([[sceneId]]);
    // The scene pages see it as an anchor of the floor, the registry as placed.
    const anchors = await p.call('/Scene/BeaconsInfoByMonitor', { SceneId: sceneId }, agent);
    expect(anchors.body.Items.map((a: { BeaconId: number; Mac: string; X: number }) => [a.BeaconId, a.Mac, a.X])).toEqual([[id, 'AC:23:3F:A0:80:80', 4]]);
    const [reg] = (await p.call('/Bluetooth/allBTDeviceInfo', { Placed: true }, agent)).body.Items;
    expect(reg).toMatchObject({ BeaconId: id, SceneId: sceneId, SceneName: '楼', FloorId: floorId, FloorName: '一楼', X: 4, Y: 5 });
    // The type of a placed beacon is its scene's business.
    const retype = await p.call('/Bluetooth/updateBeaconInfoMac', { BeaconId: id, Mac: 'AC:23:3F:A0:80:80', Type: 2 }, agent);
    expect(fields(retype.body)).toEqual([['Type', 'beacon.placedTypeLocked']]);
    // An anchor added on the scene page is in the registry too, with the scene owner as its owner.
    const anchor = await p.call('/Scene/addBeaconsInfoByMonitor', { FloorId: floorId, Name: 'A', Mac: 'AC:23:3F:A0:80:81', Code: CODE, Major: 7, Minor: 7, Type: 1, X: 1, Y: 1 }, agent);
    const viaCode = await p.call('/Bluetooth/searchBTByIdentifier', { Identifier: `e2c56db5-dffb-48d2-b060-d0f5a71096e0:7:7` }, agent);
    expect(viaCode.body.Items.map((b: { BeaconId: number; AccountId: number }) => [b.BeaconId, b.AccountId])).toEqual([[anchor.body.BeaconId, ids.agent]]);

    changes.length = 0;
    const off = await p.call('/Bluetooth/removeInnerBT', { BeaconIds: [id, anchor.body.BeaconId] }, agent);
    expect(off.body).toMatchObject({ Succeeded: 2, Failed: [] });
    expect(changes).toEqual([[sceneId]]);
    expect((await p.call('/Scene/BeaconsInfoByMonitor', { SceneId: sceneId }, agent)).body.Items).toEqual([]);
    const again = await p.call('/Bluetooth/removeInnerBT', { BeaconIds: [id] }, agent);
    expect(again.body).toMatchObject({ Succeeded: 0, Failed: [{ Message: 'beacon.notPlaced' }] });
    const unplaced = (await p.call('/Bluetooth/allBTDeviceInfo', { Placed: false }, agent)).body.Items as { BeaconId: number }[];
    expect(unplaced.map((b) => b.BeaconId).sort((x, y) => x - y), JSON.stringify(unplaced)).toEqual([id, anchor.body.BeaconId].sort((x, y) => x - y));
    // A sibling cannot place its beacon on another's floor.
    const own = (await p.call('/Bluetooth/addBTDeviceInfoMac', { Mac: 'AC:23:3F:A0:80:90' }, operator)).body.BeaconId;
    const foreign = await p.call('/Beacon/Place', { BeaconId: own, FloorId: floorId, X: 1, Y: 1 }, operator);
    expect([foreign.status, foreign.body.Message]).toEqual([404, 'scene.floorNotFound']);
    await p.call('/Bluetooth/batchDelBTBindStatus', { BeaconIds: [own] }, operator);
    await p.call('/Bluetooth/batchDelBTBindStatus', { BeaconIds: [id, anchor.body.BeaconId] }, agent);
  });

  it('sets beacons valid or invalid', async () => {
    const a = (await p.call('/Bluetooth/addBTDeviceInfoMac', { Mac: 'AC:23:3F:A0:90:01' }, agent)).body.BeaconId;
    const b = (await p.call('/Bluetooth/addBTDeviceInfoMac', { Mac: 'AC:23:3F:A0:90:02' }, agent)).body.BeaconId;
    const r = await p.call('/Bluetooth/updateBTBindStatus', { BeaconIds: [a, b], State: 2 }, agent);
    expect(r.body).toMatchObject({ Succeeded: 2, Failed: [] });
    expect((await p.call('/Bluetooth/allBTDeviceInfo', { State: 2 }, agent)).body.Total).toBe(2);
    await p.call('/Bluetooth/batchDelBTBindStatus', { BeaconIds: [a, b] }, agent);
  });

  it('imports beacons from a sheet with a row-by-row report, all or nothing, and exports them', async () => {
    await p.call('/Bluetooth/addBTDeviceInfoMac', { Mac: 'AC:23:3F:B0:00:09' }, clinic);
    const head = ['信标编码', 'Major', 'Minor', 'MAC', '名称', '地址', '经度', '纬度', '类型', '状态'];
    const bad = await sheet([
      head,
      [CODE, 1, 1, '', '甲', '一楼', 113.9, 22.5, '蓝牙', '有效'],
      ['', '', '', 'ac233fb00001', '乙', '', '', '', 'UWB', 'invalid'],
      ['123', 1, 2, '', '丙', '', '', '', '', ''],
      ['', '', '', 'AC:23:3F:B0:00:01', '丁', '', '', '', '', ''],
      ['', '', '', 'AC:23:3F:B0:00:09', '戊', '', '', '', '', ''],
      [CODE, 1, 3, '', '己', '', 200, 22, '', ''],
      ['', '', '', '', '庚', '', '', '', '', ''],
    ]);
    const r = await p.call('/Beacon/Import', { Content: bad }, agent);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.Imported).toBe(false);
    expect(r.body.Failed.map((f: { Row: number; Column: string; Message: string }) => [f.Row, f.Column, f.Message])).toEqual([
      [4, 'Code', 'beacon.codeInvalid'],
      [5, 'Mac', 'beacon.importDuplicate'],
      [6, 'Mac', 'beacon.exists'],
      [7, 'Longitude', 'validation.max'],
      [8, 'Code', 'beacon.importNeedsIdentity'],
    ]);
    expect(Number((await rows<{ n: number }>(p.deps.database.db, sql`SELECT count(*)::int AS n FROM scene_anchors WHERE scene_id IS NULL`))[0]!.n)).toBe(1);

    const good = await sheet([
      ['Code', 'Major', 'Minor', 'Mac', 'Name', 'Address', 'Longitude', 'Latitude', 'Type', 'State'],
      [CODE, 1, 1, '', 'A', 'Hall', 113.9, 22.5, 'Bluetooth', 'Valid'],
      ['', '', '', 'ac233fb00001', 'B', '', '', '', 'UWB', 'Invalid'],
    ]);
    const dry = await p.call('/Beacon/Import', { Content: good, DryRun: true, UserId: ids.clinic }, agent);
    expect(dry.body).toMatchObject({ Imported: false, Rows: 2, Uuid: 1, Mac: 1, Failed: [] });
    const done = await p.call('/Beacon/Import', { Content: good, UserId: ids.clinic }, agent);
    expect(done.body).toMatchObject({ Imported: true, Rows: 2, Uuid: 1, Mac: 1 });
    const list = (await p.call('/Bluetooth/allBTDeviceInfo', {}, clinic)).body.Items as { Mac: string | null; Type: number; State: number; Lon: number | null }[];
    expect(list.map((b) => [b.Mac, b.Type, b.State, b.Lon])).toEqual([
      ['AC:23:3F:B0:00:01', 2, 2, null],
      [null, 1, 1, 113.9],
      ['AC:23:3F:B0:00:09', 1, 1, null],
    ]);
    // Imported twice: every row is already registered.
    const twice = await p.call('/Beacon/Import', { Content: good }, agent);
    expect(twice.body.Failed.map((f: { Message: string }) => f.Message)).toEqual(['beacon.exists', 'beacon.exists']);

    // Not a workbook, and a sheet without an identity column.
    expect((await p.call('/Beacon/Import', { Content: Buffer.from('nope').toString('base64') }, agent)).body.Message).toBe('device.importInvalidFile');
    expect((await p.call('/Beacon/Import', { Content: await sheet([['Name'], ['x']]) }, agent)).body.Message).toBe('beacon.importMissingColumn');

    // The export, titled in the reader's language; the template imports as it is.
    const exp = await p.call('/Beacon/Export', { UserId: ids.clinic }, agent, { 'accept-language': 'en' });
    expect(exp.body).toMatchObject({ State: 200, Rows: 3, FileName: 'beacons.xlsx' });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(exp.body.Content, 'base64') as never);
    const ws = wb.worksheets[0]!;
    expect((ws.getRow(1).values as unknown[]).slice(1, 4)).toEqual(['Beacon code', 'Major', 'Minor']);
    expect(ws.rowCount).toBe(4);
    const tpl = await p.call('/Beacon/ImportTemplate', {}, agent);
    const fromTemplate = await p.call('/Beacon/Import', { Content: tpl.body.Content, DryRun: true }, operator);
    expect(fromTemplate.body).toMatchObject({ Rows: 2, Uuid: 1, Mac: 1, Failed: [] });
  });
});
