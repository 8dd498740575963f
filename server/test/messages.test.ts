// Messages to devices by role: the preview count, the watch message to online and offline simulated
// watches through the command pipeline, their replies recorded and told live to the console, the
// "send by role" switch, validation, and the account scope.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWatchFrame, watchContent } from '@wt/protocols';
import type { RealtimeMessage } from '@wt/contract';
import { databases, startTestPlatform, type TestPlatform } from './helpers.js';
import { FakeDevice, connectWatch, eventually } from './gateway-helpers.js';
import { RealtimeClient, account, addDevices } from './monitor-fixtures.js';

type Row = Record<string, any>;

/** The watch protocol's MESSAGE text: UTF-16BE in hex. */
const hex = (s: string) => Buffer.from(s, 'utf16le').swap16().toString('hex').toUpperCase();

describe.each(databases())('messages by role on %s', (kind) => {
  let p: TestPlatform;
  let admin: string;
  let adminId: number;
  let roleId: number;
  let watches: { id: number; imei: string; name: string }[];
  /** Connected watches by IMEI: a watch keeps its connection (and its commands) from test to test. */
  const online = new Map<string, FakeDevice>();

  beforeAll(async () => {
    p = await startTestPlatform(kind);
    const login = await p.login();
    admin = login.token;
    adminId = login.userId;
    const clinic = await account(p, 'clinic01');
    const role = await p.call('/DeviceRole/Save', { UserId: clinic.id, Name: 'Ward B', Color: 'blue' }, admin);
    roleId = role.body.Item.RoleId;
    watches = await addDevices(p, 'clinic01', [{ name: 'Bed 1' }, { name: 'Bed 2' }, { name: 'Bed 3' }]);
    await p.deps.database.query(`UPDATE devices SET role_id = $1 WHERE id = ANY($2::int[])`, [roleId, watches.map((w) => w.id)]);
  });
  afterAll(async () => {
    for (const d of online.values()) d.close();
    await p?.stop();
  });

  const connect = async (imei: string, id: number) => {
    let dev = online.get(imei);
    if (!dev) online.set(imei, (dev = await connectWatch(p.deps.ingest.ports.watch!, imei)));
    await eventually(() => p.deps.ingest.sessions.has(id));
    return dev;
  };

  it('previews, sends to online and offline watches, and records each reply, told live', async () => {
    const [w1, w2, w3] = watches as unknown as [Row, Row, Row];
    const d1 = await connect(w1.imei, w1.id);
    const d2 = await connect(w2.imei, w2.id);
    const preview = await p.call('/Message/Preview', { RoleIds: [roleId] }, admin);
    expect(preview.body).toMatchObject({ State: 200, Total: 3, Online: 2, Unsupported: 0 });

    const live = await RealtimeClient.connect(p.url, admin, adminId);
    try {
      const text = '吃药时间到了 Medicine time';
      const sent = await p.call('/Command/sendMessageByRoles', { Name: 'Medicine', Content: text, RoleIds: [roleId] }, admin);
      expect(sent.body).toMatchObject({ State: 200, Total: 3, Unsupported: 0 });
      const sendId = sent.body.SendId;

      // The online watches get it at once and answer.
      for (const [d, w] of [[d1, w1], [d2, w2]] as const) {
        await d.untilText(`*MESSAGE,${hex(text)}]`);
        d.send(buildWatchFrame('3G', w.imei, watchContent.commandReply('MESSAGE')));
      }
      const devices = async (status?: string) => (await p.call('/Message/SendDevices', { SendId: sendId, Status: status }, admin)).body;
      await eventually(async () => (await devices('answered')).Total === 2);
      expect((await devices('queued')).Items.map((i: Row) => i.Imei)).toEqual([w3.imei]);

      const answered = await live.until((m: RealtimeMessage) => m.type === 'commands' && m.commands.some((c) => c.i === w1.id && c.s === 'answered'));
      expect(answered.type).toBe('commands');

      // The offline one gets it when it connects.
      const d3 = await connect(w3.imei, w3.id);
      await d3.untilText(`*MESSAGE,${hex(text)}]`);
      d3.send(buildWatchFrame('3G', w3.imei, watchContent.commandReply('MESSAGE')));
      await eventually(async () => (await devices('answered')).Total === 3);
      const all = await devices();
      expect(all.Items.map((i: Row) => [i.Imei, i.DeviceName, i.Status, i.Reply])).toEqual(watches.map((w) => [w.imei, w.name, 'answered', 'MESSAGE']));

      const sends = (await p.call('/Message/Sends', {}, admin)).body;
      expect(sends.Items[0]).toMatchObject({ SendId: sendId, Name: 'Medicine', Content: text, SenderName: 'admin', Total: 3, Answered: 3, Queued: 0 });
    } finally {
      live.close();
    }
  });

  it('refuses a send without the service switch, bad input, and roles outside the subtree', async () => {
    const clinic = (await p.login('clinic01')).token;
    const off = await p.call('/Command/sendMessageByRoles', { Name: 'x', Content: 'y', RoleIds: [roleId] }, clinic);
    expect(off.body).toMatchObject({ State: 403, Message: 'message.serviceOff' });

    const none = await p.call('/Command/sendMessageByRoles', { Name: 'x', Content: 'y' }, admin);
    expect(none.body.Fields).toEqual([expect.objectContaining({ Field: 'RoleIds', Message: 'message.targetsRequired' })]);
    const empty = await p.call('/Command/sendMessageByRoles', { Name: 'x', Content: '  ', RoleIds: [roleId] }, admin);
    expect(empty.body.Fields).toEqual([expect.objectContaining({ Field: 'Content', Message: 'validation.messageRequired' })]);
    const long = await p.call('/Command/sendMessageByRoles', { Name: 'x', Content: 'y'.repeat(141), RoleIds: [roleId] }, admin);
    expect(long.body.Fields).toEqual([expect.objectContaining({ Field: 'Content', Message: 'validation.tooLong' })]);

    // agent01 has the service, but the role belongs to another branch: not found, nothing written.
    const agent = await account(p, 'agent01');
    await p.deps.database.query(`UPDATE accounts SET is_send_msg_by_role = 1 WHERE id = $1`, [agent.id]);
    const operator = await account(p, 'operator01');
    const foreign = await p.call('/DeviceRole/Save', { UserId: operator.id, Name: 'Night', Color: 'red' }, admin);
    const agentToken = (await p.login('agent01')).token;
    const [before] = await p.deps.database.query<Row>(`SELECT count(*)::int AS n FROM commands`);
    const refused = await p.call('/Command/sendMessageByRoles', { Name: 'x', Content: 'y', RoleIds: [foreign.body.Item.RoleId] }, agentToken);
    expect(refused.body.Fields).toEqual([expect.objectContaining({ Field: 'RoleIds', Message: 'device.roleNotFound' })]);
    expect((await p.call('/Message/Preview', { UserIds: [operator.id] }, agentToken)).body.Fields[0].Message).toBe('account.notInScope');
    const [after] = await p.deps.database.query<Row>(`SELECT count(*)::int AS n FROM commands`);
    expect(after!.n).toBe(before!.n);

    // The agent's own sends only; the administrator's send is not found.
    const mine = await p.call('/Command/sendMessageByRoles', { Name: 'Agent', Content: 'hello', RoleIds: [roleId] }, agentToken);
    expect(mine.body).toMatchObject({ State: 200, Total: 3 });
    const list = (await p.call('/Message/Sends', {}, agentToken)).body;
    expect(list.Items.map((s: Row) => s.Name)).toEqual(['Agent']);
    const adminSend = (await p.call('/Message/Sends', {}, admin)).body.Items.find((s: Row) => s.Name === 'Medicine');
    expect((await p.call('/Message/SendDevices', { SendId: adminSend.SendId }, agentToken)).body).toMatchObject({ State: 404, Message: 'message.sendNotFound' });
  });

  it('moves the devices of an account to a new server address after counting them, and refuses bad addresses', async () => {
    const clinic = await account(p, 'clinic01');
    const [count] = await p.deps.database.query<Row>(
      `SELECT count(*)::int AS n FROM devices d JOIN accounts a ON a.id = d.account_id WHERE a.path LIKE $1 AND d.protocol IN ('watch', 'gt06')`,
      [`${clinic.path}%`],
    );
    const preview = await p.call('/Command/sendIPInfoByUserId', { UserId: clinic.id, Host: 'gw2.example.com', Port: 7700, Preview: true }, admin);
    expect(preview.body).toMatchObject({ State: 200, SendId: null, Total: count!.n });
    const [nothing] = await p.deps.database.query<Row>(`SELECT count(*)::int AS n FROM commands WHERE code = 'IP'`);
    expect(nothing!.n).toBe(0);

    for (const [body, field, key] of [
      [{ Host: 'not a host!', Port: 7700 }, 'Host', 'validation.ipOrDomainInvalid'],
      [{ Host: '', Port: 7700 }, 'Host', 'validation.required'],
      [{ Host: '10.0.0.300', Port: 7700 }, 'Host', 'validation.ipOrDomainInvalid'],
      [{ Host: 'gw2.example.com', Port: 0 }, 'Port', 'validation.portRange'],
      [{ Host: 'gw2.example.com', Port: 65536 }, 'Port', 'validation.portRange'],
      [{ Host: 'gw2.example.com' }, 'Port', 'validation.portRange'],
    ] as const) {
      const r = await p.call('/Command/sendIPInfoByUserId', { UserId: clinic.id, ...body }, admin);
      expect(r.body.Fields?.[0], JSON.stringify(body)).toMatchObject({ Field: field, Message: key });
    }
    const operator = await account(p, 'operator01');
    const agentToken = (await p.login('agent01')).token;
    expect((await p.call('/Command/sendIPInfoByUserId', { UserId: operator.id, Host: '10.0.0.9', Port: 7700 }, agentToken)).body.State).toBe(403);

    const w1 = watches[0]!;
    const d1 = await connect(w1.imei, w1.id);
    const sent = await p.call('/Command/sendIPInfoByUserId', { UserId: clinic.id, Host: '10.20.30.40', Port: 7700 }, admin);
    expect(sent.body).toMatchObject({ State: 200, Total: count!.n });
    await d1.untilText(`*IP,10.20.30.40,7700]`);
    d1.send(buildWatchFrame('3G', w1.imei, watchContent.commandReply('IP')));
    const results = async () => (await p.call('/Message/SendDevices', { SendId: sent.body.SendId, PageCount: 1000 }, admin)).body;
    await eventually(async () => (await results()).Items.find((i: Row) => i.Imei === w1.imei)?.Status === 'answered');
    const all = await results();
    expect(all.Total).toBe(count!.n);
    expect(all.Items.filter((i: Row) => i.Status === 'answered').map((i: Row) => i.Imei)).toEqual([w1.imei]);
    const listed = (await p.call('/Message/Sends', {}, admin)).body.Items[0];
    expect(listed).toMatchObject({ Kind: 'ip', Name: '10.20.30.40:7700', Answered: 1 });
  });
});
