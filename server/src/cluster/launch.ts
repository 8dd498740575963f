// A local cluster for trying and testing the multi-process deployment (docs/scaling.md): HAProxy in
// front of N gateway processes (device TCP ports, with the PROXY protocol) and M API processes
// (HTTP, console and realtime WebSocket), W worker processes (rules, alarms, jobs), one PostgreSQL
// and one Redis. The first API process starts alone (it applies the migrations and may seed the
// demo tenant), the others after it. Each process is `node server/src/main.ts` with its ROLES and
// ports; HAProxy is the Debian package's binary, run in the foreground with a generated config.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const MAIN = path.join(ROOT, 'server/src/main.ts');

export const HAPROXY_CANDIDATES = ['/usr/sbin/haproxy', '/usr/bin/haproxy', '/usr/local/sbin/haproxy'];

/** HAProxy's binary: found, or installed from Debian when we are root; else why not. */
export function ensureHaproxy(): { path: string } | { missing: string } {
  const found = () => HAPROXY_CANDIDATES.find((c) => existsSync(c));
  if (found()) return { path: found()! };
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot) return { missing: 'HAProxy is not installed (`sudo apt-get install -y haproxy`)' };
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  const r = spawnSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'haproxy'], { stdio: 'inherit', env });
  return found() ? { path: found()! } : { missing: `installing HAProxy failed (apt-get exit ${r.status})` };
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

export interface ClusterOptions {
  gateways: number;
  api: number;
  workers: number;
  databaseUrl: string;
  redisUrl: string;
  /** Ports HAProxy listens on (0: free ones). */
  httpPort?: number;
  watchPort?: number;
  gt06Port?: number;
  /** Extra environment of every process (LOG_LEVEL, DEMO ...). */
  env?: Record<string, string>;
  /** HAProxy's connection limit (each connection is two descriptors of its own); default 8000. */
  maxconn?: number;
  /** Where the processes' output goes: inherited (the CLI) or dropped (tests). */
  output?: 'inherit' | 'ignore';
}

export type Role = 'api' | 'gateway' | 'worker';

export class ClusterProcess {
  child: ChildProcess | undefined;
  constructor(
    readonly role: Role,
    readonly index: number,
    readonly port: number,
    readonly env: Record<string, string>,
    private readonly output: 'inherit' | 'ignore',
    readonly watchPort?: number,
    readonly gt06Port?: number,
  ) {}

  get name(): string {
    return `${this.role}${this.index + 1}`;
  }

  /** Starts the process and resolves once its HTTP port answers. */
  async start(): Promise<void> {
    this.child = spawn(process.execPath, ['--import', 'tsx', MAIN], { cwd: ROOT, env: { ...process.env, ...this.env }, stdio: ['ignore', this.output, this.output] });
    const child = this.child;
    const deadline = Date.now() + 120_000;
    while (Date.now() < deadline) {
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${this.name} exited at start (${child.exitCode ?? child.signalCode})`);
      const ok = await fetch(`http://127.0.0.1:${this.port}/api/metrics`).then((r) => r.ok, () => false);
      if (ok) return;
      await new Promise((r) => setTimeout(r, 250));
    }
    throw new Error(`${this.name} did not start within 120 s`);
  }

  /** Signals the process and waits for it to end. */
  async kill(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const ended = new Promise<void>((r) => child.once('exit', () => r()));
    child.kill(signal);
    await ended;
  }
}

export interface Cluster {
  http: string;
  watchPort: number;
  gt06Port: number;
  processes: ClusterProcess[];
  byRole(role: Role): ClusterProcess[];
  stop(): Promise<void>;
}

function haproxyConfig(o: { maxconn: number; httpPort: number; watchPort: number; gt06Port: number; api: ClusterProcess[]; gateways: ClusterProcess[] }): string {
  const servers = (list: ClusterProcess[], port: (p: ClusterProcess) => number, extra: string) =>
    list.map((p) => `  server ${p.name} 127.0.0.1:${port(p)} ${extra}`).join('\n');
  // Device ports: TCP, least connections, the device's address handed on with the PROXY protocol
  // (v2); a gateway that stops answering is out within a second, and a device connecting meanwhile
  // is sent to another (redispatch). Long idle timeouts: watches are silent for minutes.
  const tcp = (name: string, port: number, backendPort: (p: ClusterProcess) => number) => `
frontend ${name}
  mode tcp
  bind 127.0.0.1:${port}
  default_backend ${name}_gateways

backend ${name}_gateways
  mode tcp
  balance leastconn
  option redispatch
  retries 3
  timeout server 15m
${servers(o.gateways, backendPort, 'send-proxy-v2 check inter 1s fall 1 rise 2')}
`;
  return `global
  # One device connection is two descriptors (device side, gateway side); the hard limit of the
  # account caps it (ulimit -n): raise both for a large fleet.
  maxconn ${o.maxconn}

defaults
  timeout connect 3s
  timeout client 15m
  timeout server 15m
  timeout tunnel 1h
  timeout check 2s
${tcp('watch', o.watchPort, (p) => p.watchPort!)}${tcp('gt06', o.gt06Port, (p) => p.gt06Port!)}
frontend http
  mode http
  bind 127.0.0.1:${o.httpPort}
  option forwardfor
  default_backend api

backend api
  mode http
  balance roundrobin
  option redispatch
  retries 3
  option httpchk GET /api/metrics
${servers(o.api, (p) => p.port, 'check inter 1s fall 2 rise 2')}
`;
}

