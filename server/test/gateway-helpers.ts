// A fake device over a real TCP socket: writes frames, collects what the server sends back.
import net from 'node:net';
import { buildWatchFrame, watchContent } from '@wt/protocols';

export class FakeDevice {
  readonly socket: net.Socket;
  private buf = Buffer.alloc(0);
  private waiters: { test: (b: Buffer) => boolean; resolve: () => void; reject: (e: Error) => void }[] = [];
  closed = false;

  private constructor(socket: net.Socket) {
    this.socket = socket;
    socket.on('data', (c: Buffer) => {
      this.buf = Buffer.concat([this.buf, c]);
      this.check();
    });
    socket.on('close', () => {
      this.closed = true;
      this.check();
    });
    socket.on('error', () => {});
  }

  static connect(port: number): Promise<FakeDevice> {
    return new Promise((resolve, reject) => {
      const s = net.connect({ port, host: '127.0.0.1' }, () => resolve(new FakeDevice(s)));
      s.once('error', reject);
    });
  }

  get received(): Buffer {
    return this.buf;
  }

  text(): string {
    return this.buf.toString('latin1');
  }

  send(bytes: Uint8Array | string): void {
    this.socket.write(bytes);
  }

  /** Waits until the bytes received so far satisfy `test`. */
  until(test: (b: Buffer) => boolean, timeoutMs = 5000): Promise<void> {
    if (test(this.buf)) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`timeout; received: ${JSON.stringify(this.buf.toString('latin1'))}`)), timeoutMs);
      this.waiters.push({ test, resolve: () => (clearTimeout(t), resolve()), reject: (e) => (clearTimeout(t), reject(e)) });
    });
  }

  untilText(s: string, timeoutMs?: number): Promise<void> {
    return this.until((b) => b.toString('latin1').includes(s), timeoutMs);
  }

  waitClosed(timeoutMs = 5000): Promise<void> {
    return this.until(() => this.closed, timeoutMs);
  }

  private check(): void {
    this.waiters = this.waiters.filter((w) => {
      if (w.test(this.buf)) {
        w.resolve();
        return false;
      }
      if (this.closed) {
        w.reject(new Error(`connection closed; received: ${JSON.stringify(this.buf.toString('latin1'))}`));
        return false;
      }
      return true;
    });
  }

  close(): void {
    this.socket.destroy();
  }
}

/**
 * A watch connecting as a device does: its link keep-alive, acknowledged, then a data frame (a heart
 * rate). A link keep-alive alone does not earn a connection the device's commands.
 */
export async function connectWatch(port: number, imei: string, timeoutMs?: number): Promise<FakeDevice> {
  const dev = await FakeDevice.connect(port);
  dev.send(buildWatchFrame('3G', imei, watchContent.lk()));
  await dev.untilText(`[3G*${imei}*0002*LK]`, timeoutMs);
  dev.send(watchData(imei));
  return dev;
}

/** A data frame of a watch (a heart rate). */
export const watchData = (imei: string, heartRate = 72) => buildWatchFrame('3G', imei, watchContent.heart({ heartRate }));

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls until fn returns a truthy value. */
export async function eventually<T>(fn: () => Promise<T> | T, timeoutMs = 5000): Promise<NonNullable<T>> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v as NonNullable<T>;
    if (Date.now() > end) throw new Error('condition not met in time');
    await sleep(25);
  }
}
