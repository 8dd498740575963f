// Starts the platform: database (migrated), secrets, demo data, the HTTP app and the background
// services of the roles this process runs; and stops them all in reverse order.
import path from 'node:path';
import { pino, type Logger } from 'pino';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import type { Config } from './config.js';
import { openDatabase, type Database } from './db/client.js';
import { ensurePartitions } from './db/partitions.js';
import { accounts, settings } from './db/schema/index.js';
import type { AppDeps } from './deps.js';
import { LoginLimiter } from './lib/login-limiter.js';
import { createMailer } from './lib/mailer.js';
import { createOutbound, type HostLookup } from './lib/outbound.js';
import { randomToken } from './lib/tokens.js';
import { Ingest } from './pipeline/ingest.js';
import { createMemoryBus, createRedisBus } from './realtime/bus.js';
import { seedDemo } from './seed/demo.js';
import { seedCatalogue } from './modules/catalogue/seed.js';
import { SERVICES, type Service } from './services.js';

export interface Platform {
  app: FastifyInstance;
  deps: AppDeps;
  /** Where the HTTP server listens (after start). */
  url: string;
  close(): Promise<void>;
}

async function setting(db: Database, key: string, make: () => string): Promise<string> {
  await db.db.insert(settings).values({ key, value: make() }).onConflictDoNothing();
  const [row] = await db.db.select().from(settings).where(sql`${settings.key} = ${key}`);
  return row!.value;
}

export interface PlatformOptions {
  log?: Logger;
  listen?: boolean;
  /** The clock of the login limits and unlock links (tests move it). */
  now?: () => number;
  /** Resolves the hosts of outbound requests (default: the system's resolver). */
  lookup?: HostLookup;
}

export async function startPlatform(config: Config, opts: PlatformOptions = {}): Promise<Platform> {
  const log = opts.log ?? pino({ level: config.LOG_LEVEL });
  const database = await openDatabase({
    url: config.DATABASE_URL,
    dataDir: config.DATA_DIR,
    onConnectionError: (err) => log.warn({ err }, 'an idle database connection failed; it will be replaced'),
  });
  // The time series' partitions of today and the days ahead exist before anything is written.
  await ensurePartitions(database);
  const [{ n }] = (await database.db.select({ n: sql<number>`count(*)::int` }).from(accounts)) as [{ n: number }];
  const bus = config.REDIS_URL ? createRedisBus(config.REDIS_URL, (err) => log.warn({ err }, 'redis bus')) : createMemoryBus();
  const deps: AppDeps = {
    config,
    database,
    log,
    mailer: createMailer({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, outboxDir: path.resolve(config.DATA_DIR, 'outbox'), log }),
    bus,
    authSecret: config.AUTH_SECRET ?? (await setting(database, 'auth_secret', () => randomToken(48))),
    loginLimiter: new LoginLimiter(
      {
        db: database.db,
        log,
        limits: {
          maxFailures: config.LOGIN_MAX_FAILURES,
          lockSeconds: config.LOGIN_LOCK_SECONDS,
          delaySeconds: config.LOGIN_DELAY_SECONDS,
          maxDelaySeconds: config.LOGIN_DELAY_MAX_SECONDS,
        },
      },
      opts.now,
    ),
    ingest: new Ingest({ config, database, log, bus }),
    outbound: createOutbound({ allow: config.OUTBOUND_ALLOW, lookup: opts.lookup, log }),
    lifecycle: { closing: false },
  };
  // Every installation starts with the built-in protocols, commands and models.
  await seedCatalogue(database.db);
  const demo = config.DEMO ?? (!config.DATABASE_URL && n === 0);
  if (demo && n === 0) {
    log.info('empty database: seeding the demo tenant (admin / admin123)');
    await seedDemo(deps);
  }

  await deps.ingest.start();

  const app = await buildApp(deps);
  const started: Pick<Service, 'name' | 'stop'>[] = [];
  let url = '';
  try {
    if (opts.listen !== false) {
      url = await app.listen({ port: config.PORT, host: config.HOST });
      url = url.replace('0.0.0.0', 'localhost').replace('[::]', 'localhost');
    } else {
      await app.ready();
    }
    for (const service of SERVICES) {
      if (!service.roles.some((r) => config.ROLES.has(r))) continue;
      const stop = await service.start(deps, app, { demo });
      started.push(stop ? { name: service.name, stop } : service);
    }
  } catch (err) {
    for (const s of started.reverse()) await s.stop().catch(() => {});
    await app.close().catch(() => {});
    await deps.ingest.close().catch(() => {});
    await deps.outbound.close().catch(() => {});
    await database.close().catch(() => {});
    throw err;
  }

  let closing: Promise<void> | undefined;
  return {
    app,
    deps,
    url,
    close() {
      closing ??= (async () => {
        deps.lifecycle!.closing = true;
        for (const s of started.reverse()) await s.stop().catch((err) => log.error({ err, service: s.name }, 'stop failed'));
        await app.close();
        // Commits what is queued, so every acknowledged message is on disk before the database closes.
        await deps.ingest.close();
        await deps.bus.close();
        deps.mailer.close();
        await deps.outbound.close();
        await database.close();
      })();
      return closing;
    },
  };
}
