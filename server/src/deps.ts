// What every part of the server is given: no module-level singletons, so tests build as many
// isolated instances as they like and shutdown closes everything.
import type { Logger } from 'pino';
import type { Config } from './config.js';
import type { Database } from './db/client.js';
import type { LoginLimiter } from './lib/login-limiter.js';
import type { Mailer } from './lib/mailer.js';
import type { Outbound } from './lib/outbound.js';
import type { Ingest } from './pipeline/ingest.js';
import type { Bus } from './realtime/bus.js';

export interface AppDeps {
  config: Config;
  database: Database;
  log: Logger;
  mailer: Mailer;
  bus: Bus;
  /** Secret that signs access tokens. */
  authSecret: string;
  loginLimiter: LoginLimiter;
  /** The device ingest pipeline: metrics, live state, live device sessions, listener ports. */
  ingest: Ingest;
  /** HTTP to addresses users or operators set (partner push, SMS gateways): public addresses and OUTBOUND_ALLOW only. */
  outbound: Outbound;
  /** Set while the platform shuts down: readiness answers 503 from the first step. */
  lifecycle?: { closing: boolean };
}
