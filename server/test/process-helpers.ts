// A platform process of its own (`node --import tsx server/src/main.ts`) for tests of what happens
// across processes and crashes: its log lines (JSON, stdout) are kept to wait on, its HTTP port and
// device ports are chosen free beforehand, and it can be signalled (SIGTERM, SIGKILL) and restarted.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../src/cluster/launch.js';
import { eventually } from './gateway-helpers.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export type LogLine = Record<string, unknown> & { msg?: string };

export class PlatformProcess {
  child: ChildProcess | undefined;
  readonly lines: LogLine[] = [];
  private out = '';

  private constructor(
    readonly name: string,
    readonly port: number,
    readonly env: Record<string, string>,
  ) {}

  /** A process of the given environment on a free HTTP port (not started). */
  static async create(name: string, env: Record<string, string>): Promise<PlatformProcess> {
    const port = await freePort();
    return new PlatformProcess(name, port, { HOST: '127.0.0.1', PORT: String(port), OSMAND_PORT: 'off', WATCH_PORT: 'off', GT06_PORT: 'off', SIMULATE: '0', LOG_LEVEL: 'info', ...env });
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get running(): boolean {
    return !!this.child && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Starts it (with extra environment) and resolves once its HTTP port answers. */
  async start(extra: Record<string, string> = {}): Promise<void> {
    // One process at a time: one left running by a failed test is ended first.
    if (this.running) await this.kill('SIGKILL');
    this.lines.length = 0;
    this.out = '';
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], { cwd: ROOT, env: { ...process.env, ...this.env, ...extra }, stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    let buf = '';
    child.stdout!.on('data', (c: Buffer) => {
      if (this.child !== child) return; // a process replaced by a newer start says nothing more here
      buf += c.toString();
      const parts = buf.split('\n');
      buf = parts.pop()!;
      for (const p of parts) {
        try {
          this.lines.push(JSON.parse(p) as LogLine);
        } catch {
          this.out = (this.out + p + '\n').slice(-8000);
        }
      }
    });
    child.stderr!.on('data', (c: Buffer) => (this.out = (this.out + c.toString()).slice(-8000)));
    await eventually(async () => {
      if (!this.running) throw new Error(`${this.name} exited at start (${child.exitCode ?? child.signalCode}):\n${this.out}`);
      return fetch(`${this.url}/api/health/live`).then((r) => r.ok, () => false);
    }, 120_000);
  }

  /** Waits for a log line the test names. */
  log(test: (l: LogLine) => boolean, timeoutMs = 30_000): Promise<LogLine> {
    return eventually(() => this.lines.find(test), timeoutMs);
  }

  /** Signals it and waits for it to end; resolves with its exit code (null when killed by a signal). */
  async kill(signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
    const child = this.child;
    if (!child) return null;
    if (this.running) {
      const ended = new Promise<void>((r) => child.once('exit', () => r()));
      child.kill(signal);
      await ended;
    }
    return child.exitCode;
  }
}
