// Every setting, from the environment, validated at start (ARCHITECTURE.md "Configuration").
import { z } from 'zod';
import { addressEntryError, splitAddressList } from './lib/addresses.js';

const bool = z
  .enum(['1', '0', 'true', 'false', 'on', 'off', 'yes', 'no'])
  .transform((v) => ['1', 'true', 'on', 'yes'].includes(v));
const port = z.coerce.number().int().min(0).max(65535);
/** A listener's port: 0 lets the system pick a free one (tests read it back), `off` disables. */
const listenPort = z.union([z.enum(['off', 'none', 'disabled']).transform(() => null), port]);

/** A comma-separated list of IP addresses, CIDR ranges and range names (`none`: empty). */
const addressList = z
  .string()
  .transform((v) => splitAddressList(v))
  .superRefine((list, ctx) => {
    for (const e of list) {
      const error = addressEntryError(e);
      if (error) ctx.addIssue({ code: 'custom', message: error });
    }
  });

const schema = z.object({
  PORT: port.default(8080),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().url().optional(),
  REDIS_URL: z.string().url().optional(),
  MQTT_URL: z.string().url().optional(),
  WATCH_PORT: listenPort.default(5093),
  GT06_PORT: listenPort.default(5023),
  /** OsmAnd / Traccar Client HTTP listener of its own (the main port serves /osmand too). */
  OSMAND_PORT: listenPort.default(5055),
  /** Seconds without a byte before a device TCP connection is closed (watches send LK every few minutes). */
  GATEWAY_IDLE_SECONDS: z.coerce.number().int().min(5).default(600),
  /** Bytes a device connection may buffer without completing a frame before it is closed. */
  GATEWAY_MAX_BUFFER: z.coerce.number().int().min(1024).default(256 * 1024),
  /** Seconds a sent command waits for the device's reply before it is marked failed (0: never). */
  COMMAND_REPLY_TIMEOUT_SECONDS: z.coerce.number().int().min(0).default(600),
  /** Seconds without a message after which a device is shown offline. */
  OFFLINE_TIMEOUT_SECONDS: z.coerce.number().int().min(10).default(900),
  /** Create devices that report with an unknown IMEI (under AUTO_REGISTER_ACCOUNT) instead of ignoring them. */
  AUTO_REGISTER: bool.default(false),
  /** Login name of the account auto-registered devices belong to; default: the root account. */
  AUTO_REGISTER_ACCOUNT: z.string().optional(),
  /**
   * Batch writer: most messages per transaction, and the longest a message waits for its batch
   * (ms). Under load batches fill while the previous one commits; a large cap lets a device's
   * several messages share one device_state update.
   */
  BATCH_MAX_ROWS: z.coerce.number().int().min(1).max(50_000).default(5000),
  BATCH_MAX_WAIT_MS: z.coerce.number().int().min(0).max(5000).default(20),
  /** Topic filter of JSON device uplinks on MQTT_URL (`+` is the device IMEI). */
  MQTT_TOPIC: z.string().default('devices/+/up'),
  /** MQTT client id; fixed so that the broker keeps QoS 1 uplinks for us while we are down. */
  MQTT_CLIENT_ID: z.string().optional(),
  /** Seed the demo tenant. Default: on when the database is embedded and empty. */
  DEMO: bool.optional(),
  /** Simulated devices in demo mode (0 disables). */
  SIMULATE: z.coerce.number().int().min(0).max(100_000).optional(),
  ROLES: z
    .string()
    .default('api,gateway,worker')
    .transform((s) => new Set(s.split(',').map((r) => r.trim()).filter(Boolean)))
    .pipe(z.set(z.enum(['api', 'gateway', 'worker']))),
  /**
   * Reverse proxies whose X-Forwarded-For / X-Forwarded-Proto are believed (addresses, CIDR ranges,
   * loopback, linklocal, uniquelocal). Empty: the client is the socket's peer, whatever it claims.
   */
  TRUSTED_PROXIES: addressList.default([]),
  /** A bearer token that opens GET /api/metrics from anywhere. */
  METRICS_TOKEN: z.string().min(16).optional(),
  /** Networks GET /api/metrics answers without the token (`none`: the token only). */
  METRICS_ALLOW: addressList.default(['loopback']),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Secret for signing access tokens; generated and kept in the database when unset. */
  AUTH_SECRET: z.string().min(32).optional(),
  ACCESS_TOKEN_TTL: z.coerce.number().int().min(5).default(900),
  REFRESH_TOKEN_TTL: z.coerce.number().int().min(60).default(7 * 24 * 3600),
  /** Failed logins per account and address before a lock-out, and the window in seconds. */
  LOGIN_MAX_FAILURES: z.coerce.number().int().min(1).default(5),
  LOGIN_LOCK_SECONDS: z.coerce.number().int().min(1).default(900),
  /** SMTP server for mails, e.g. smtp://user:pass@host:587; unset: mails go to DATA_DIR/outbox. */
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('WearTrack <no-reply@weartrack.local>'),
  /** Public address of the console, for links in mails; default http://localhost:PORT. */
  PUBLIC_URL: z.string().url().optional(),
  /** Where the built console is served from. */
  WEB_DIST: z.string().optional(),
  PLATFORM_TITLE: z.string().default('WearTrack'),
  /** Alarm SMS: 'log' writes them to the log; 'http' POSTs {phone, text} as JSON to SMS_HTTP_URL. */
  SMS_PROVIDER: z.enum(['log', 'http']).default('log'),
  SMS_HTTP_URL: z.string().url().optional(),
  /** Partner push: first retry delay (doubled each attempt) and attempts before giving up. */
  PUSH_RETRY_BASE_MS: z.coerce.number().int().min(10).default(5000),
  PUSH_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(30).default(10),
  /** How often devices are checked against OFFLINE_TIMEOUT_SECONDS for the offline alarm. */
  ALARM_OFFLINE_CHECK_SECONDS: z.coerce.number().int().min(1).default(60),
  /** Reverse geocoder for device addresses: amap (needs GEOCODER_KEY), nominatim, or none (coordinates only). */
  GEOCODER: z.enum(['amap', 'nominatim', 'none']).default('none'),
  GEOCODER_KEY: z.string().optional(),
  /** Base URL of the geocoder, for a self-hosted Nominatim or a proxy. */
  GEOCODER_URL: z.string().url().optional(),
  /** Milliseconds a geocoder may take before the coordinates are answered instead. */
  GEOCODER_TIMEOUT_MS: z.coerce.number().int().min(100).max(30_000).default(2500),
});

export type Config = z.output<typeof schema> & { PUBLIC_URL: string };

export class ConfigError extends Error {}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = schema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const c = parsed.data;
  return { ...c, PUBLIC_URL: c.PUBLIC_URL ?? `http://localhost:${c.PORT}` };
}
