// Serves the built console with history fallback: any GET that is not an API call and not a file
// answers index.html, so deep links like /devices/list work on reload.
import { existsSync } from 'node:fs';
import path from 'node:path';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

export default fp(
  async function web(app: FastifyInstance, opts: { root: string }) {
    if (!existsSync(path.join(opts.root, 'index.html'))) {
      app.log.warn({ root: opts.root }, 'console build not found; run `npm run build` to serve the console');
      app.get('/', async (_req, reply) =>
        reply.type('text/plain').send('The console is not built. Run `npm run build`, or `npm start` which builds it.'),
      );
      return;
    }
    await app.register(fastifyStatic, { root: opts.root, wildcard: false, index: ['index.html'], maxAge: '1h', immutable: false });
    app.get('/*', async (request, reply) => {
      const url = request.url.split('?')[0]!;
      if (url.startsWith('/api/')) return reply.callNotFound();
      const file = path.join(opts.root, path.normalize(url));
      if (file.startsWith(opts.root) && url !== '/' && existsSync(file) && !url.endsWith('/')) return reply.sendFile(path.relative(opts.root, file));
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    });
  },
  { name: 'web' },
);
