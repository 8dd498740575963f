// Commands to devices through the calls of the console: encoded with the device's protocol, sent
// on the live connection or queued until it connects, replies recorded, and the account scope.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWatchFrame, gt06Device, watchContent } from '@wt/protocols';
import { TOPICS, type CommandEvent } from '../src/pipeline/events.js';
import { databases, startTestPlatform, type TestPlatform } from './helpers.js';
import { failUnanswered } from '../src/modules/command/delivery.js';
import { FakeDevice, connectWatch, eventually, watchData } from './gateway-helpers.js';

describe.each(databases())('device commands on %s', (kind) => {
  let p: TestPlatform;
  let admin: string;
  let clinic: string;
  let operator: string;

  beforeAll(async () => {
    p = await startTestPlatform(kind);
    admin = (await p.login('admin')).token;
    clinic = (await p.login('clinic01')).token;
    operator = (await p.login('operator01')).token;
  });
  afterAll(async () => {
    await p?.stop();
  });

  const history = async (token: string, imei: string) => (await p.call('/Command/CommandList', { Imei: imei, PageNo: 1, PageCount: 50 }, token)).body;

  /** A watch that has connected and sent data (its session is live). */
  const onlineWatch = async (imei: string) => {
    const dev = await connectWatch(p.deps.ingest.ports.watch!, imei);
    const [{ id }] = await p.deps.database.query<{ id: number }>('SELECT id FROM devices WHERE imei = $1', [imei]);
    await eventually(() => p.deps.ingest.sessions.has(id!));
    return dev;
  };

  it('sends a command to an online watch and records its answer', async () => {
    const imei = '865000000000010';
    const events: CommandEvent[] = [];
    const off = p.deps.bus.subscribe<CommandEvent>(TOPICS.command, (e) => events.push(e));
    const dev = await onlineWatch(imei);
    try {
      const r = await p.call('/Command/SendCommand', { Imei: imei, Code: 'UPLOAD', Params: { interval: 5 } }, clinic);
      expect(r.status).toBe(200);
      expect(r.body.Item).toMatchObject({ Imei: imei, Code: 'UPLOAD', Status: 'sent', Encoded: `[3G*${imei}*000A*UPLOAD,300]` });
      await dev.untilText(`[3G*${imei}*000A*UPLOAD,300]`);

      dev.send(buildWatchFrame('3G', imei, watchContent.commandReply('UPLOAD')));
      const item = await eventually(async () => {
        const h = await history(clinic, imei);
        return h.Items.find((c: { Id: number; Status: string }) => c.Id === r.body.Item.Id && c.Status === 'answered');
      });
      expect(item).toMatchObject({ Reply: 'UPLOAD', Code: 'UPLOAD' });
      expect(item.AnsweredAt).toBeTruthy();
      await eventually(() => events.some((e) => e.commandId === r.body.Item.Id && e.status === 'answered'));
      expect(events.filter((e) => e.commandId === r.body.Item.Id).map((e) => e.status)).toEqual(['queued', 'sent', 'answered']);
      expect(events[0]!.accountPath).toMatch(/^\/\d+\/\d+\/\d+\/$/);
    } finally {
      off();
      dev.close();
    }
  });

  it('marks a command the device never answers failed after the reply timeout, and takes a late reply', async () => {
    const imei = '865000000000014';
    const events: CommandEvent[] = [];
    const off = p.deps.bus.subscribe<CommandEvent>(TOPICS.command, (e) => events.push(e));
    const dev = await onlineWatch(imei);
    try {
      const r = await p.call('/Command/SendCommand', { Imei: imei, Code: 'FIND' }, admin);
      expect(r.body.Item.Status).toBe('sent');
      await dev.untilText(`[3G*${imei}*0004*FIND]`);

      // Not yet past the timeout: nothing changes.
      expect(await failUnanswered(p.deps)).toBe(0);
      const later = new Date(Date.now() + (p.deps.config.COMMAND_REPLY_TIMEOUT_SECONDS + 1) * 1000);
      expect(await failUnanswered(p.deps, later)).toBe(1);
      const failed = (await history(admin, imei)).Items.find((c: { Id: number }) => c.Id === r.body.Item.Id);
      expect(failed).toMatchObject({ Status: 'failed', Error: 'noReply' });
      await eventually(() => events.some((e) => e.commandId === r.body.Item.Id && e.status === 'failed'));
      // Run again: already failed, nothing more.
      expect(await failUnanswered(p.deps, later)).toBe(0);

      dev.send(buildWatchFrame('3G', imei, watchContent.commandReply('FIND')));
      const answered = await eventually(async () => {
        const items = (await history(admin, imei)).Items;
        return items.find((c: { Id: number; Status: string }) => c.Id === r.body.Item.Id && c.Status === 'answered');
      });
      expect(answered).toMatchObject({ Reply: 'FIND', Error: '' });
    } finally {
      off();
      dev.close();
    }
  });

  it('queues a command for an offline device and sends it when the device connects and sends data', async () => {
    const imei = '865000000000011';
    const r = await p.call('/Command/SendCommand', { Imei: imei, Code: 'FIND' }, admin);
    expect(r.body.Item.Status).toBe('queued');
    expect((await history(admin, imei)).Items[0]).toMatchObject({ Status: 'queued', Encoded: '' });

    const dev = await FakeDevice.connect(p.deps.ingest.ports.watch!);
    try {
      dev.send(buildWatchFrame('3G', imei, watchContent.lk()));
      await dev.untilText(`[3G*${imei}*0002*LK]`);
      // The link keep-alive alone earns the connection nothing; its first data does.
      expect(dev.text()).not.toContain('FIND');
      dev.send(watchData(imei));
      await dev.untilText(`[3G*${imei}*0004*FIND]`);
      const h = await eventually(async () => {
        const items = (await history(admin, imei)).Items;
        // The claim (status sent) is written before the bytes, the encoded text right after them.
        return items[0]?.Status === 'sent' && items[0]?.Encoded ? items : undefined;
      });
      expect(h[0].Encoded).toBe(`[3G*${imei}*0004*FIND]`);
      expect(h[0].SentAt).toBeTruthy();
    } finally {
      dev.close();
    }
  });

  it('encodes for GT06 trackers and matches their text reply', async () => {
    const imei = '865000000000031';
    const dev = await FakeDevice.connect(p.deps.ingest.ports.gt06!);
    try {
      dev.send(gt06Device.login(imei, 1));
      await dev.until((b) => b.includes(Buffer.from('787805010001', 'hex')));
      // The status packet that follows the login (serial 2) makes the connection the tracker's.
      dev.send(gt06Device.heartbeat(2));
      const [{ id }] = await p.deps.database.query<{ id: number }>('SELECT id FROM devices WHERE imei = $1', [imei]);
      await eventually(() => p.deps.ingest.sessions.get(id!)?.protocol === 'gt06');
      const r = await p.call('/Command/SendCommand', { Imei: imei, Code: 'RESET' }, admin);
      expect(r.body.Item.Status).toBe('sent');
      await dev.until((b) => b.includes(Buffer.from('RESET#')));
      expect(r.body.Item.Encoded).toContain(Buffer.from('RESET#').toString('hex'));
      // A second command is out when the device answers: the server flag echoed in each reply
      // (the command's id) ties it to its own command, whatever the order of the answers.
      const second = await p.call('/Command/SendCommand', { Imei: imei, Code: 'FIND' }, admin);
      await dev.until((b) => b.includes(Buffer.from('WHERE#')) || b.includes(Buffer.from('FIND#')));
      dev.send(gt06Device.commandReply('Current position pending', 3, second.body.Item.Id));
      const found = await eventually(async () =>
        (await history(admin, imei)).Items.find((c: { Id: number; Status: string }) => c.Id === second.body.Item.Id && c.Status === 'answered'),
      );
      expect(found.Reply).toBe('Current position pending');
      expect((await history(admin, imei)).Items.find((c: { Id: number }) => c.Id === r.body.Item.Id).Status).toBe('sent');
      dev.send(gt06Device.commandReply('RESET OK!', 4, r.body.Item.Id));
      const item = await eventually(async () =>
        (await history(admin, imei)).Items.find((c: { Id: number; Status: string }) => c.Id === r.body.Item.Id && c.Status === 'answered'),
      );
      expect(item.Reply).toBe('RESET OK!');
    } finally {
      dev.close();
    }
  });

  it('refuses invalid parameters, unknown codes, and protocols that cannot take commands', async () => {
    const bad = await p.call('/Command/SendCommand', { Imei: '865000000000012', Code: 'UPLOAD', Params: { interval: 1 } }, admin);
    expect(bad.status).toBe(400);
    expect(bad.body.Fields).toEqual([expect.objectContaining({ Field: 'Params.interval', Message: 'validation.intervalRange' })]);
    const unknown = await p.call('/Command/SendCommand', { Imei: '865000000000012', Code: 'SELF_DESTRUCT' }, admin);
    expect(unknown.status).toBe(400);
    expect(unknown.body.Fields[0].Field).toBe('Code');
    const badImei = await p.call('/Command/SendCommand', { Imei: '12345', Code: 'FIND' }, admin);
    expect(badImei.status).toBe(400);
    await p.deps.database.query(`UPDATE devices SET protocol = 'osmand' WHERE imei = '865000000000013'`);
    const osm = await p.call('/Command/SendCommand', { Imei: '865000000000013', Code: 'FIND' }, admin);
    expect(osm.body).toMatchObject({ State: 400, Message: 'command.unsupportedProtocol', Params: { protocol: 'osmand' } });
    expect((await history(admin, '865000000000012')).Total).toBe(0);
  });

  it('keeps another account\'s devices invisible and untouchable', async () => {
    // 865000000000030 is a tracker of the fleet account, a sibling of the clinic's branch.
    const r = await p.call('/Command/SendCommand', { Imei: '865000000000030', Code: 'RESET' }, clinic);
    expect(r.status).toBe(404);
    expect(r.body.Message).toBe('device.notFound');
    await p.call('/Command/SendCommand', { Imei: '865000000000030', Code: 'RESET' }, admin);
    expect((await history(admin, '865000000000030')).Total).toBe(1);
    expect((await history(clinic, '865000000000030')).Total).toBe(0);
    // The operator (a sibling branch) sees none of the clinic's commands either.
    const all = (await p.call('/Command/CommandList', { PageNo: 1, PageCount: 100 }, operator)).body;
    expect(all.Total).toBe(0);
    const clinicAll = (await p.call('/Command/CommandList', { PageNo: 1, PageCount: 100 }, clinic)).body;
    expect(clinicAll.Items.every((c: { Imei: string }) => Number(c.Imei.slice(-2)) <= 20)).toBe(true);
    expect(clinicAll.Total).toBeGreaterThan(0);
  });

  it('sends the batch upload interval only with the platform switch, to the devices a single command may reach', async () => {
    const refused = await p.call('/Command/batchSendFrequencyByUser', { Interval: 10 }, clinic);
    expect(refused.status).toBe(403);
    expect(refused.body.Message).toBe('command.batchDisabled');

    // admin has the switch on; 045-046 are its own watches, 001 belongs to the clinic below it (its
    // subtree, as for SendCommand); an IMEI nobody has is unknown, as SendCommand answers it.
    const r = await p.call('/Command/batchSendFrequencyByUser', { Imeis: ['865000000000045', '865000000000046', '865000000000001', '865999999999999'], Interval: 10 }, admin);
    expect(r.status).toBe(200);
    expect(r.body.Succeeded).toBe(3);
    expect(r.body.Failed).toEqual([{ Imei: '865999999999999', Message: 'device.notFound' }]);
    expect(r.body.Items.map((i: { Imei: string }) => i.Imei)).toEqual(['865000000000001', '865000000000045', '865000000000046']);
    expect((await history(admin, '865000000000045')).Items[0]).toMatchObject({ Code: 'UPLOAD', Params: { interval: 10 } });

    // A branch account with the switch: its own subtree only, in the batch as in a single command.
    const [other] = await p.deps.database.query<{ imei: string }>(
      `SELECT d.imei FROM devices d JOIN accounts a ON a.id = d.account_id WHERE a.login_name = 'operator01' AND d.protocol IN ('watch', 'gt06') ORDER BY d.imei LIMIT 1`,
    );
    await p.deps.database.query(`UPDATE accounts SET switch_function_send_cmd = 1 WHERE login_name = 'clinic01'`);
    const branch = await p.call('/Command/batchSendFrequencyByUser', { Imeis: ['865000000000001', other!.imei], Interval: 10 }, clinic);
    expect(branch.body.Succeeded).toBe(1);
    expect(branch.body.Failed).toEqual([{ Imei: other!.imei, Message: 'device.notFound' }]);
    const single = await p.call('/Command/SendCommand', { Imei: other!.imei, Code: 'FIND' }, clinic);
    expect([single.status, single.body.Message]).toEqual([404, 'device.notFound']);
    await p.deps.database.query(`UPDATE accounts SET switch_function_send_cmd = 2 WHERE login_name = 'clinic01'`);

    const tooShort = await p.call('/Command/batchSendFrequencyByUser', { Interval: 1 }, admin);
    expect(tooShort.status).toBe(400);

    // Without a list: every device of the subtree that takes commands.
    const [n] = await p.deps.database.query<{ n: number }>(`SELECT count(*)::int AS n FROM devices WHERE protocol IN ('watch', 'gt06')`);
    const all = await p.call('/Command/batchSendFrequencyByUser', { Interval: 30 }, admin);
    expect(all.body.Succeeded).toBe(Number(n!.n));
  });

  it('pages the history', async () => {
    const page1 = (await p.call('/Command/CommandList', { PageNo: 1, PageCount: 2 }, admin)).body;
    const page2 = (await p.call('/Command/CommandList', { PageNo: 2, PageCount: 2 }, admin)).body;
    expect(page1.Items).toHaveLength(2);
    expect(page1.Total).toBeGreaterThan(4);
    expect(page2.Items[0].Id).toBeLessThan(page1.Items[1].Id);
    const queued = (await p.call('/Command/CommandList', { PageNo: 1, PageCount: 100, Status: 'queued' }, admin)).body;
    expect(queued.Items.every((c: { Status: string }) => c.Status === 'queued')).toBe(true);
  });
});
