// The model catalogue: seeded protocols, commands and models on a new installation, admin-only
// writes, in-use refusals, and the option calls the device forms read.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMAND_CODES } from '@wt/contract';
import { GT06_COMMANDS, WATCH_COMMANDS } from '@wt/protocols';
import { databases, startTestPlatform, type TestPlatform } from './helpers.js';

describe.each(databases())('model catalogue on %s', (kind) => {
  let p: TestPlatform;
  let admin: string;
  let operator: string;

  beforeAll(async () => {
    // No demo tenant: the catalogue is there for every installation.
    p = await startTestPlatform(kind, { DEMO: '0' });
  });
  afterAll(() => p?.stop());

  it('seeds the watch and GT06 protocols with the commands their encoders implement, and models', async () => {
    // An empty installation has no account; the admin account is created the way registration does.
    const reg = await p.call('/User/Register', { LoginName: 'owner1', Password: 'abc123', ConfirmPassword: 'abc123', Email: 'o@example.com' });
    expect(reg.body.State).toBe(200);
    const tok = (await p.login('owner1', 'abc123')).token;
    const protocols = await p.call('/Command/deviceProtocolALL', {}, tok);
    const byCode = Object.fromEntries(protocols.body.Items.map((x: { Code: string }) => [x.Code, x]));
    expect(Object.keys(byCode).sort()).toEqual(['gt06', 'osmand', 'watch']);
    const watchCodes = byCode.watch.Commands.map((c: { Code: string }) => c.Code);
    expect(watchCodes).toEqual(COMMAND_CODES.filter((c) => c in WATCH_COMMANDS));
    expect(watchCodes).toContain('HEART_RATE');
    expect(byCode.gt06.Commands.map((c: { Code: string }) => c.Code)).toEqual(COMMAND_CODES.filter((c) => c in GT06_COMMANDS));
    const models = await p.call('/Command/allModelList', { PageCount: 100 }, tok);
    expect(models.body.Total).toBeGreaterThanOrEqual(4);
    const health = models.body.Items.find((m: { Name: string }) => m.Name.includes('健康'));
    expect(health).toMatchObject({ Protocol: 'watch', Functions: { HealthConfig: true, DeviceFence: true } });
    expect(health.Commands.every((c: string) => watchCodes.includes(c))).toBe(true);
    // Writes are the platform's administrators' only: not for an account registered below the root.
    await p.call('/User/Register', { LoginName: 'member1', Password: 'abc123', ConfirmPassword: 'abc123', Email: 'm@example.com' });
    const member = (await p.login('member1', 'abc123')).token;
    const refused = await p.call('/Command/SaveProtocol', { Code: 'x', Name: 'x' }, member);
    expect(refused.status).toBe(403);
  });

  describe('with the demo tenant', () => {
    let q: TestPlatform;
    beforeAll(async () => {
      q = await startTestPlatform(kind);
      admin = (await q.login()).token;
      operator = (await q.login('operator01')).token;
    });
    afterAll(() => q?.stop());

    it('manages protocols and commands, refusing duplicates and what is in use', async () => {
      const pr = await q.call('/Command/SaveProtocol', { Code: 'jt808', Name: 'JT/T 808', Description: 'vehicle terminals' }, admin);
      expect(pr.body.Item).toMatchObject({ Code: 'jt808', Commands: [], ModelCount: 0 });
      expect((await q.call('/Command/SaveProtocol', { Code: 'JT808', Name: 'again' }, admin)).body.Message).toBe('device.protocolExists');
      const unknown = await q.call('/Command/SaveCommandDictionary', { ProtocolId: pr.body.Item.ProtocolId, Code: 'NOPE', Name: 'x' }, admin);
      expect(unknown.body.Fields[0].Message).toBe('device.commandCodeUnknown');
      const cmd = await q.call('/Command/SaveCommandDictionary', { ProtocolId: pr.body.Item.ProtocolId, Code: 'RESET', Name: '重启', Details: 'restart' }, admin);
      expect(cmd.body.Item).toMatchObject({ Code: 'RESET', Type: 'control', Protocol: 'jt808' });
      expect((await q.call('/Command/SaveCommandDictionary', { ProtocolId: pr.body.Item.ProtocolId, Code: 'RESET', Name: 'dup' }, admin)).body.Message).toBe('device.commandExists');
      const paged = await q.call('/Command/cmdCollectionForPaging', { ProtocolId: pr.body.Item.ProtocolId }, operator);
      expect(paged.body.Total).toBe(1);
      const stray = await q.call('/Command/SaveDeviceModelNew', { Name: 'T1', ProtocolId: pr.body.Item.ProtocolId, Commands: ['SOS'] }, admin);
      expect(stray.body).toMatchObject({ Message: 'device.commandNotInProtocol', Params: { code: 'SOS' } });
      const model = await q.call(
        '/Command/SaveDeviceModelNew',
        { Name: 'T1 车载终端', Type: '车载', ProtocolId: pr.body.Item.ProtocolId, Commands: ['RESET'], Functions: { CarLocation: true }, AppShowParams: ['online'] },
        admin,
      );
      expect(model.body.Item).toMatchObject({ Commands: ['RESET'], Functions: { CarLocation: true, Lbs: false }, DeviceCount: 0 });
      expect((await q.call('/Command/DelCommandDictionary', { CommandIds: [cmd.body.Item.CommandId] }, admin)).body.Message).toBe('device.commandInUse');
      expect((await q.call('/Command/DelProtocol', { ProtocolIds: [pr.body.Item.ProtocolId] }, admin)).body.Message).toBe('device.protocolInUse');
      // A device of the model blocks its deletion; the device offers only the model's commands.
      const added = await q.call('/Device/addDevices', { ModelId: model.body.Item.ModelId, Imei: '861111111111111', Name: '车' }, admin);
      expect(added.body.Item).toMatchObject({ Commands: ['RESET'], Protocol: 'jt808', Model: 'T1 车载终端' });
      expect((await q.call('/Command/DelDeviceModelNew', { ModelIds: [model.body.Item.ModelId] }, admin)).body.Message).toBe('device.modelInUse');
      // While a device uses them, the model keeps its protocol and commands, the protocol its code.
      const ModelId = model.body.Item.ModelId;
      const watch = (await q.call('/Command/deviceProtocolALL', {}, admin)).body.Items.find((x: { Code: string }) => x.Code === 'watch');
      const stripped = await q.call('/Command/SaveDeviceModelNew', { ModelId, Name: 'T1 车载终端', ProtocolId: pr.body.Item.ProtocolId, Commands: [] }, admin, { 'accept-language': 'en' });
      expect(stripped.status).toBe(409);
      expect(stripped.body).toMatchObject({ Message: 'device.modelInUseCommands', Params: { devices: 1, codes: 'RESET' } });
      expect(stripped.body.Text).toBe('Commands RESET cannot be removed from the model: 1 devices use it');
      const moved = await q.call('/Command/SaveDeviceModelNew', { ModelId, Name: 'T1 车载终端', ProtocolId: watch.ProtocolId, Commands: [] }, admin);
      expect(moved.body).toMatchObject({ State: 409, Message: 'device.modelInUseProtocol', Params: { devices: 1 } });
      const recoded = await q.call('/Command/SaveProtocol', { ProtocolId: pr.body.Item.ProtocolId, Code: 'jt809', Name: 'JT/T 808' }, admin);
      expect(recoded.body).toMatchObject({ State: 409, Message: 'device.protocolInUseCode', Params: { devices: 1 } });
      expect((await q.call('/Device/DeviceDetail', { Imei: '861111111111111' }, admin)).body.Item).toMatchObject({ Commands: ['RESET'], Protocol: 'jt808' });
      // Its name and description may change.
      expect((await q.call('/Command/SaveProtocol', { ProtocolId: pr.body.Item.ProtocolId, Code: 'jt808', Name: 'JT/T 808-2019' }, admin)).body.State).toBe(200);
      // Renaming the model renames it on its devices.
      await q.call('/Command/SaveDeviceModelNew', { ModelId: model.body.Item.ModelId, Name: 'T2 车载终端', ProtocolId: pr.body.Item.ProtocolId, Commands: ['RESET'] }, admin);
      expect((await q.call('/Device/DeviceDetail', { Imei: '861111111111111' }, admin)).body.Item.Model).toBe('T2 车载终端');
      await q.call('/Device/BatchDelDevices', { Imeis: ['861111111111111'] }, admin);
      // Unused, the model may drop its commands and the protocol change its code.
      expect((await q.call('/Command/SaveDeviceModelNew', { ModelId, Name: 'T2 车载终端', ProtocolId: pr.body.Item.ProtocolId, Commands: [] }, admin)).body.Item.Commands).toEqual([]);
      expect((await q.call('/Command/SaveProtocol', { ProtocolId: pr.body.Item.ProtocolId, Code: 'jt809', Name: 'JT/T 808' }, admin)).body.Item.Code).toBe('jt809');
      expect((await q.call('/Command/DelDeviceModelNew', { ModelIds: [model.body.Item.ModelId] }, admin)).body.State).toBe(200);
      expect((await q.call('/Command/DelCommandDictionary', { CommandIds: [cmd.body.Item.CommandId] }, admin)).body.State).toBe(200);
      expect((await q.call('/Command/DelProtocol', { ProtocolIds: [pr.body.Item.ProtocolId] }, admin)).body.State).toBe(200);
      expect((await q.call('/Command/protocolForPaging', { Keyword: 'jt80' }, admin)).body.Total).toBe(0);
    });

    it('answers the option calls for a model and for a device the caller can see', async () => {
      const types = await q.call('/Command/FetchCommandType', {}, operator);
      expect(types.body.Items).toContainEqual({ Code: 'HEART_RATE', Type: 'health' });
      const all = await q.call('/Command/FetchHealthConfig', {}, operator);
      expect(all.body).toMatchObject({ Selected: null, Enabled: null });
      expect(all.body.Options).toContain('heartRate');
      const ofDevice = await q.call('/Command/FetchHealthConfig', { Imei: '865000000000003' }, admin);
      expect(ofDevice.body.Enabled).toBe(true);
      expect(ofDevice.body.Selected).toContain('heartRate');
      // Another tenant's device is not found.
      expect((await q.call('/Command/FetchAppShowDeviceParams', { Imei: '865000000000003' }, operator)).status).toBe(404);
      const fx = await q.call('/Command/FetchAPPHomeFx', { Imei: '865000000000039' }, operator);
      expect(fx.body.Selected.length).toBeGreaterThan(0);
      const models = (await q.call('/Command/allModelList', {}, operator)).body.Items;
      const kid = models.find((m: { Name: string }) => m.Name.startsWith('K9'));
      const cmds = await q.call('/Command/deviceProtocolByCommandValues', { ModelId: kid.ModelId }, operator);
      expect(cmds.body.Items.map((c: { Code: string }) => c.Code)).toEqual(kid.Commands);
      const byProtocol = await q.call('/Command/deviceProtocolByCommandValues', { ProtocolId: kid.ProtocolId }, operator);
      expect(byProtocol.body.Items.length).toBeGreaterThan(cmds.body.Items.length);
      const coll = await q.call('/Command/commandDictionaryCollection', {}, operator);
      expect(coll.body.Items.length).toBeGreaterThan(byProtocol.body.Items.length);
    });
  });
});
