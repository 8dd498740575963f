// Once per browser test run: the migrated embedded database every server process starts from.
import type { TestProject } from 'vitest/node';
import { makePgliteSnapshot } from '../server/test/db-snapshot.js';

export default async function setup(project: TestProject) {
  const snapshot = await makePgliteSnapshot();
  project.provide('pgliteSnapshot', snapshot.dir);
  return () => snapshot.remove();
}
