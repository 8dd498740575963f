// Which connection carries a device's commands. The watch and GT06 protocols prove nothing: any
// connection may name any IMEI. So a connection earns a device's commands by talking like the
// device, and a live connection keeps them while it keeps talking (docs/decisions.md, "Device
// sessions"):
// - A connection qualifies once it sends, after its first frame, a data frame with a plausible
//   sequence: for GT06 a frame other than the login whose serial follows the connection's previous
//   one; for the watch protocol (no numbers) a data frame, not INIT or LK. A connection that only
//   said hello, or sent one frame, never carries commands.
// - Of the qualified connections, the one holding the session keeps it while it talks. A newer one
//   takes it when the holder is closed, or has been silent since the newer one qualified and for
//   longer than its longest recent silence plus GATEWAY_SESSION_QUIET_SECONDS, or (GT06) when the
//   newer one's first serial continues the holder's last and the holder has been silent since.
// - A qualified connection that speaks belies every connection that qualified after it: the device
//   is still where it was. Those carry none of its commands while they live (and a holder that was
//   one gives the session back).
// State per gateway process: each process judges the connections it holds.
import type { Logger } from 'pino';
import { RateLimitedLog, type Metrics } from './metrics.js';

/** A live device connection that can carry commands (TCP sessions). */
export interface DeviceSession {
  deviceId: number;
  protocol: 'watch' | 'gt06';
  remote: string;
  /** The device's IP address (the socket's, or the one a PROXY header named). */
  readonly address?: string;
  /** Encodes and writes a command; returns what was written (text or hex). Throws when it cannot be encoded. */
  sendCommand(command: { code: string; params: Record<string, unknown> }, commandId: number): string;
  readonly open: boolean;
  /** Told when it becomes the connection that carries the device's commands (to send what waits). */
  promoted?(): void;
}

/** What one stored frame says of its connection. */
export interface FrameFacts {
  /** It carried more than a hello (a login; for the watch protocol also a link keep-alive). */
  data: boolean;
  /** Its serial, for protocols that number their frames; undefined when the frame had none. */
  sequence?: number;
}

/** When a frame arrived: its place among all frames of this process, and the clock. */
export interface Arrival {
  tick: number;
  at: number;
}

/** Protocols that number their frames: their connections qualify by the numbers. */
const SEQUENCED: ReadonlySet<string> = new Set(['gt06']);
const SEQUENCE_SPACE = 65536;
/** How far ahead a serial may be and still follow the last one seen (frames lost on a dying connection). */
export const SEQUENCE_WINDOW = 256;
/** A device's longest recent silence: each new silence counts whole, older ones fade by this much a frame. */
const SILENCE_FADE = 0.9;

/** Whether `next` follows `last` by 1 to SEQUENCE_WINDOW, the 16-bit counter wrapping. */
export function follows(last: number, next: number): boolean {
  const d = (next - last + SEQUENCE_SPACE) % SEQUENCE_SPACE;
  return d >= 1 && d <= SEQUENCE_WINDOW;
}

/** What the sessions know of one connection naming one device. Ticks order frames across connections. */
interface Claim {
  session: DeviceSession;
  firstTick: number;
  /** The newest frame: its tick, its arrival (ms), its serial. */
  lastTick: number;
  lastAt: number;
  lastSeq?: number;
  firstSeq?: number;
  /** The newest data frame with a plausible sequence. */
  dataTick?: number;
  /** The data frame that qualified the connection to carry commands. */
  qualifiedTick?: number;
  belied: boolean;
}

interface DeviceClaims {
  imei: string;
  claims: Claim[];
  holder?: Claim;
}

export class DeviceSessions {
  private readonly devices = new Map<number, DeviceClaims>();
  /** Longest recent silence (ms) between two frames on one connection, per device. */
  private readonly silences = new Map<number, number>();
  private tick = 0;
  private readonly secondLog = new RateLimitedLog(30);

  constructor(
    private readonly opts: { quietMs: number; log: Logger; metrics: Metrics; now?: () => number },
  ) {}

  private now(): number {
    return this.opts.now ? this.opts.now() : Date.now();
  }

  /** The connection that carries the device's commands now, if any. */
  get(deviceId: number): DeviceSession | undefined {
    const d = this.devices.get(deviceId);
    if (!d) return undefined;
    this.elect(deviceId, d);
    return d.holder?.session;
  }

  has(deviceId: number): boolean {
    return this.get(deviceId) !== undefined;
  }

  /** The connections that named the device, qualified or not. */
  connections(deviceId: number): DeviceSession[] {
    return this.devices.get(deviceId)?.claims.map((c) => c.session) ?? [];
  }

  /** Devices with a connection that carries their commands. */
  get size(): number {
    let n = 0;
    for (const d of this.devices.values()) if (d.holder?.session.open) n++;
    return n;
  }

  /**
   * Marks a frame's arrival, before it is stored: frames are judged in the order they arrived,
   * whatever the order their batches commit in.
   */
  arrival(): Arrival {
    return { tick: ++this.tick, at: this.now() };
  }

