// The realtime hub: WebSocket /api/realtime. A console registers with its fingerprint and access
// token; from then on it receives the changes of the devices of its account subtree, merged per
// device and flushed a few times a second (a burst of 5 000 positions becomes one message), the
// alarms raised for those devices at once, and the "refresh data" notice.
import fp from 'fastify-plugin';
import websocket from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import { REFRESH_NOTIFICATION_TYPE, type CommandLive, type LiveDevice, type RealtimeMessage } from '@wt/contract';
import type { AuthUser } from '../calls.js';
import type { AppDeps } from '../deps.js';
import { TOPICS, type CommandEvent, type PositionEvent, type StatusEvent } from '../pipeline/events.js';
import {
  REALTIME_TOPICS,
  SESSION_ENDED_CLOSE,
  movedPath,
  type AccountsMovedEvent,
  type AlarmClearedEvent,
  type AlarmRaisedEvent,
  type RefreshEvent,
  type SessionsEndedEvent,
} from './topics.js';

/** How often pending device changes are sent; bounds the messages a console gets per second. */
export const FLUSH_MS = 300;
/** A socket that has not registered by then is closed. */
const REGISTER_TIMEOUT_MS = 10_000;
/** A client that cannot keep up (this many bytes unsent) gets no more batches until it drains. */
const MAX_BUFFERED = 8 * 1024 * 1024;

interface Client {
  socket: WebSocket;
  user: AuthUser;
  fingerprint: string;
  pending: Map<number, LiveDevice>;
  /** Command states to send, by command id (a message to 10 000 watches is a few batches, not 30 000 messages). */
  commands?: Map<number, CommandLive>;
}

/** Every ancestor path of an account path, itself included: '/1/5/' -> '/1/', '/1/5/'. */
function ancestors(path: string): string[] {
  const out: string[] = [];
  for (let i = path.indexOf('/', 1); i !== -1; i = path.indexOf('/', i + 1)) out.push(path.slice(0, i + 1));
  return out;
}

export class RealtimeHub {
  /** Clients by their account path, so an event finds its audience by walking its owner's ancestors. */
  private readonly byPath = new Map<string, Set<Client>>();
  private readonly dirty = new Set<Client>();
  private timer: NodeJS.Timeout | undefined;
  private readonly unsubscribe: (() => void)[] = [];
  /** Messages sent, for tests and metrics. */
  sent = 0;

  constructor(private readonly deps: AppDeps) {}

  start(): void {
    const { bus } = this.deps;
    const cluster = { cluster: true };
    this.unsubscribe.push(
      bus.subscribe<PositionEvent>(TOPICS.position, (e) => this.onPosition(e), cluster),
      bus.subscribe<StatusEvent>(TOPICS.status, (e) => this.onStatus(e), cluster),
      bus.subscribe<AlarmRaisedEvent>(REALTIME_TOPICS.alarmRaised, (e) => this.onAlarm(e), cluster),
      bus.subscribe<RefreshEvent>(REALTIME_TOPICS.refresh, (e) => this.onRefresh(e), cluster),
      bus.subscribe<AlarmClearedEvent>(REALTIME_TOPICS.alarmCleared, (e) => this.onAlarmCleared(e), cluster),
      bus.subscribe<SessionsEndedEvent>(REALTIME_TOPICS.sessionsEnded, (e) => this.onSessionsEnded(e), cluster),
      bus.subscribe<AccountsMovedEvent>(REALTIME_TOPICS.accountsMoved, (e) => this.onAccountsMoved(e), cluster),
      bus.subscribe<CommandEvent>(TOPICS.command, (e) => this.onCommand(e), cluster),
    );
    this.timer = setInterval(() => this.flush(), FLUSH_MS);
    this.timer.unref();
  }

  stop(): void {
    for (const u of this.unsubscribe.splice(0)) u();
    clearInterval(this.timer);
    for (const set of this.byPath.values()) for (const c of set) c.socket.close(1001, 'server stopping');
    this.byPath.clear();
  }

  get clientCount(): number {
    let n = 0;
    for (const s of this.byPath.values()) n += s.size;
    return n;
  }

