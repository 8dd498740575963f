// Serves the built console with history fallback: any GET that is not an API call and not a file
// answers index.html, so deep links like /devices/list work on reload.
// Caching: index.html (and so every console route, including the automatic login
// /login/:name/:pwd, whose address holds a password) is never stored by a browser or a proxy
// (`no-store`); the build's assets carry a content hash in their names and are cached for a year;
// the other public files (favicon, help, sounds) for an hour.
import { existsSync } from 'node:fs';
import path from 'node:path';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

export const NO_STORE = 'no-store';
const HASHED = 'public, max-age=31536000, immutable';
const PUBLIC = 'public, max-age=3600';

export default fp(
  async function web(app: FastifyInstance, opts: { root: string }) {
    const root = path.resolve(opts.root);
    if (!existsSync(path.join(root, 'index.html'))) {
      app.log.warn({ root }, 'console build not found; run `npm run build` to serve the console');
      app.get('/', async (_req, reply) =>
        reply.type('text/plain').send('The console is not built. Run `npm run build`, or `npm start` which builds it.'),
      );
      return;
    }
    const assets = path.join(root, 'assets') + path.sep;
    await app.register(fastifyStatic, {
      root,
      wildcard: false,
      index: ['index.html'],
      cacheControl: false,
      setHeaders: (reply, file) => {
        reply.header('cache-control', path.basename(file) === 'index.html' ? NO_STORE : file.startsWith(assets) ? HASHED : PUBLIC);
      },
    });
    app.get('/*', async (request, reply) => {
      const url = request.url.split('?')[0]!;
      if (url.startsWith('/api/')) return reply.callNotFound();
      const file = path.join(root, path.normalize(url));
      if (file.startsWith(root) && url !== '/' && existsSync(file) && !url.endsWith('/')) return reply.sendFile(path.relative(root, file));
      return reply.sendFile('index.html');
    });
  },
  { name: 'web' },
);
