// Device TCP listeners: the 3G watch text protocol and GT06 binary. One small object per
// connection (framer, decoder state, identity); each frame's messages go to the pipeline and the
// protocol reply is written only after they are committed. Garbage is counted and logged, a
// stream the framer cannot resynchronise is closed, and nothing a device sends can throw here.
// Each stored frame is reported to the device sessions (pipeline/sessions.ts), which decide
// whether this connection carries the device's commands.
import net from 'node:net';
import {
  Gt06Framer,
  WatchFramer,
  createGt06State,
  decodeGt06Frame,
  decodeWatchFrame,
  encodeGt06Command,
  encodeWatchCommand,
  parseWatchHeader,
  type DecodeResult,
  type DeviceCommand,
  type Gt06State,
} from '@wt/protocols';
import type { AppDeps } from '../deps.js';
import type { DeviceRef } from '../pipeline/directory.js';
import type { Source } from '../pipeline/ingest.js';
import type { DeviceSession, FrameFacts } from '../pipeline/sessions.js';
import { deliverQueued } from '../modules/command/delivery.js';
import { addressMatcher } from '../lib/addresses.js';
import { ProxyHeaderReader } from './proxy-protocol.js';

/** Frames a connection may have waiting for their commit before we stop reading from it. */
const MAX_PENDING_FRAMES = 16;

abstract class Connection implements DeviceSession {
  deviceId = 0;
  abstract readonly protocol: 'watch' | 'gt06';
  protected ref: DeviceRef | undefined;
  private pending = 0;
  private closed = false;
  /** Draining (the process stops): no more reading, whatever is read is committed and acknowledged. */
  private draining = false;
  readonly source: Source;

  constructor(
    protected readonly deps: AppDeps,
    protected readonly socket: net.Socket,
  ) {
    this.source = { transport: 'watch', remote: `${socket.remoteAddress}:${socket.remotePort}`, address: socket.remoteAddress, mode: 'long' };
  }

  get remote(): string {
    return this.source.remote;
  }

  get address(): string | undefined {
    return this.source.address;
  }

  get open(): boolean {
    return !this.closed && !this.socket.destroyed;
  }

  /** Frames read and submitted, not yet committed (their acknowledgement not yet written). */
  get pendingFrames(): number {
    return this.pending;
  }

  /** Stops reading: what the device sends from now on stays unread (and unacknowledged). */
  drain(): void {
    this.draining = true;
    this.socket.pause();
  }

  abstract sendCommand(command: DeviceCommand, commandId: number): string;
  protected abstract push(chunk: Buffer): { frames: Buffer[]; overflow: boolean; skipped: number };
  protected abstract decode(frame: Buffer): DecodeResult;
  /** What a stored frame says of this connection: more than a hello, and its number. */
  protected abstract facts(res: DecodeResult): FrameFacts;

  onData(chunk: Buffer): void {
    const ingest = this.deps.ingest;
    let out;
    try {
      out = this.push(chunk);
    } catch (err) {
      ingest.malformed(this.source, chunk, `framer failed: ${(err as Error).message}`, this.ref?.imei);
      this.socket.destroy();
      return;
    }
    if (out.skipped > 0) ingest.malformed(this.source, chunk, `${out.skipped} bytes outside any frame`, this.ref?.imei);
    if (out.overflow) {
      this.deps.log.warn({ remote: this.remote, imei: this.ref?.imei }, 'device stream lost its framing: connection closed');
      this.socket.destroy();
      return;
    }
    for (const frame of out.frames) this.onFrame(frame);
  }

