// Fixtures of the live-monitoring tests: devices with latest state under a demo account, a
// realtime client over a real WebSocket, and positions along a path.
import WebSocket from 'ws';
import type { RealtimeMessage } from '@wt/contract';
import type { TestPlatform } from './helpers.js';

export interface Account {
  id: number;
  path: string;
}

export async function account(p: TestPlatform, loginName: string): Promise<Account> {
  const [row] = await p.deps.database.query<Account>('SELECT id, path FROM accounts WHERE login_name = $1', [loginName]);
  if (!row) throw new Error(`no account ${loginName}`);
  return row;
}

/** A new account below `parentLogin`, with the demo password (admin123), free of demo devices. */
export async function addAccount(p: TestPlatform, parentLogin: string, loginName: string, userType = 1): Promise<Account> {
  const parent = await account(p, parentLogin);
  const [row] = await p.deps.database.query<Account>(
    `WITH n AS (SELECT nextval(pg_get_serial_sequence('accounts', 'id'))::int AS id)
     INSERT INTO accounts (id, parent_id, path, login_name, password_hash, user_type, username)
     SELECT n.id, $1, $2 || n.id || '/', $3, (SELECT password_hash FROM accounts WHERE id = $1), $4, $3 FROM n
     RETURNING id, path`,
    [parent.id, parent.path, loginName, userType],
  );
  return row!;
}

let imeiSeq = 0;
/** Unique IMEIs across a test file: 15 digits, outside the demo's range. */
export function nextImei(): string {
  imeiSeq++;
  return `86${String(process.pid % 1000).padStart(3, '0')}${String(imeiSeq).padStart(10, '0')}`;
}

export interface DeviceSpec {
  name?: string;
  lat?: number;
  lon?: number;
  online?: boolean;
}

export async function addDevices(p: TestPlatform, loginName: string, specs: DeviceSpec[]): Promise<{ id: number; imei: string; name: string }[]> {
  const acc = await account(p, loginName);
  const rows = specs.map((s, i) => ({ imei: nextImei(), name: s.name ?? `${loginName}-${i + 1}`, ...s }));
  const inserted = await p.deps.database.query<{ id: number; imei: string; name: string }>(
    `INSERT INTO devices (imei, short_id, name, account_id, protocol)
     SELECT x.imei, right(x.imei, 10), x.name, $2, 'watch' FROM json_to_recordset($1::json) AS x(imei text, name text)
     RETURNING id, imei, name`,
    [JSON.stringify(rows.map((r) => ({ imei: r.imei, name: r.name }))), acc.id],
  );
  const byImei = new Map(inserted.map((d) => [d.imei, d]));
  const states = rows
    .filter((r) => r.lat !== undefined)
    .map((r) => ({ d: byImei.get(r.imei)!.id, la: r.lat, lo: r.lon, on: r.online ?? true }));
  if (states.length) {
    await p.deps.database.query(
      `INSERT INTO device_state (device_id, lat, lon, fix_time, last_seen, online, connection_mode, battery, signal)
       SELECT d, la, lo, now(), now(), on_, 'long', 80, 4 FROM json_to_recordset($1::json) AS x(d int, la float8, lo float8, on_ bool)`,
      [JSON.stringify(states.map((s) => ({ d: s.d, la: s.la, lo: s.lo, on_: s.on })))],
    );
  }
  return rows.map((r) => byImei.get(r.imei)!);
}

/** Stores positions for a device: [lat, lon, epoch ms] each. */
export async function addPositions(p: TestPlatform, deviceId: number, points: [number, number, number][]): Promise<void> {
  for (let i = 0; i < points.length; i += 20_000) {
    const chunk = points.slice(i, i + 20_000).map(([la, lo, t]) => ({ la, lo, t: new Date(t).toISOString() }));
    await p.deps.database.query(
      `INSERT INTO positions (device_id, time, received_at, lat, lon, valid, speed)
       SELECT $2, t, t, la, lo, true, 5 FROM json_to_recordset($1::json) AS x(la float8, lo float8, t timestamptz)`,
      [JSON.stringify(chunk), deviceId],
    );
  }
}

export class RealtimeClient {
  readonly messages: RealtimeMessage[] = [];
  private waiters: (() => void)[] = [];
  closed = false;
  /** The close code the server gave, once closed. */
  closeCode: number | undefined;

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      this.messages.push(JSON.parse(data.toString()) as RealtimeMessage);
      for (const w of this.waiters.splice(0)) w();
    });
    socket.on('close', (code: number) => {
      this.closed = true;
      this.closeCode = code;
      for (const w of this.waiters.splice(0)) w();
    });
  }

  /** Connects and registers as the console does (SPEC §3), with the token in the first message. */
  static async connect(baseUrl: string, token: string, userId: number): Promise<RealtimeClient> {
    const socket = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/api/realtime`);
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    const c = new RealtimeClient(socket);
    socket.send(JSON.stringify({ Token: 'fingerprint-test', Source: 'Client', Detail: { UserID: userId, Type: 'Alarm' }, State: 'UP', Authorization: `Bearer ${token}` }));
    await c.until((m) => m.type === 'registered' || m.type === 'error');
    return c;
  }

  until(test: (m: RealtimeMessage) => boolean, timeoutMs = 5000): Promise<RealtimeMessage> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const hit = this.messages.find(test);
        if (hit) return resolve(hit);
        if (this.closed) return reject(new Error('socket closed'));
        this.waiters.push(check);
      };
      const t = setTimeout(() => reject(new Error(`timeout; got ${JSON.stringify(this.messages).slice(0, 500)}`)), timeoutMs);
      const done = resolve;
      resolve = (m) => (clearTimeout(t), done(m));
      check();
    });
  }

  deviceUpdates(deviceId: number) {
    return this.messages.flatMap((m) => (m.type === 'devices' ? m.devices.filter((d) => d.i === deviceId) : []));
  }

  close() {
    this.socket.close();
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
