// Plumbing shared by the TCP devices (watch, GT06): one socket per device, a framer for what the
// server sends, byte counters, and a clean close that does not trigger a reconnect.
import net from 'node:net';
import { SimDevice } from '../device.js';

/** What both protocols' stream framers give: complete frames, and whether the buffer overflowed. */
export interface Framer {
  push(chunk: Uint8Array): { frames: Buffer[]; overflow?: boolean };
}

export abstract class TcpDevice extends SimDevice {
  protected socket: net.Socket | undefined;
  private framer: Framer | undefined;
  private closedForGood: (() => void) | undefined;
  /** Set by RESET-like commands: reconnect after this delay instead of the backoff. */
  protected rebootDelayMs: number | undefined;

  protected abstract get port(): number;
  /** The socket is up: send the login. */
  protected abstract onConnect(): void;
  /** A framer for a new connection (per-connection decoding state starts afresh). */
  protected abstract newFramer(): Framer;
  /** One complete frame from the server. */
  protected abstract onFrame(frame: Buffer): void;

  private onData(chunk: Buffer): void {
    const out = this.framer!.push(chunk);
    if (out.overflow) {
      this.engine.counters.errors++;
      this.abort();
      return;
    }
    for (const frame of out.frames) this.onFrame(frame);
  }

  protected open(): void {
    const o = this.engine.options;
    const s = net.connect({ host: o.host, port: this.port });
    this.socket = s;
    this.framer = this.newFramer();
    s.setNoDelay(true);
    s.on('connect', () => {
      if (this.socket !== s) return;
      this.linkUp();
      this.onConnect();
    });
    s.on('data', (chunk: Buffer) => {
      if (this.socket !== s) return;
      this.engine.counters.bytesIn += chunk.length;
      this.onData(chunk);
    });
    s.on('error', () => {
      this.engine.counters.errors++;
    });
    s.on('close', () => {
      // A socket replaced by a newer one has nothing more to say.
      if (this.socket !== s) return;
      this.socket = undefined;
      const done = this.closedForGood;
      if (done) {
        this.closedForGood = undefined;
        this.connected = false;
        this.online = false;
        done();
        return;
      }
      const delay = this.rebootDelayMs;
      this.rebootDelayMs = undefined;
      this.linkDown(delay);
    });
  }

  protected abort(): void {
    this.socket?.destroy();
  }

  /** Writes a frame; `ackKey` when the server is expected to answer it. */
  protected write(frame: Buffer, ackKey?: string | number): void {
    const s = this.socket;
    if (!s || s.destroyed) return;
    s.write(frame);
    this.sent(frame.length, ackKey);
  }

  /** Ends the connection after what was written is flushed, then reconnects after `ms`. */
  protected reboot(ms: number): void {
    this.rebootDelayMs = ms;
    this.online = false;
    this.socket?.end();
  }

  close(): Promise<void> {
    const s = this.socket;
    if (!s || s.destroyed) {
      this.connected = false;
      this.online = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      this.closedForGood = resolve;
      s.destroy();
    });
  }
}