  private onFrame(frame: Buffer): void {
    const ingest = this.deps.ingest;
    let res: DecodeResult;
    try {
      res = this.decode(frame);
    } catch (err) {
      ingest.malformed(this.source, frame, `decoder failed: ${(err as Error).message}`, this.ref?.imei);
      return;
    }
    if (res.messages.length === 0) {
      if (res.reply) this.write(res.reply);
      else if (res.deviceId === undefined) ingest.malformed(this.source, frame, 'undecodable frame', this.ref?.imei);
      else ingest.metrics.ignored++;
      return;
    }
    this.pending++;
    if (this.pending >= MAX_PENDING_FRAMES) this.socket.pause();
    const arrived = ingest.sessions.arrival();
    ingest.submit(res.messages, this.source, (err, r) => {
      this.pending--;
      if (this.pending < MAX_PENDING_FRAMES && !this.draining && this.socket.isPaused() && !this.socket.destroyed) this.socket.resume();
      // From outside the device's allowed networks: no session for it here.
      if (r?.outside && this.ref) this.forget();
      // A batch that failed to commit is not acknowledged: the device sends again. Nor is a
      // message of an unknown device.
      if (err || !r || r.stored === 0 || !r.device) return;
      if (res.reply) this.write(res.reply);
      if (r.device.id !== this.ref?.id) {
        if (this.ref) this.forget();
        this.ref = r.device;
        this.deviceId = r.device.id;
      }
      if (this.open) ingest.sessions.frame(this, r.device.id, r.device.imei, this.facts(res), arrived);
    });
  }

  private forget(): void {
    this.deps.ingest.sessions.leave(this, this.deviceId);
    this.ref = undefined;
    this.deviceId = 0;
  }

  /** Now the connection that carries the device's commands: what waits for it goes out. */
  promoted(): void {
    const imei = this.ref?.imei;
    deliverQueued(this.deps, this).catch((err) => this.deps.log.error({ err, imei }, 'sending queued commands failed'));
  }

  protected write(bytes: Uint8Array): void {
    if (!this.socket.destroyed && this.socket.writable) this.socket.write(bytes);
  }

  onClose(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.ref) this.deps.ingest.sessions.leave(this, this.deviceId);
  }
}

class WatchConnection extends Connection {
  readonly protocol = 'watch' as const;
  private readonly framer: WatchFramer;
  private vendor = '3G';
  private wireId = '';
  private index: string | undefined;

  constructor(deps: AppDeps, socket: net.Socket) {
    super(deps, socket);
    this.framer = new WatchFramer({ maxBuffer: deps.config.GATEWAY_MAX_BUFFER });
  }

  protected push(chunk: Buffer) {
    return this.framer.push(chunk);
  }

  protected facts(res: DecodeResult): FrameFacts {
    // INIT and LK only say the watch is there; the protocol numbers nothing.
    return { data: res.messages.some((m) => m.kind !== 'login' && m.kind !== 'heartbeat') };
  }

  protected decode(frame: Buffer): DecodeResult {
    const h = parseWatchHeader(frame, 0);
    if (h && h !== 'more') {
      // Commands go back the way the device speaks: its vendor tag, id form and index variant.
      this.vendor = h.vendor;
      this.wireId = h.id;
      this.index = h.index;
    }
    return decodeWatchFrame(frame);
  }

  sendCommand(command: DeviceCommand, _commandId: number): string {
    const bytes = encodeWatchCommand(this.vendor, this.wireId || (this.ref?.imei ?? ''), command, this.index);
    this.write(bytes);
    return bytes.toString('latin1');
  }
}

class Gt06Connection extends Connection {
  readonly protocol = 'gt06' as const;
  private readonly framer: Gt06Framer;
  private readonly state: Gt06State = createGt06State();
  private serial = 1;

  constructor(deps: AppDeps, socket: net.Socket) {
    super(deps, socket);
    this.source.transport = 'gt06';
    this.framer = new Gt06Framer({ maxBuffer: Math.min(deps.config.GATEWAY_MAX_BUFFER, 64 * 1024) });
  }

  protected push(chunk: Buffer) {
    return this.framer.push(chunk);
  }

  protected decode(frame: Buffer): DecodeResult {
    return decodeGt06Frame(frame, this.state);
  }

