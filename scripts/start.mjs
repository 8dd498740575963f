// `npm start`: the platform on a fresh clone. Embedded database under data/, demo tenant and
// simulated devices on first start, console at http://localhost:8080 (admin / admin123).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { checkNode, ensureDependencies, ensureWebBuild, log, root } from './lib.mjs';

checkNode();
ensureDependencies();
ensureWebBuild();
log('starting the platform');
const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'server/src/main.ts')], {
  cwd: root,
  stdio: 'inherit',
  env: process.env,
});
for (const s of ['SIGINT', 'SIGTERM']) process.on(s, () => child.kill(s));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
