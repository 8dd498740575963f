// Every setting, from the environment, validated at start (ARCHITECTURE.md "Configuration").
import { z } from 'zod';
import { addressEntryError, splitAddressList } from './lib/addresses.js';
import { literalRefusal } from './lib/outbound.js';

const bool = z
  .enum(['1', '0', 'true', 'false', 'on', 'off', 'yes', 'no'])
  .transform((v) => ['1', 'true', 'on', 'yes'].includes(v));
const port = z.coerce.number().int().min(0).max(65535);
/** A listener's port: 0 lets the system pick a free one (tests read it back), `off` disables. */
const listenPort = z.union([z.enum(['off', 'none', 'disabled']).transform(() => null), port]);

/** A raster tile URL template: http(s), with {z}, {x} and {y}. */
const tileUrl = z
  .string()
  .regex(/^https?:\/\//, 'must start with http:// or https://')
  .refine((v) => ['{z}', '{x}', '{y}'].every((k) => v.includes(k)), 'must contain {z}, {x} and {y}');

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
  /** On SIGTERM: how long device connections may take to have what was read committed and acknowledged before they are ended. */
  GATEWAY_DRAIN_SECONDS: z.coerce.number().int().min(0).max(300).default(10),
  /**
   * Seconds a device's command connection must stay silent, beyond its longest recent silence,
   * before a newer connection naming the device takes its commands (docs/decisions.md, device sessions).
   */
  GATEWAY_SESSION_QUIET_SECONDS: z.coerce.number().int().min(1).default(30),
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
  /**
   * Rows a large import (stock-in batch, device sheet) writes per transaction; default 500 on the
   * embedded database, 10 000 on PostgreSQL (lib/sql.ts importPace).
   */
  IMPORT_CHUNK_ROWS: z.coerce.number().int().min(1).max(100_000).optional(),
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
  /**
   * Load balancers in front of the device TCP ports that send the PROXY protocol (v1 or v2): a
   * connection from one of them must start with the header, whose source address the gateway
   * then logs and uses as the device's. Empty: no header is read from anyone.
   */
  PROXY_PROTOCOL_FROM: addressList.default([]),
  /**
   * Networks that partner push and the SMS gateways may reach although they are not public
   * internet addresses (loopback, private, link-local …; lib/outbound.ts). Empty: public only.
   */
  OUTBOUND_ALLOW: addressList.default([]),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Secret for signing access tokens; generated and kept in the database when unset. */
  AUTH_SECRET: z.string().min(32).optional(),
  ACCESS_TOKEN_TTL: z.coerce.number().int().min(5).default(900),
  REFRESH_TOKEN_TTL: z.coerce.number().int().min(60).default(7 * 24 * 3600),
  /** Failed logins per account and source before that source is locked, and the window and lock in seconds. */
  LOGIN_MAX_FAILURES: z.coerce.number().int().min(1).default(5),
  LOGIN_LOCK_SECONDS: z.coerce.number().int().min(1).default(900),
  /**
   * Past 4 × LOGIN_MAX_FAILURES failures of an account from everywhere, the wait before the next
   * attempt from a source the account does not know, doubled by each further failure up to
   * LOGIN_DELAY_MAX_SECONDS.
   */
  LOGIN_DELAY_SECONDS: z.coerce.number().int().min(1).max(86_400).default(30),
  LOGIN_DELAY_MAX_SECONDS: z.coerce.number().int().min(1).max(86_400).default(900),
  /** SMTP server for mails, e.g. smtp://user:pass@host:587; unset: mails go to DATA_DIR/outbox. */
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('WearTrack <no-reply@weartrack.local>'),
  /** Public address of the console, for links in mails; default http://localhost:PORT. */
  PUBLIC_URL: z.string().url().optional(),
  /** Where the built console is served from. */
  WEB_DIST: z.string().optional(),
  PLATFORM_TITLE: z.string().default('WearTrack'),
  /** Alarm SMS: 'log' writes them to the log; 'http' POSTs {phone, text} as JSON to SMS_HTTP_URL; 'aliyun', 'smpp' below. */
  SMS_PROVIDER: z.enum(['log', 'http', 'aliyun', 'smpp']).default('log'),
  SMS_HTTP_URL: z.string().url().optional(),
  /** Partner push: first retry delay (doubled each attempt) and attempts before giving up. */
  PUSH_RETRY_BASE_MS: z.coerce.number().int().min(10).default(5000),
  PUSH_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(30).default(10),
  /** Days the operation log keeps its entries; older ones are pruned by a job every hour (0: kept for ever). */
  OPERATION_LOG_RETENTION_DAYS: z.coerce.number().int().min(0).max(36_500).default(180),
  /** How often devices are checked against OFFLINE_TIMEOUT_SECONDS for the offline alarm. */
  ALARM_OFFLINE_CHECK_SECONDS: z.coerce.number().int().min(1).default(60),
  /** A repeat of an open alarm (same device and type) within this many seconds of its last one updates it; later, a new alarm. */
  ALARM_REPEAT_WINDOW_SECONDS: z.coerce.number().int().min(0).max(86_400).default(600),
  /** A health alarm is cleared after this many consecutive readings of its measure in range. */
  ALARM_HEALTH_CLEAR_READINGS: z.coerce.number().int().min(1).max(100).default(3),
  ALARM_OVERSPEED_FIXES: z.coerce.number().int().min(1).max(20).default(2),
  /** A low battery alarm is cleared once the device reports its battery above this percentage. */
  ALARM_BATTERY_CLEAR_PERCENT: z.coerce.number().int().min(1).max(100).default(20),
  /** Account fences: a crossing is confirmed after this many consecutive fixes on the new side (0: not a criterion)... */
  FENCE_DWELL_FIXES: z.coerce.number().int().min(0).max(100).default(2),
  /** ... or after this many seconds on it, whichever comes first (0: not a criterion). */
  FENCE_DWELL_SECONDS: z.coerce.number().int().min(0).max(86_400).default(60),
  /** Account fences ignore fixes whose accuracy is poorer (larger) than this, in metres (LBS fixes). */
  FENCE_MAX_ACCURACY_M: z.coerce.number().min(1).max(100_000).default(150),
  /** How often the attendance job brings daily summaries up to date. */
  ATTENDANCE_INTERVAL_SECONDS: z.coerce.number().int().min(5).max(86_400).default(300),
  /**
   * Reverse geocoder for device addresses: offline (province, city and district from the boundaries
   * shipped with the platform), amap (needs GEOCODER_KEY), nominatim, or none (coordinates only).
   * An online geocoder that fails or is slow falls back to the offline one.
   */
  GEOCODER: z.enum(['offline', 'amap', 'nominatim', 'none']).default('offline'),
  GEOCODER_KEY: z.string().optional(),
  /** Base URL of the geocoder, for a self-hosted Nominatim or a proxy. */
  GEOCODER_URL: z.string().url().optional(),
  /** Milliseconds a geocoder may take before the coordinates are answered instead. */
  GEOCODER_TIMEOUT_MS: z.coerce.number().int().min(100).max(30_000).default(2500),
  /** Map sources offered to the console, in order; tianditu needs MAP_TILE_TIANDITU_KEY. */
  MAP_SOURCES: z
    .string()
    .default('offline,osm,amap,tianditu')
    .transform((v) => [...new Set(v.split(',').map((s) => s.trim()).filter(Boolean))])
    .pipe(z.array(z.enum(['offline', 'osm', 'amap', 'tianditu'])).min(1)),
  /** The map source a browser starts with (the user's choice is kept per browser). */
  MAP_DEFAULT_SOURCE: z.enum(['offline', 'osm', 'amap', 'tianditu']).default('offline'),
  /** Tile URL templates ({z}/{x}/{y}; {s} picks a subdomain among MAP_TILE_*_SUBDOMAINS), for a tile server or proxy of your own. */
  MAP_TILE_OSM_URL: tileUrl.default('https://tile.openstreetmap.org/{z}/{x}/{y}.png'),
  MAP_TILE_OSM_SATELLITE_URL: tileUrl.default('https://server.arcgisonline.com/ArcGIS/rest/services/World_Imagery/MapServer/tile/{z}/{y}/{x}'),
  MAP_TILE_AMAP_URL: tileUrl.default('https://webrd0{s}.is.autonavi.com/appmaptile?lang=zh_cn&size=1&scale=1&style=8&x={x}&y={y}&z={z}'),
  MAP_TILE_AMAP_SATELLITE_URL: tileUrl.default('https://webst0{s}.is.autonavi.com/appmaptile?style=6&x={x}&y={y}&z={z}'),
  MAP_TILE_AMAP_SUBDOMAINS: z.string().default('1,2,3,4'),
  /** Tianditu (天地图) browser key; without it Tianditu is not offered. */
  MAP_TILE_TIANDITU_KEY: z.string().optional(),
  MAP_TILE_TIANDITU_URL: tileUrl.default('https://t{s}.tianditu.gov.cn/DataServer?T=vec_w&x={x}&y={y}&l={z}&tk={key}'),
  MAP_TILE_TIANDITU_LABELS_URL: tileUrl.default('https://t{s}.tianditu.gov.cn/DataServer?T=cva_w&x={x}&y={y}&l={z}&tk={key}'),
  MAP_TILE_TIANDITU_SATELLITE_URL: tileUrl.default('https://t{s}.tianditu.gov.cn/DataServer?T=img_w&x={x}&y={y}&l={z}&tk={key}'),
  MAP_TILE_TIANDITU_SATELLITE_LABELS_URL: tileUrl.default('https://t{s}.tianditu.gov.cn/DataServer?T=cia_w&x={x}&y={y}&l={z}&tk={key}'),
  MAP_TILE_TIANDITU_SUBDOMAINS: z.string().default('0,1,2,3,4,5,6,7'),
  /** Alibaba Cloud SMS (SMS_PROVIDER=aliyun): keys, signature name, and a template whose variable carries the text. */
  SMS_ALIYUN_ENDPOINT: z.string().url().default('https://dysmsapi.aliyuncs.com/'),
  SMS_ALIYUN_ACCESS_KEY_ID: z.string().optional(),
  SMS_ALIYUN_ACCESS_KEY_SECRET: z.string().optional(),
  SMS_ALIYUN_SIGN_NAME: z.string().optional(),
  SMS_ALIYUN_TEMPLATE_CODE: z.string().optional(),
  SMS_ALIYUN_TEMPLATE_PARAM: z.string().default('content'),
  /** SMPP 3.4 SMSC (SMS_PROVIDER=smpp): smpp://host:port, bind credentials, sender address, submits per second. */
  SMPP_URL: z.string().regex(/^s?smpp:\/\/[^/]+/, 'smpp://host:port').optional(),
  SMPP_SYSTEM_ID: z.string().optional(),
  SMPP_PASSWORD: z.string().optional(),
  SMPP_SOURCE_ADDR: z.string().default('WearTrack'),
  SMPP_THROUGHPUT: z.coerce.number().int().min(1).max(10_000).default(10),
  /** Alarm notices (SMS, e-mail): first retry delay (doubled each attempt) and attempts before giving up. */
  NOTICE_RETRY_BASE_MS: z.coerce.number().int().min(10).default(5000),
  NOTICE_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(30).default(8),
  /** Companion app packages: the largest upload, and how often one address may ask CheckAppVersion per minute. */
  APP_PACKAGE_MAX_MB: z.coerce.number().int().min(1).max(2048).default(300),
  APP_CHECK_PER_MINUTE: z.coerce.number().int().min(1).default(60),
  /** Weather forecasts: an Open-Meteo compatible forecast API, its key (the commercial plan's), and the daily push's local time. */
  WEATHER_URL: z.string().url().default('https://api.open-meteo.com/v1/forecast'),
  WEATHER_API_KEY: z.string().optional(),
  WEATHER_PUSH_AT: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'HH:MM').default('07:30'),
  /** Locations: positions (or hearings) inside in a row, or seconds inside, that confirm an entry (0: not a criterion). */
  LOCATION_ENTER_FIXES: z.coerce.number().int().min(0).max(100).default(2),
  LOCATION_ENTER_SECONDS: z.coerce.number().int().min(0).max(3600).default(10),
  /** Zones: positions outside in a row, or seconds outside, that confirm an exit (0: not a criterion). */
  LOCATION_LEAVE_FIXES: z.coerce.number().int().min(0).max(100).default(3),
  LOCATION_LEAVE_SECONDS: z.coerce.number().int().min(0).max(3600).default(15),
  /** Beacon-defined locations: a device none of its beacons heard for this long has left. */
  LOCATION_BEACON_TIMEOUT_SECONDS: z.coerce.number().int().min(5).max(86_400).default(30),
  /** Master-slave: a slave not heard by its master for this long is separated (a binding may set its own). */
  SLAVE_TIMEOUT_SECONDS: z.coerce.number().int().min(10).max(86_400).default(60),
  /** Asset inventory: an asset not seen for this long is missing (and not counted as seen by a stock-take). */
  ASSET_MISSING_MINUTES: z.coerce.number().int().min(1).max(43_200).default(30),
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
  // The SMS gateway is reached through lib/outbound.ts: an internal address it cannot reach is said at start, not at the first alarm.
  const [name, gateway] = c.SMS_PROVIDER === 'http' ? ['SMS_HTTP_URL', c.SMS_HTTP_URL] : c.SMS_PROVIDER === 'aliyun' ? ['SMS_ALIYUN_ENDPOINT', c.SMS_ALIYUN_ENDPOINT] : [];
  const refused = gateway ? literalRefusal(gateway, c.OUTBOUND_ALLOW) : undefined;
  if (refused) throw new ConfigError(`Invalid configuration:\n  ${name}: ${refused.host} is not a public internet address; add its network to OUTBOUND_ALLOW`);
  return { ...c, PUBLIC_URL: c.PUBLIC_URL ?? `http://localhost:${c.PORT}` };
}
