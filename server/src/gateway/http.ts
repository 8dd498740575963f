// HTTP transports: the OsmAnd / Traccar Client protocol (GET or POST, query string, form or JSON)
// at /osmand on the main port and at / on OSMAND_PORT, the JSON uplink of network servers and
// partner systems at POST /api/ingest/:integration (bearer token per integration). A device gets
// its 200 only once its data is committed. (GET /api/metrics: plugins/observability.ts.)
import { timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { State } from '@wt/contract';
import { decodeOsmAnd, decodeUplink, type DeviceMessage, type HttpRequestLike } from '@wt/protocols';
import type { AppDeps } from '../deps.js';
import { AppError } from '../lib/errors.js';
import { hashToken, touchIntegration } from '../modules/integration/repo.js';

/** Compares two hex digests in constant time. */
function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}

// Integrations are managed by the /Integration calls; made in code with createIntegration.
export { createIntegration, hashToken } from '../modules/integration/repo.js';

/**
 * One OsmAnd request: status code and text for the client. `remote` is logged; `address`, the
 * phone's IP, is checked against its device's allowed networks.
 */
export async function handleOsmAnd(deps: AppDeps, req: HttpRequestLike, remote: string, address: string | undefined): Promise<{ status: number; text: string }> {
  const ingest = deps.ingest;
  const res = decodeOsmAnd(req);
  if (!res.ok) {
    const raw = typeof req.body === 'string' || req.body instanceof Uint8Array ? req.body : JSON.stringify(req.body ?? '');
    ingest.malformed({ transport: 'osmand', remote }, Buffer.from(`${req.method} ${req.url}\n${typeof raw === 'string' ? raw : Buffer.from(raw).toString('latin1')}`), res.message);
    return { status: 400, text: res.message };
  }
  try {
    const r = await ingest.ingest(res.messages, { transport: 'osmand', remote, address, mode: 'short' });
    if (r.stored === 0) return r.outside ? { status: 403, text: 'not allowed from this address' } : { status: 400, text: 'unknown device' };
    return { status: 200, text: 'OK' };
  } catch {
    return { status: 503, text: 'not stored, try again' };
  }
}

function headerRecord(h: http.IncomingHttpHeaders): Record<string, string | string[] | undefined> {
  return h as Record<string, string | string[] | undefined>;
}

/** The OsmAnd listener of its own (default port 5055, the port Traccar clients expect). */
export async function startOsmAndServer(deps: AppDeps, port: number): Promise<{ port: number; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > 1024 * 1024) {
        res.writeHead(413).end();
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => {
      const remote = `${req.socket.remoteAddress}:${req.socket.remotePort}`;
      const body = chunks.length ? Buffer.concat(chunks).toString('utf8') : undefined;
      handleOsmAnd(deps, { method: req.method ?? 'GET', url: req.url ?? '/', headers: headerRecord(req.headers), body }, remote, req.socket.remoteAddress)
        .then((r) => res.writeHead(r.status, { 'content-type': 'text/plain' }).end(r.text))
        .catch(() => res.writeHead(500).end());
    });
    req.on('error', () => res.destroy());
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port, host: deps.config.HOST }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const bound = (server.address() as import('node:net').AddressInfo).port;
  deps.log.info({ port: bound }, 'OsmAnd listener started');
  return {
    port: bound,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

function bearer(request: FastifyRequest): string | undefined {
  const h = request.headers.authorization;
  if (h && /^bearer\s+/i.test(h)) return h.replace(/^bearer\s+/i, '').trim();
  const q = (request.query as Record<string, unknown> | undefined)?.token;
  return typeof q === 'string' && q ? q : undefined;
}

/** Routes of the ingest endpoints on the main app (registered as an area plugin). */
export const ingestRoutes: FastifyPluginAsync<{ deps: AppDeps }> = async (app: FastifyInstance, { deps }) => {
  // Devices post forms and plain text too; they reach the decoders as text.
  app.addContentTypeParser(['application/x-www-form-urlencoded', 'text/plain'], { parseAs: 'string' }, (_req, body, done) => done(null, body));
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));

  const osmand = async (request: FastifyRequest, reply: FastifyReply) => {
    const body = request.body as HttpRequestLike['body'];
    const r = await handleOsmAnd(deps, { method: request.method, url: request.url, headers: request.headers as HttpRequestLike['headers'], body }, request.ip, request.ip);
    return reply.code(r.status).type('text/plain').send(r.text);
  };
  app.get('/osmand', osmand);
  app.post('/osmand', osmand);

  app.post('/api/ingest/:integration', async (request, reply) => {
    const { integration } = request.params as { integration: string };
    const token = bearer(request);
    const rows = token
      ? await deps.database.query<{ id: number; path: string; token_hash: string }>(
          `SELECT i.id, a.path, i.token_hash FROM integrations i JOIN accounts a ON a.id = i.account_id WHERE i.name = $1 AND i.enabled`,
          [integration],
        )
      : [];
    const row = rows[0];
    if (!row || !token || !sameHash(hashToken(token), row.token_hash)) throw new AppError(State.TOKEN_INVALID, 'common.tokenInvalid');
    touchIntegration(deps, row.id);

    const ingest = deps.ingest;
    const remote = request.ip;
    const input = typeof request.body === 'string' ? safeJson(request.body) : request.body;
    const list = Array.isArray(input) ? input : [input];
    const messages: DeviceMessage[] = [];
    const errors: { index: number; error: string; issues?: string[] }[] = [];
    list.forEach((item, index) => {
      const r = decodeUplink(item);
      if (r.ok) messages.push(...r.messages);
      else {
        errors.push({ index, error: r.error, ...(r.issues ? { issues: r.issues } : {}) });
        ingest.malformed({ transport: 'http', remote }, Buffer.from(typeof item === 'string' ? item : JSON.stringify(item ?? null)), r.error);
      }
    });
    if (!messages.length && errors.length) {
      return reply.code(400).send({ State: State.BAD_REQUEST, Message: 'common.badJson', Stored: 0, Unknown: [], Errors: errors });
    }
    // The integration writes only for devices of its owner's subtree.
    const r = await ingest.ingest(messages, { transport: 'http', remote, mode: 'short', scopePath: row.path });
    return { State: State.OK, Stored: r.stored, Unknown: [...new Set(r.unknown)], Errors: errors };
  });
};

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