  protected facts(res: DecodeResult): FrameFacts {
    // Every packet after the login is numbered and carries the tracker's state (the 0x13 status
    // too: a parked tracker sends nothing else); the serial tells whether it continues the login's.
    return { data: res.messages.some((m) => m.kind !== 'login'), sequence: res.sequence };
  }

  sendCommand(command: DeviceCommand, commandId: number): string {
    this.serial = (this.serial + 1) & 0xffff;
    // The server flag carries the command id; the device echoes it in its reply.
    const bytes = encodeGt06Command(command, this.serial, commandId);
    this.write(bytes);
    return bytes.toString('hex');
  }
}

export interface TcpListener {
  port: number;
  /**
   * Stops: no new connections; the open ones stop being read, wait (up to drainMs) until every frame
   * read is committed and acknowledged, and are then ended, so their devices reconnect elsewhere.
   */
  close(drainMs?: number): Promise<void>;
}

const waitFor = async (test: () => boolean, until: number) => {
  while (!test() && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
  return test();
};

export async function startTcpListener(deps: AppDeps, protocol: 'watch' | 'gt06', port: number): Promise<TcpListener> {
  const sockets = new Map<net.Socket, Connection>();
  const idleMs = deps.config.GATEWAY_IDLE_SECONDS * 1000;
  const metrics = deps.ingest.metrics;
  const fromProxy = addressMatcher(deps.config.PROXY_PROTOCOL_FROM);
  const server = net.createServer({ noDelay: true, keepAlive: true, keepAliveInitialDelay: 60_000 }, (socket) => {
    // Gone before it was taken (a balancer's connect check): nothing to serve.
    if (socket.remoteAddress === undefined) {
      socket.destroy();
      return;
    }
    metrics.connectionOpened(protocol);
    const conn = protocol === 'watch' ? new WatchConnection(deps, socket) : new Gt06Connection(deps, socket);
    sockets.set(socket, conn);
    socket.setTimeout(idleMs);
    // Through a load balancer of PROXY_PROTOCOL_FROM: its header first, naming the device's address.
    let header = fromProxy(socket.remoteAddress) ? new ProxyHeaderReader() : undefined;
    socket.on('data', (chunk: Buffer) => {
      if (!header) return conn.onData(chunk);
      const r = header.push(chunk);
      if (r.state === 'more') return;
      header = undefined;
      if (r.state === 'invalid') {
        deps.ingest.malformed(conn.source, chunk, r.reason);
        socket.destroy();
        return;
      }
      if (r.remote) {
        conn.source.remote = r.remote;
        conn.source.address = r.address;
      }
      if (r.rest.length) conn.onData(r.rest);
    });
    socket.on('timeout', () => socket.destroy());
    socket.on('error', (err) => deps.log.debug({ err, remote: conn.remote }, 'device connection error'));
    socket.on('close', () => {
      metrics.connectionClosed(protocol);
      sockets.delete(socket);
      conn.onClose();
    });
  });
  server.on('error', (err) => deps.log.error({ err, protocol }, 'device listener error'));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port, host: deps.config.HOST, backlog: 4096 }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const bound = (server.address() as net.AddressInfo).port;
  deps.log.info({ protocol, port: bound }, 'device listener started');
  return {
    port: bound,
    async close(drainMs = 0) {
      const closed = new Promise<void>((r) => server.close(() => r()));
      const until = Date.now() + drainMs;
      const conns = [...sockets.values()];
      for (const c of conns) c.drain();
      const pending = () => conns.reduce((n, c) => n + c.pendingFrames, 0);
      const before = pending();
      const flushed = await waitFor(() => pending() === 0, until);
      // Acknowledgements written: the connections end (FIN after what is queued to them), devices reconnect elsewhere.
      for (const s of sockets.keys()) s.end();
      const ended = await waitFor(() => sockets.size === 0, Math.min(until, Date.now() + 2000));
      deps.log.info({ protocol, connections: conns.length, pendingFrames: before, flushed, ended }, 'device listener drained');
      for (const s of sockets.keys()) s.destroy();
      await closed;
    },
  };
}