  /** A frame of the device that arrived on this connection was stored. */
  frame(session: DeviceSession, deviceId: number, imei: string, facts: FrameFacts, arrived: Arrival): void {
    let d = this.devices.get(deviceId);
    if (!d) this.devices.set(deviceId, (d = { imei, claims: [] }));
    let c = d.claims.find((x) => x.session === session);
    if (!c) {
      const live = d.claims.filter((x) => x.session.open);
      if (live.length) this.secondConnection(deviceId, d, session, live);
      c = { session, firstTick: arrived.tick, lastTick: 0, lastAt: arrived.at, belied: false };
      d.claims.push(c);
    }
    const newest = arrived.tick > c.lastTick;
    // The device's rhythm is learnt from the connection that carries its commands only.
    if (newest && c.lastTick > 0 && c === d.holder) {
      const silence = arrived.at - c.lastAt;
      this.silences.set(deviceId, Math.max(silence, (this.silences.get(deviceId) ?? 0) * SILENCE_FADE));
    }
    const plausible = !SEQUENCED.has(session.protocol) || (facts.sequence !== undefined && c.lastSeq !== undefined && follows(c.lastSeq, facts.sequence));
    if (facts.data && plausible) c.dataTick = Math.max(c.dataTick ?? 0, arrived.tick);
    c.firstTick = Math.min(c.firstTick, arrived.tick);
    if (newest) {
      if (facts.sequence !== undefined) {
        c.firstSeq ??= facts.sequence;
        c.lastSeq = facts.sequence;
      }
      c.lastTick = arrived.tick;
      c.lastAt = arrived.at;
    }
    // Qualified by a data frame that arrived after the connection's first frame (batches may
    // commit out of order: the ticks are the order of arrival).
    if (c.qualifiedTick === undefined && c.dataTick !== undefined && c.dataTick > c.firstTick) c.qualifiedTick = c.dataTick;
    this.belie(deviceId, d);
    this.elect(deviceId, d);
  }

  /** The connection closed, or names another device now. */
  leave(session: DeviceSession, deviceId: number): void {
    const d = this.devices.get(deviceId);
    if (!d) return;
    d.claims = d.claims.filter((x) => x.session !== session);
    if (d.holder?.session === session) d.holder = undefined;
    if (!d.claims.length) this.devices.delete(deviceId);
    else this.elect(deviceId, d);
  }

  /**
   * A qualified connection that spoke after another qualified belies that other one: the device is
   * still on the earlier connection.
   */
  private belie(deviceId: number, d: DeviceClaims): void {
    if (d.claims.length < 2) return;
    for (const j of d.claims) {
      if (j.belied || j.qualifiedTick === undefined) continue;
      const q = j.qualifiedTick;
      const senior = d.claims.find((s) => s !== j && !s.belied && s.qualifiedTick !== undefined && s.qualifiedTick < q && s.lastTick > q);
      if (!senior) continue;
      j.belied = true;
      this.opts.metrics.sessionsBelied++;
      this.opts.log.warn(
        { imei: d.imei, deviceId, remote: j.session.remote, device: senior.session.remote, held: d.holder === j || undefined },
        'a connection named a device that keeps talking on an earlier one: it carries none of its commands',
      );
    }
  }

  private secondConnection(deviceId: number, d: DeviceClaims, session: DeviceSession, live: Claim[]): void {
    this.opts.metrics.secondConnections++;
    const l = this.secondLog.allow();
    if (!l.ok) return;
    this.opts.log.warn(
      { imei: d.imei, deviceId, remote: session.remote, live: live.map((x) => x.session.remote), suppressed: l.suppressed || undefined },
      'a second connection names a device that has a live one',
    );
  }

  /** Picks the connection that carries the device's commands, and tells it when that changes. */
  private elect(deviceId: number, d: DeviceClaims): void {
    // The usual case: one connection, and it holds the device's commands.
    if (d.claims.length === 1 && d.holder === d.claims[0] && d.holder.session.open && !d.holder.belied) return;
    const now = this.now();
    const eligible = d.claims.filter((x) => x.session.open && !x.belied && x.qualifiedTick !== undefined);
    const latest = (list: Claim[]) => list.reduce<Claim | undefined>((a, x) => (!a || x.lastTick > a.lastTick ? x : a), undefined);
    const held = d.holder && eligible.includes(d.holder) ? d.holder : undefined;
    let next = held;
    if (held) {
      // A connection that qualified after the holder last spoke: the device may have moved there.
      const newer = latest(eligible.filter((x) => x !== held && x.qualifiedTick! > held.lastTick));
      if (newer && (now - held.lastAt > this.quietLimit(deviceId) || this.continues(newer, held))) next = newer;
    } else {
      next = latest(eligible);
    }
    if (next === d.holder) return;
    const from = d.holder?.session.remote;
    d.holder = next;
    if (!next) return;
    if (from !== undefined) this.opts.log.info({ imei: d.imei, deviceId, remote: next.session.remote, from }, 'device commands go to another connection');
    next.session.promoted?.();
  }

  /** GT06: the newer connection's first serial follows the holder's last, and the holder has been silent since. */
  private continues(newer: Claim, held: Claim): boolean {
    return newer.firstSeq !== undefined && held.lastSeq !== undefined && newer.firstTick > held.lastTick && follows(held.lastSeq, newer.firstSeq);
  }

  private quietLimit(deviceId: number): number {
    return this.opts.quietMs + (this.silences.get(deviceId) ?? 0);
  }
}
