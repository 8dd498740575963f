// Entry point: read the configuration, start the platform, stop cleanly on SIGINT/SIGTERM.
import { ConfigError, loadConfig } from './config.js';
import { startPlatform } from './platform.js';

let config;
try {
  config = loadConfig();
} catch (err) {
  if (err instanceof ConfigError) {
    console.error(err.message);
    process.exit(2);
  }
  throw err;
}

const platform = await startPlatform(config);
platform.deps.log.info(`console at ${platform.url}  (API docs: ${platform.url}/api/docs)`);

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    platform.deps.log.info({ signal }, 'shutting down');
    // The device connections' drain, then 15 s for the rest; past that the process ends anyway.
    const force = setTimeout(() => process.exit(1), platform.deps.config.GATEWAY_DRAIN_SECONDS * 1000 + 15_000);
    force.unref();
    platform.close().then(
      () => process.exit(0),
      (err) => {
        platform.deps.log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  });
}
