// Which device an identity on the wire belongs to (IMEI, the 10-digit id of watches, a LoRa
// DevEUI), with its owner. Cached in memory: the hot path makes no query per message. Unknown
// identities are cached too, briefly, so a stranger flooding us costs one query a while.
import type { Logger } from 'pino';
import { parseNetworks, type NetworkRange } from '@wt/contract';
import { validIdentity } from '@wt/protocols';
import type { Config } from '../config.js';
import type { Database } from '../db/client.js';
import type { Metrics } from './metrics.js';

export interface DeviceRef {
  id: number;
  imei: string;
  name: string;
  accountId: number;
  accountPath: string;
  protocol: string;
  /** The networks the device may connect from; absent: anywhere. */
  networks?: NetworkRange[];
}

type DeviceRow = Omit<DeviceRef, 'networks'> & { allowedNetworks: string[] | null };

/** A device row as the directory keeps it: its allowed networks parsed once. */
function refOf({ allowedNetworks, ...ref }: DeviceRow): DeviceRef {
  return allowedNetworks?.length ? { ...ref, networks: parseNetworks(allowedNetworks) } : ref;
}

interface Entry {
  ref: DeviceRef | null;
  at: number;
}

const KNOWN_TTL_MS = 5 * 60_000;
const UNKNOWN_TTL_MS = 30_000;
const IMEI = /^\d{15}$/;

const SELECT = `SELECT d.id, d.imei, d.name, d.account_id AS "accountId", a.path AS "accountPath", d.protocol,
  d.allowed_networks AS "allowedNetworks"
  FROM devices d JOIN accounts a ON a.id = d.account_id`;

export class DeviceDirectory {
  private cache = new Map<string, Entry>();
  /** The identities a known device is cached under (IMEI, short id, ext id), so forgetting it is no scan. */
  private keysOf = new Map<number, Set<string>>();
  private loading = new Map<string, Promise<DeviceRef | null>>();
  private autoAccount: Promise<{ id: number } | null> | undefined;

  constructor(
    private readonly database: Database,
    private readonly config: Config,
    private readonly log: Logger,
    private readonly metrics: Metrics,
  ) {}

  /**
   * The cached answer, or undefined when it must be looked up. A known device past its time is
   * still answered (changes reach the cache through invalidate()) and looked up again behind the
   * caller's back, so no message waits for that query.
   */
  cached(identity: string): DeviceRef | null | undefined {
    const e = this.cache.get(identity);
    if (!e) return undefined;
    const age = Date.now() - e.at;
    if (e.ref) {
      if (age > KNOWN_TTL_MS && !this.loading.has(identity)) void this.resolveFresh(identity, e.ref.protocol).catch(() => {});
      return e.ref;
    }
    return age > UNKNOWN_TTL_MS ? undefined : null;
  }

  /**
   * Loads every device at start in one query, so that the first message of each device after a
   * restart (thousands reconnecting at once) finds it in memory. Entries get spread-out ages so
   * their refreshes do not all fall due together.
   */
  async preload(): Promise<number> {
    const rows = await this.database.query<DeviceRow & { shortId: string | null; extId: string | null }>(
      `SELECT d.id, d.imei, d.name, d.account_id AS "accountId", a.path AS "accountPath", d.protocol,
              d.allowed_networks AS "allowedNetworks", d.short_id AS "shortId", d.ext_id AS "extId"
         FROM devices d JOIN accounts a ON a.id = d.account_id`,
    );
    const now = Date.now();
    const shortIds = new Map<string, number>();
    for (const r of rows) if (r.shortId) shortIds.set(r.shortId, (shortIds.get(r.shortId) ?? 0) + 1);
    for (const { shortId, extId, ...row } of rows) {
      const ref = refOf(row);
      if (this.cache.has(ref.imei)) continue;
      const entry = { ref, at: now - Math.random() * KNOWN_TTL_MS };
      this.remember(ref.imei, entry);
      // A 10-digit id two IMEIs share cannot be told apart: left to the lookup, which says so.
      if (shortId && shortIds.get(shortId) === 1 && !this.cache.has(shortId)) this.remember(shortId, entry);
      if (extId && !this.cache.has(extId)) this.remember(extId, entry);
    }
    return rows.length;
  }

  async resolve(identity: string, protocol: string): Promise<DeviceRef | null> {
    const hit = this.cached(identity);
    if (hit !== undefined) return hit;
    return this.resolveFresh(identity, protocol);
  }

  private resolveFresh(identity: string, protocol: string): Promise<DeviceRef | null> {
    let p = this.loading.get(identity);
    if (!p) {
      p = this.load(identity, protocol).finally(() => this.loading.delete(identity));
      this.loading.set(identity, p);
    }
    return p;
  }