  add(client: Client): void {
    let set = this.byPath.get(client.user.path);
    if (!set) this.byPath.set(client.user.path, (set = new Set()));
    set.add(client);
  }

  remove(client: Client): void {
    const set = this.byPath.get(client.user.path);
    set?.delete(client);
    if (set?.size === 0) this.byPath.delete(client.user.path);
    this.dirty.delete(client);
  }

  /** Consoles of a moved subtree keep their sockets and now hear their devices by the new path. */
  private onAccountsMoved(e: AccountsMovedEvent): void {
    const moving = [...this.byPath.entries()].filter(([p]) => p.startsWith(e.from));
    for (const [, set] of moving) {
      for (const c of [...set]) {
        this.remove(c);
        c.user = { ...c.user, path: movedPath(c.user.path, e) };
        this.add(c);
        if (c.pending.size) this.dirty.add(c);
      }
    }
  }

  private *audience(accountPath: string): Generator<Client> {
    for (const p of ancestors(accountPath)) {
      const set = this.byPath.get(p);
      if (set) yield* set;
    }
  }

  private merge(accountPath: string, change: LiveDevice): void {
    for (const c of this.audience(accountPath)) {
      const prev = c.pending.get(change.i);
      // Latest state per device wins; fields the newer change lacks keep the older value.
      c.pending.set(change.i, prev ? { ...prev, ...change } : { ...change });
      this.dirty.add(c);
    }
  }

  private onPosition(e: PositionEvent): void {
    // A buffered upload is history: it must not move the device on the live map.
    if (e.buffered || e.lat === null || e.lon === null) return;
    // No console open in this process: nothing to build.
    if (this.byPath.size === 0) return;
    const change: LiveDevice = { i: e.deviceId, la: e.lat, lo: e.lon, t: Date.parse(e.time), ls: Date.parse(e.receivedAt), on: true };
    if (e.speed !== undefined) change.sp = e.speed;
    if (e.course !== undefined) change.co = e.course;
    if (e.status?.battery !== undefined) change.b = e.status.battery;
    if (e.status?.signal !== undefined) change.s = e.status.signal;
    if (e.status?.steps !== undefined) change.st = e.status.steps;
    const i = e.indoor;
    change.in = i ? { sc: i.sceneId, f: i.floorId, x: i.x, y: i.y, mt: i.method, ...(e.accuracy !== undefined ? { a: e.accuracy } : {}) } : null;
    this.merge(e.accountPath, change);
  }

  /** A session that ended keeps no socket open: the changes of its devices stop at once. */
  private onSessionsEnded(e: SessionsEndedEvent): void {
    for (const set of this.byPath.values()) {
      for (const c of [...set]) {
        if (c.user.id !== e.accountId) continue;
        if (e.sessionId !== undefined && c.user.sessionId !== e.sessionId) continue;
        if (e.exceptSessionId !== undefined && c.user.sessionId === e.exceptSessionId) continue;
        this.remove(c);
        c.socket.close(SESSION_ENDED_CLOSE, 'session ended');
      }
    }
  }

  private onStatus(e: StatusEvent): void {
    if (this.byPath.size === 0) return;
    const change: LiveDevice = { i: e.deviceId, on: e.online, ls: Date.parse(e.receivedAt) };
    if (e.connectionMode) change.m = e.connectionMode;
    if (e.status?.battery !== undefined) change.b = e.status.battery;
    if (e.status?.signal !== undefined) change.s = e.status.signal;
    if (e.status?.steps !== undefined) change.st = e.status.steps;
    this.merge(e.accountPath, change);
  }

  private onAlarm(e: AlarmRaisedEvent): void {
    const { deviceId, accountPath, NotificationType, DeviceID, Nickname, Message, MessageKey, MessageParams, Created, AlarmId } = e;
    const alarm = { NotificationType, DeviceID, Nickname, Message, MessageKey, MessageParams, Created, ...(AlarmId ? { AlarmId } : {}) };
    const msg: RealtimeMessage = { type: 'alarm', deviceId, alarm };
    const text = JSON.stringify(msg);
    for (const c of this.audience(accountPath)) this.send(c, text);
  }

