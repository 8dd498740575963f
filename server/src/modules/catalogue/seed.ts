// The catalogue every installation starts with (not only the demo): the watch and GT06 protocols
// with the commands their encoders really implement, and a few models of each. Runs at start and
// writes only into empty tables, so it is safe on every boot and never overwrites an edit. Command
// names and details are not stored: they are the contract's catalogue (`command.names.<CODE>`).
import { sql } from 'drizzle-orm';
import { COMMAND_CODES, type CommandCode } from '@wt/contract';
import { GT06_COMMANDS, WATCH_COMMANDS } from '@wt/protocols';
import type { Db } from '../../db/client.js';
import { commandDictionary, deviceModels, deviceProtocols } from '../../db/schema/index.js';
import { rows } from '../../lib/sql.js';

const supported = (encoders: Record<string, unknown>) => COMMAND_CODES.filter((c) => c in encoders);

const ALL_FX = ['location', 'track', 'fence', 'health', 'sos', 'message', 'remind', 'find', 'contacts'];

export async function seedCatalogue(db: Db): Promise<void> {
  const [{ n }] = (await rows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM device_protocols`)) as [{ n: number }];
  if (n > 0) return;
  await db.transaction(async (tx) => {
    const protocols = [
      { code: 'watch', name: '3G/4G 手表协议 (3G*)', description: 'Text protocol of 2G/4G watches: [3G*<id>*<len>*<content>]', codes: supported(WATCH_COMMANDS) },
      { code: 'gt06', name: 'GT06 协议', description: 'Binary protocol of GT06 vehicle and personal trackers (0x7878 frames)', codes: supported(GT06_COMMANDS) },
      { code: 'osmand', name: 'OsmAnd HTTP', description: 'Phones and trackers reporting over HTTP with the OsmAnd protocol; no commands', codes: [] as CommandCode[] },
    ];
    const ids: Record<string, { id: number; codes: CommandCode[] }> = {};
    for (const p of protocols) {
      const [row] = await tx.insert(deviceProtocols).values({ code: p.code, name: p.name, description: p.description }).onConflictDoNothing().returning({ id: deviceProtocols.id });
      if (!row) return; // another process seeded meanwhile
      ids[p.code] = { id: row.id, codes: p.codes };
      if (p.codes.length) {
        // No name or details: the catalogue's, by code, are shown in each reader's language.
        await tx.insert(commandDictionary).values(p.codes.map((code) => ({ protocolId: row.id, code, name: '', details: '' })));
      }
    }
    const watch = ids.watch!;
    const gt06 = ids.gt06!;
    const healthCodes = watch.codes;
    const basicWatch = watch.codes.filter((c) => !/HEART|BLOOD|TEMPERATURE|FALL/.test(c));
    await tx.insert(deviceModels).values([
      {
        name: 'Y6 4G 健康手表',
        type: '4G 健康手表',
        protocolId: watch.id,
        commands: healthCodes,
        functions: { Lbs: true, CarLocation: false, DeviceFence: true, Battery: true, AppFunction: true, HealthConfig: true },
        healthItems: ['heartRate', 'bloodPressure', 'bodyTemp', 'bloodOxygen', 'sleep', 'steps'],
        appShowParams: ['battery', 'signal', 'steps', 'heartRate', 'bloodPressure', 'bodyTemp', 'bloodOxygen', 'location', 'online'],
        appHomeFx: ALL_FX,
        description: '4G health watch: location, SOS, heart rate, blood pressure, temperature, blood oxygen, fall detection',
      },
      {
        name: 'K9 4G 定位手表',
        type: '4G 儿童手表',
        protocolId: watch.id,
        commands: basicWatch,
        functions: { Lbs: true, CarLocation: false, DeviceFence: true, Battery: true, AppFunction: true, HealthConfig: false },
        healthItems: ['steps'],
        appShowParams: ['battery', 'signal', 'steps', 'location', 'online'],
        appHomeFx: ['location', 'track', 'fence', 'sos', 'message', 'remind', 'find', 'contacts'],
        description: '4G kids watch: location, SOS, voice messages, class-time silence',
      },
      {
        name: 'GT06N 车载定位器',
        type: 'GPS 车载定位器',
        protocolId: gt06.id,
        commands: gt06.codes,
        functions: { Lbs: true, CarLocation: true, DeviceFence: true, Battery: false, AppFunction: false, HealthConfig: false },
        appShowParams: ['signal', 'location', 'online'],
        appHomeFx: ['location', 'track', 'fence'],
        description: 'GT06 vehicle tracker: GPS/LBS location, remote restart, server address',
      },
      {
        name: 'GT06-P1 个人定位器',
        type: 'GPS 个人定位器',
        protocolId: gt06.id,
        commands: gt06.codes,
        functions: { Lbs: true, CarLocation: false, DeviceFence: true, Battery: true, AppFunction: true, HealthConfig: false },
        appShowParams: ['battery', 'signal', 'location', 'online'],
        appHomeFx: ['location', 'track', 'fence', 'sos', 'find'],
        description: 'GT06 personal tracker with SOS button',
      },
      {
        name: 'OsmAnd 手机定位',
        type: '手机定位',
        protocolId: ids.osmand!.id,
        commands: [],
        functions: { Lbs: false, CarLocation: false, DeviceFence: true, Battery: true, AppFunction: false, HealthConfig: false },
        appShowParams: ['battery', 'location', 'online'],
        appHomeFx: ['location', 'track', 'fence'],
        description: 'A phone running an OsmAnd-compatible tracking app',
      },
    ]);
  });
}
