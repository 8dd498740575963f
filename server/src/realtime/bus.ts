// The event bus between the pipeline, the rules, the realtime hub and the partner push. In one
// process it is in-memory; with REDIS_URL it also carries events between processes (Redis pub/sub).
import { EventEmitter } from 'node:events';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';

export interface SubscribeOptions {
  /**
   * Also receive events published by other processes. Off by default: rule engines and partner
   * push must handle an event once, in the process that committed it; the realtime hub fans out
   * to its own sockets and needs every process's events.
   */
  cluster?: boolean;
}

export interface Bus {
  publish(topic: string, event: unknown): void;
  /** Returns a function that unsubscribes. */
  subscribe<T = unknown>(topic: string, handler: (event: T) => void, opts?: SubscribeOptions): () => void;
  close(): Promise<void>;
  /** Resolves once the subscriptions made so far are active everywhere (Redis acknowledges). */
  ready?(): Promise<void>;
  /** Whether the bus reaches the other processes now (readiness); absent for the in-process bus. */
  connected?(): boolean;
}

export function createMemoryBus(): Bus {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    publish(topic, event) {
      emitter.emit(topic, event);
    },
    subscribe(topic, handler) {
      const h = handler as (e: unknown) => void;
      emitter.on(topic, h);
      return () => emitter.off(topic, h);
    },
    async close() {
      emitter.removeAllListeners();
    },
  };
}

const CHANNEL_PREFIX = 'wt:bus:';

/**
 * Local delivery stays synchronous (same as the memory bus); every event is also published on
 * Redis with this process's id, and events from other processes reach `cluster` subscribers only.
 */
export function createRedisBus(url: string, onError: (err: Error) => void = () => {}): Bus {
  const origin = randomBytes(8).toString('hex');
  const local = new EventEmitter();
  const remote = new EventEmitter();
  local.setMaxListeners(0);
  remote.setMaxListeners(0);
  const pub = new Redis(url, { maxRetriesPerRequest: 3, lazyConnect: false });
  const sub = new Redis(url, { maxRetriesPerRequest: 3, lazyConnect: false });
  pub.on('error', onError);
  sub.on('error', onError);
  const channels = new Map<string, number>();
  let pending: Promise<unknown> = Promise.resolve();
  sub.on('messageBuffer', (channel: Buffer, message: Buffer) => {
    const topic = channel.toString().slice(CHANNEL_PREFIX.length);
    let parsed: { o: string; e: unknown };
    try {
      parsed = JSON.parse(message.toString());
    } catch {
      return;
    }
    if (parsed.o === origin) return;
    remote.emit(topic, parsed.e);
  });
  return {
    publish(topic, event) {
      local.emit(topic, event);
      pub.publish(CHANNEL_PREFIX + topic, JSON.stringify({ o: origin, e: event })).catch(onError);
    },
    subscribe(topic, handler, opts) {
      const h = handler as (e: unknown) => void;
      local.on(topic, h);
      if (!opts?.cluster) return () => local.off(topic, h);
      remote.on(topic, h);
      const n = channels.get(topic) ?? 0;
      channels.set(topic, n + 1);
      if (n === 0) pending = Promise.all([pending, sub.subscribe(CHANNEL_PREFIX + topic).catch(onError)]);
      return () => {
        local.off(topic, h);
        remote.off(topic, h);
        const left = (channels.get(topic) ?? 1) - 1;
        channels.set(topic, left);
        if (left === 0) sub.unsubscribe(CHANNEL_PREFIX + topic).catch(onError);
      };
    },
    async ready() {
      await pending;
    },
    connected: () => pub.status === 'ready' && sub.status === 'ready',
    async close() {
      local.removeAllListeners();
      remote.removeAllListeners();
      await Promise.allSettled([pub.quit(), sub.quit()]);
    },
  };
}