  private onAlarmCleared(e: AlarmClearedEvent): void {
    const text = JSON.stringify({ type: 'alarmCleared', deviceId: e.deviceId, alarms: e.alarms } satisfies RealtimeMessage);
    for (const c of this.audience(e.accountPath)) this.send(c, text);
  }

  private onCommand(e: CommandEvent): void {
    if (this.byPath.size === 0) return;
    const change: CommandLive = { c: e.commandId, i: e.deviceId, s: e.status, t: Date.parse(e.at) };
    if (e.reply !== undefined && e.reply !== null) change.r = e.reply;
    for (const c of this.audience(e.accountPath)) {
      (c.commands ??= new Map()).set(change.c, change);
      this.dirty.add(c);
    }
  }

  private onRefresh(e: RefreshEvent): void {
    const text = JSON.stringify({ type: 'refresh', NotificationType: REFRESH_NOTIFICATION_TYPE } satisfies RealtimeMessage);
    for (const c of this.audience(e.accountPath)) this.send(c, text);
  }

  flush(): void {
    for (const c of this.dirty) {
      if (c.socket.bufferedAmount > MAX_BUFFERED) continue;
      const devices = [...c.pending.values()];
      c.pending.clear();
      this.dirty.delete(c);
      if (devices.length) this.send(c, JSON.stringify({ type: 'devices', devices } satisfies RealtimeMessage));
      if (c.commands?.size) {
        const commands = [...c.commands.values()];
        c.commands.clear();
        this.send(c, JSON.stringify({ type: 'commands', commands } satisfies RealtimeMessage));
      }
    }
  }

  private send(c: Client, text: string): void {
    if (c.socket.readyState !== c.socket.OPEN) return;
    c.socket.send(text);
    this.sent++;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    realtime: RealtimeHub;
  }
}

interface Registration {
  Token?: string;
  Source?: string;
  Detail?: { UserID?: number; Type?: string };
  State?: string;
  Authorization?: string;
}

export default fp(
  async function realtime(app: FastifyInstance, opts: { deps: AppDeps }) {
    const hub = new RealtimeHub(opts.deps);
    app.decorate('realtime', hub);
    await app.register(websocket, { options: { maxPayload: 64 * 1024 } });
    app.addHook('onReady', async () => {
      hub.start();
      await opts.deps.bus.ready?.();
    });
    app.addHook('onClose', async () => hub.stop());

    app.get('/api/realtime', { websocket: true }, (socket, request) => {
      const query = request.query as { token?: string };
      let client: Client | undefined;
      const timeout = setTimeout(() => socket.close(4001, 'registration expected'), REGISTER_TIMEOUT_MS);
      const fail = (reason: string) => {
        socket.send(JSON.stringify({ type: 'error', Message: reason } satisfies RealtimeMessage));
        socket.close(4001, reason);
      };
      socket.on('message', (raw) => {
        if (client) return; // Nothing is expected after registration; keep-alives are ignored.
        let reg: Registration;
        try {
          reg = JSON.parse(raw.toString());
        } catch {
          return fail('monitor.realtimeUnauthorized');
        }
        const token = reg.Authorization ?? query.token;
        const header = token ? (token.startsWith('Bearer ') ? token : `Bearer ${token}`) : undefined;
        clearTimeout(timeout);
        app.authenticator.fromHeader(header).then(
          (user) => {
            if (socket.readyState !== socket.OPEN) return;
            client = { socket, user, fingerprint: String(reg.Token ?? ''), pending: new Map() };
            hub.add(client);
            socket.send(JSON.stringify({ type: 'registered', userId: user.id } satisfies RealtimeMessage));
          },
          () => fail('monitor.realtimeUnauthorized'),
        );
      });
      socket.on('close', () => {
        clearTimeout(timeout);
        if (client) hub.remove(client);
      });
      socket.on('error', () => socket.terminate());
    });
  },
  { name: 'realtime', dependencies: ['calls'] },
);
