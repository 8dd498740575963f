// `npm run backup -- FILE` and `npm run restore -- FILE`: the installation that DATA_DIR and
// DATABASE_URL name (as `npm start` reads them, from the repository's root). See docs/operations.md.
import path from 'node:path';
import { loadConfig } from '../config.js';
import { BackupError, backup, restore } from './backup.js';

const [action, file] = process.argv.slice(2);
if ((action !== 'backup' && action !== 'restore') || !file) {
  console.error('usage: npm run backup -- FILE | npm run restore -- FILE');
  process.exit(2);
}
const config = loadConfig();
const place = { dataDir: path.resolve(config.DATA_DIR), databaseUrl: config.DATABASE_URL };
const where = place.databaseUrl ? 'PostgreSQL' : `the embedded database in ${place.dataDir}`;
try {
  const m = action === 'backup' ? await backup(place, file) : await restore(place, file);
  console.log(
    `${action === 'backup' ? 'backed up' : 'restored'} ${where} ${action === 'backup' ? 'to' : 'from'} ${file}: ` +
      `${m.migrations} migrations, ${m.files.length} files, made ${m.createdAt}`,
  );
} catch (err) {
  console.error(err instanceof BackupError ? err.message : err);
  process.exit(1);
}