export async function startCluster(o: ClusterOptions): Promise<Cluster> {
  const haproxyBin = ensureHaproxy();
  if ('missing' in haproxyBin) throw new Error(haproxyBin.missing);
  const dir = mkdtempSync(path.join(tmpdir(), 'wt-cluster-'));
  const output = o.output ?? 'ignore';
  const base = (role: string, name: string, port: number): Record<string, string> => ({
    DATABASE_URL: o.databaseUrl,
    REDIS_URL: o.redisUrl,
    ROLES: role,
    HOST: '127.0.0.1',
    PORT: String(port),
    OSMAND_PORT: 'off',
    WATCH_PORT: 'off',
    GT06_PORT: 'off',
    DATA_DIR: path.join(dir, name),
    SIMULATE: '0',
    // HAProxy on this host: its X-Forwarded-For and its PROXY headers are believed.
    TRUSTED_PROXIES: 'loopback',
    ...o.env,
  });
  const processes: ClusterProcess[] = [];
  for (let i = 0; i < o.api; i++) {
    const port = await freePort();
    processes.push(new ClusterProcess('api', i, port, base('api', `api${i + 1}`, port), output));
  }
  for (let i = 0; i < o.gateways; i++) {
    const [port, watch, gt06] = [await freePort(), await freePort(), await freePort()];
    const env = { ...base('gateway', `gateway${i + 1}`, port), WATCH_PORT: String(watch), GT06_PORT: String(gt06), PROXY_PROTOCOL_FROM: 'loopback', DEMO: '0' };
    processes.push(new ClusterProcess('gateway', i, port, env, output, watch, gt06));
  }
  for (let i = 0; i < o.workers; i++) {
    const port = await freePort();
    processes.push(new ClusterProcess('worker', i, port, { ...base('worker', `worker${i + 1}`, port), DEMO: '0' }, output));
  }
  const byRole = (role: Role) => processes.filter((p) => p.role === role);
  let haproxy: ChildProcess | undefined;
  const stop = async () => {
    await Promise.all(processes.map((p) => p.kill('SIGTERM')));
    if (haproxy && haproxy.exitCode === null) {
      const ended = new Promise<void>((r) => haproxy!.once('exit', () => r()));
      haproxy.kill('SIGTERM');
      await ended;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    // The first API process alone: migrations, then everything else at once.
    const [first, ...rest] = processes;
    await first!.start();
    await Promise.all(rest.map((p) => p.start()));
    const httpPort = o.httpPort || (await freePort());
    const watchPort = o.watchPort || (await freePort());
    const gt06Port = o.gt06Port || (await freePort());
    const cfg = path.join(dir, 'haproxy.cfg');
    writeFileSync(cfg, haproxyConfig({ maxconn: o.maxconn ?? 8000, httpPort, watchPort, gt06Port, api: byRole('api'), gateways: byRole('gateway') }));
    haproxy = spawn(haproxyBin.path, ['-db', '-f', cfg], { stdio: ['ignore', output, 'pipe'] });
    let complaints = '';
    haproxy.stderr!.on('data', (d: Buffer) => {
      complaints = (complaints + d.toString()).slice(-4000);
      if (output === 'inherit') process.stderr.write(d);
    });
    // HAProxy is up when its HTTP frontend answers through to an API process.
    const deadline = Date.now() + 30_000;
    for (;;) {
      if (haproxy.exitCode !== null) throw new Error(`haproxy exited (${haproxy.exitCode}): ${complaints}`);
      if (await fetch(`http://127.0.0.1:${httpPort}/api/metrics`).then((r) => r.status < 500, () => false)) break;
      if (Date.now() > deadline) throw new Error('haproxy did not answer within 30 s');
      await new Promise((r) => setTimeout(r, 200));
    }
    return { http: `http://127.0.0.1:${httpPort}`, watchPort, gt06Port, processes, byRole, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
