// Demo data of the devices console, on top of the demo devices: each device linked to its
// catalogue model, device roles in every colour, groups, a few fences around the care home and
// the wearers' profiles of the care home's watches.
import { sql } from 'drizzle-orm';
import type { DemoStep } from '../../seed/demo.js';
import { deviceFences, deviceGroups, devicePersons, deviceRoles } from '../../db/schema/index.js';
import { rows } from '../../lib/sql.js';

// Around the Nanshan science park, where the demo devices move.
const HOME = { lat: 22.5405, lon: 113.9345 };

export const seedDemoDevicesConsole: DemoStep = async (deps, accounts) => {
  const { db } = deps.database;
  await db.execute(sql`UPDATE devices SET model_id = m.id FROM device_models m WHERE devices.model_id IS NULL AND lower(m.name) = lower(devices.model_name)`);

  const roles = await db
    .insert(deviceRoles)
    .values([
      { accountId: accounts.clinic.id, name: '自理老人', description: '可以独立生活的老人', color: 'green', shape: 'circle' },
      { accountId: accounts.clinic.id, name: '重点看护', description: '需要重点关注的老人', color: 'red', shape: 'star' },
      { accountId: accounts.clinic.id, name: '护理人员', description: '护工与医生', color: 'blue', shape: 'square' },
      { accountId: accounts.health.id, name: '货车', description: '物流车队货车', color: 'orange', shape: 'rhombus' },
      { accountId: accounts.agent.id, name: '体验用户', description: '代理商试用设备', color: 'yellow', shape: 'circle' },
    ])
    .returning();
  const groups = await db
    .insert(deviceGroups)
    .values([
      { accountId: accounts.clinic.id, name: '一号楼' },
      { accountId: accounts.clinic.id, name: '二号楼' },
      { accountId: accounts.health.id, name: '城区配送' },
    ])
    .returning();
  const byName = (list: { id: number; name: string }[], name: string) => list.find((x) => x.name === name)!.id;

  const clinicDevices = await rows<{ id: number; imei: string; name: string }>(db, sql`SELECT id, imei, name FROM devices WHERE account_id = ${accounts.clinic.id} ORDER BY imei`);
  for (const [i, d] of clinicDevices.entries()) {
    const role = i % 5 === 0 ? '重点看护' : '自理老人';
    await db.execute(sql`UPDATE devices SET role_id = ${byName(roles, role)}, group_id = ${byName(groups, i % 2 ? '二号楼' : '一号楼')} WHERE id = ${d.id}`);
  }
  const fleet = await rows<{ id: number }>(db, sql`SELECT id FROM devices WHERE account_id = ${accounts.health.id}`);
  for (const d of fleet) await db.execute(sql`UPDATE devices SET role_id = ${byName(roles, '货车')}, group_id = ${byName(groups, '城区配送')} WHERE id = ${d.id}`);

  const bloodTypes = ['A', 'B', 'AB', 'O'] as const;
  const streets = ['南山区科技园南路 12 号', '南山区高新南一道 8 号', '南山区学府路 63 号', '南山区后海大道 2388 号'];
  if (clinicDevices.length) {
    await db.insert(devicePersons).values(
      clinicDevices.map((d, i) => ({
        deviceId: d.id,
        name: d.name,
        gender: i % 2 ? 'man' : 'woman',
        age: 68 + ((i * 7) % 25),
        phone: `139${String(10000000 + i * 7919).slice(-8)}`,
        address: `深圳市${streets[i % streets.length]}`,
        remark: i % 5 === 0 ? '高血压，需按时服药' : '',
        bloodType: bloodTypes[i % 4],
        height: 150 + ((i * 3) % 25),
        weight: 48 + ((i * 5) % 30),
      })),
    );
  }
  // The first watches of the care home get a home fence each, one of them also a polygon around the garden.
  const fences = clinicDevices.slice(0, 4).map((d) => ({
    deviceId: d.id,
    name: '养老院',
    description: '康宁养老院院区，离开即提醒',
    kind: 'circle',
    lat: HOME.lat,
    lon: HOME.lon,
    radius: 300,
    points: [] as [number, number][],
  }));
  if (clinicDevices[0]) {
    fences.push({
      deviceId: clinicDevices[0].id,
      name: '花园',
      description: '院内花园',
      kind: 'polygon',
      lat: null as unknown as number,
      lon: null as unknown as number,
      radius: null as unknown as number,
      points: [
        [22.5412, 113.9338],
        [22.5412, 113.9352],
        [22.5399, 113.9352],
        [22.5399, 113.9338],
      ],
    });
  }
  if (fences.length) await db.insert(deviceFences).values(fences);
};