  /** Forgets a device (its owner or identity changed). */
  invalidate(match: { imei?: string; deviceId?: number }): void {
    const ids = new Set<number>();
    if (match.deviceId) ids.add(match.deviceId);
    if (match.imei) {
      for (const k of [match.imei, match.imei.slice(-10)]) {
        const ref = this.cache.get(k)?.ref;
        if (ref) ids.add(ref.id);
        // An unknown identity (cached as nobody) may be a device now.
        else this.cache.delete(k);
      }
      // Cached only under another identity (a LoRa DevEUI): the rare case pays for a scan.
      if (!ids.size) for (const [id, keys] of this.keysOf) for (const k of keys) if (this.cache.get(k)?.ref?.imei === match.imei) ids.add(id);
    }
    for (const id of ids) {
      for (const k of this.keysOf.get(id) ?? []) if (this.cache.get(k)?.ref?.id === id) this.cache.delete(k);
      this.keysOf.delete(id);
    }
  }

  /** An account moved with its subtree: its devices keep their owner, whose path changed. */
  moved(e: { from: string; to: string }): void {
    const seen = new Set<Entry>();
    for (const entry of this.cache.values()) {
      const ref = entry.ref;
      if (!ref || seen.has(entry) || !ref.accountPath.startsWith(e.from)) continue;
      seen.add(entry);
      entry.ref = { ...ref, accountPath: e.to + ref.accountPath.slice(e.from.length) };
    }
  }

  private remember(identity: string, entry: Entry): void {
    this.cache.set(identity, entry);
    if (!entry.ref) return;
    let keys = this.keysOf.get(entry.ref.id);
    if (!keys) this.keysOf.set(entry.ref.id, (keys = new Set()));
    keys.add(identity);
  }

  clear(): void {
    this.cache.clear();
    this.keysOf.clear();
  }

  private async load(identity: string, protocol: string): Promise<DeviceRef | null> {
    const id = identity.trim();
    let rows: DeviceRef[] = [];
    const select = async (where: string, value: string) => (await this.database.query<DeviceRow>(`${SELECT} ${where}`, [value])).map(refOf);
    // No device has an identity the database could not even compare (a NUL, a lone surrogate).
    if (!validIdentity(id)) {
      this.remember(identity, { ref: null, at: Date.now() });
      return null;
    }
    if (IMEI.test(id)) rows = await select('WHERE d.imei = $1 LIMIT 1', id);
    else if (/^\d{10}$/.test(id)) rows = await select('WHERE d.short_id = $1 LIMIT 2', id);
    if (rows.length === 0 && id.length > 0) rows = await select('WHERE d.ext_id = $1 LIMIT 1', id.toLowerCase());
    // Two IMEIs ending in the same ten digits: the short id cannot tell them apart.
    let ref = rows.length === 1 ? rows[0]! : null;
    if (rows.length > 1) this.log.warn({ identity: id }, 'ambiguous 10-digit device id: several IMEIs end with it');
    if (!ref && this.config.AUTO_REGISTER && IMEI.test(id)) ref = await this.register(id, protocol);
    this.remember(identity, { ref, at: Date.now() });
    return ref;
  }

  private async register(imei: string, protocol: string): Promise<DeviceRef | null> {
    this.autoAccount ??= (async () => {
      const name = this.config.AUTO_REGISTER_ACCOUNT;
      const rows = name
        ? await this.database.query<{ id: number }>('SELECT id FROM accounts WHERE lower(login_name) = lower($1)', [name])
        : await this.database.query<{ id: number }>('SELECT id FROM accounts WHERE parent_id IS NULL ORDER BY id LIMIT 1');
      if (!rows[0]) this.log.error({ account: name }, 'AUTO_REGISTER: the account for new devices does not exist');
      return rows[0] ?? null;
    })();
    const account = await this.autoAccount;
    if (!account) return null;
    const inserted = await this.database.query<{ id: number }>(
      `INSERT INTO devices (imei, short_id, name, protocol, account_id, activated_at)
       VALUES ($1, $2, $1, $3, $4, now()) ON CONFLICT (imei) DO NOTHING RETURNING id`,
      [imei, imei.slice(-10), protocol, account.id],
    );
    if (inserted.length) {
      this.metrics.autoRegistered++;
      this.log.info({ imei, protocol, accountId: account.id }, 'device registered on first contact');
    }
    const rows = await this.database.query<DeviceRow>(`${SELECT} WHERE d.imei = $1`, [imei]);
    return rows[0] ? refOf(rows[0]) : null;
  }
}
