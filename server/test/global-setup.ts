// Once per test run: the migrated databases every test platform starts from (db-snapshot.ts).
import type { TestProject } from 'vitest/node';
import { makePgliteSnapshot, makePgTemplate } from './db-snapshot.js';

export default async function setup(project: TestProject) {
  const snapshot = await makePgliteSnapshot();
  project.provide('pgliteSnapshot', snapshot.dir);
  const template = process.env.TEST_DATABASE_URL ? await makePgTemplate(process.env.TEST_DATABASE_URL) : undefined;
  if (template) project.provide('pgTemplate', template.name);
  return async () => {
    snapshot.remove();
    await template?.remove();
  };
}
