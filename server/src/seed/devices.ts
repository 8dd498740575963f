// Demo devices: IMEIs 865000000000001-865000000000050 spread over the demo accounts. Watches
// carry the names of the elderly people wearing them, GT06 trackers the plates of their vehicles.
import type { DemoAccounts, DemoStep } from './demo.js';

const ELDERS = [
  '张桂英', '王秀兰', '李淑珍', '刘玉珍', '陈凤英', '杨秀英', '赵德福', '黄建国', '周永福', '吴桂兰',
  '徐秀珍', '孙玉兰', '马淑英', '朱德胜', '胡秀云', '郭振华', '何玉梅', '高桂芳', '林国强', '罗淑华',
  '郑宝山', '梁秀芬', '谢长福', '宋玉芬', '唐金花', '许志明', '韩素珍', '冯德明', '邓秀梅', '曹文华',
  '彭淑兰', '曾庆祥', '萧玉英', '田桂珍', '董树林', '潘秀荣', '袁玉华', '蔡明德',
];
const PLATES = ['粤B·3K721', '粤B·7Q205', '粤B·D0618', '粤B·5L936', '粤A·8M142', '粤B·2H870', '粤B·F6033', '粤S·9N417', '粤B·4T558', '粤B·6W329', '粤B·1C764', '粤B·A9082'];

interface Plan {
  account: keyof DemoAccounts;
  watches: number;
  trackers: number;
}

// clinic: the care home; health (viewer01) runs a vehicle fleet; the rest a mix.
const PLAN: Plan[] = [
  { account: 'clinic', watches: 20, trackers: 0 },
  { account: 'agent', watches: 8, trackers: 0 },
  { account: 'health', watches: 0, trackers: 10 },
  { account: 'operator', watches: 6, trackers: 0 },
  { account: 'admin', watches: 4, trackers: 2 },
];

export const seedDemoDevices: DemoStep = async (deps, accounts) => {
  const rows: unknown[][] = [];
  let n = 0;
  let elder = 0;
  let plate = 0;
  const now = Date.now();
  for (const p of PLAN) {
    const owner = accounts[p.account];
    for (let i = 0; i < p.watches + p.trackers; i++) {
      n++;
      const imei = `865${String(n).padStart(12, '0')}`;
      const tracker = i >= p.watches;
      const name = tracker ? PLATES[plate++ % PLATES.length]! : ELDERS[elder++ % ELDERS.length]!;
      const stockIn = new Date(now - (120 - n) * 86_400_000);
      rows.push([
        imei,
        imei.slice(-10),
        name,
        tracker ? 'GT06N 车载定位器' : n % 3 === 0 ? 'Y6 4G 健康手表' : 'K9 4G 定位手表',
        tracker ? 'gt06' : 'watch',
        owner.id,
        `898604${String(1000000000000 + n).slice(-13)}`,
        tracker ? 'GT06N_V2.1.4' : 'WT_4G_V3.2.7',
        stockIn.toISOString(),
        new Date(stockIn.getTime() + 7 * 86_400_000).toISOString(),
      ]);
    }
  }
  for (const r of rows) {
    await deps.database.query(
      `INSERT INTO devices (imei, short_id, name, model_name, protocol, account_id, iccid, software_version, stock_in_at, activated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (imei) DO NOTHING`,
      r,
    );
  }
};
