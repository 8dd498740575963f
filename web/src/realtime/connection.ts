// The console's realtime connection: registers with the browser fingerprint (SPEC §3) and the
// access token, reconnects with a growing delay after an error, and tells its listeners when it
// is back so they refetch what they missed while it was away.
import type { RealtimeMessage, RealtimeRegistration } from '@wt/contract';

export type ConnectionStatus = 'idle' | 'connecting' | 'open' | 'closed' | 'unsupported';

export interface RealtimeListener {
  onMessage?: (m: RealtimeMessage) => void;
  /** The connection (re)opened after an interruption: data may have been missed. */
  onReconnected?: () => void;
  onStatus?: (s: ConnectionStatus) => void;
}

const MIN_DELAY = 1000;
const MAX_DELAY = 30_000;

const FINGERPRINT_KEY = 'wt.fingerprint';
let fingerprint: Promise<string> | undefined;
/**
 * The browser fingerprint hash, computed once per browser and kept in localStorage (the library,
 * loaded on demand, lays out and draws for hundreds of milliseconds: not on every console load).
 */
export function browserFingerprint(): Promise<string> {
  fingerprint ??= (async () => {
    const saved = readSaved();
    if (saved) return saved;
    try {
      const { default: fp } = await import('@fingerprintjs/fingerprintjs');
      const { visitorId } = await (await fp.load()).get();
      try {
        localStorage.setItem(FINGERPRINT_KEY, visitorId);
      } catch {
        /* storage full or denied: computed again next time */
      }
      return visitorId;
    } catch {
      return `anon-${Math.random().toString(36).slice(2)}`;
    }
  })();
  return fingerprint;
}

function readSaved(): string | null {
  try {
    return localStorage.getItem(FINGERPRINT_KEY);
  } catch {
    return null;
  }
}

export function realtimeSupported(): boolean {
  return typeof window !== 'undefined' && 'WebSocket' in window;
}

export class RealtimeConnection {
  private socket: WebSocket | null = null;
  private listeners = new Set<RealtimeListener>();
  private delay = MIN_DELAY;
  private timer: number | undefined;
  private stopped = true;
  private everOpened = false;
  status: ConnectionStatus = 'idle';

  constructor(private readonly auth: () => { token: string | null; userId: number | null }) {}

  subscribe(l: RealtimeListener): () => void {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    if (!realtimeSupported()) {
      this.setStatus('unsupported');
      return;
    }
    void this.open();
  }

  stop(): void {
    this.stopped = true;
    window.clearTimeout(this.timer);
    this.socket?.close();
    this.socket = null;
    this.setStatus('idle');
  }

  private setStatus(s: ConnectionStatus) {
    this.status = s;
    for (const l of this.listeners) l.onStatus?.(s);
  }

  private async open(): Promise<void> {
    const { token, userId } = this.auth();
    if (!token || !userId || this.stopped) return;
    this.setStatus('connecting');
    const hash = await browserFingerprint();
    if (this.stopped) return;
    const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/realtime`;
    const socket = new WebSocket(url);
    this.socket = socket;
    socket.onopen = () => {
      const reg: RealtimeRegistration = {
        Token: hash,
        Source: 'Client',
        Detail: { UserID: userId, Type: 'Alarm' },
        State: 'UP',
        Authorization: `Bearer ${this.auth().token ?? token}`,
      };
      socket.send(JSON.stringify(reg));
    };
    socket.onmessage = (ev) => {
      let m: RealtimeMessage;
      try {
        m = JSON.parse(String(ev.data)) as RealtimeMessage;
      } catch {
        return;
      }
      if (m.type === 'registered') {
        this.delay = MIN_DELAY;
        const again = this.everOpened;
        this.everOpened = true;
        this.setStatus('open');
        if (again) for (const l of this.listeners) l.onReconnected?.();
        return;
      }
      for (const l of this.listeners) l.onMessage?.(m);
    };
    socket.onclose = () => {
      if (this.socket !== socket) return;
      this.socket = null;
      if (this.stopped) return;
      this.setStatus('closed');
      // Back off, with jitter so that many consoles do not return at the same instant.
      const wait = this.delay * (0.75 + Math.random() / 2);
      this.delay = Math.min(MAX_DELAY, this.delay * 2);
      this.timer = window.setTimeout(() => void this.open(), wait);
    };
    socket.onerror = () => socket.close();
  }
}
