// Registers every call of the contract's registry as POST /api/<path>. Implemented calls get their
// zod schemas (validation, serialization, OpenAPI) and handler; the rest answer State 501 with a
// clear message, so a client can tell "not built yet" from "wrong path".
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  ADMIN_USER_TYPE,
  CALLS,
  EXTRA_CALLS,
  SCHEMAS,
  State,
  failureSchema,
  resolveLocale,
  type CallEntry,
} from '@wt/contract';
import type { CallContext, CallDef } from '../calls.js';
import type { AppDeps } from '../deps.js';
import { Authenticator } from '../lib/auth.js';
import { AppError, forbidden } from '../lib/errors.js';

declare module 'fastify' {
  interface FastifyInstance {
    authenticator: Authenticator;
  }
}

export function requestLocale(request: FastifyRequest) {
  return resolveLocale((request.headers['x-language'] as string | undefined) ?? request.headers['accept-language']);
}

export default fp(
  async function calls(app: FastifyInstance, opts: { deps: AppDeps; handlers: CallDef[] }) {
    const { deps } = opts;
    const authenticator = new Authenticator(deps);
    app.decorate('authenticator', authenticator);

    const byPath = new Map<string, CallDef>();
    for (const h of opts.handlers) {
      const key = h.path.toLowerCase();
      if (byPath.has(key)) throw new Error(`Call ${h.path} is implemented twice`);
      byPath.set(key, h);
    }
    const known = new Set([...CALLS, ...EXTRA_CALLS].map((c) => c.path.toLowerCase()));
    for (const key of byPath.keys()) if (!known.has(key)) throw new Error(`Call ${key} is not in the contract's registry`);

    const register = (entry: CallEntry) => {
      const def = byPath.get(entry.path.toLowerCase());
      const schemas = (SCHEMAS as Record<string, { request: unknown; response: unknown } | undefined>)[entry.path];
      const tags = [entry.area];
      if (!def) {
        app.post(`/api${entry.path}`, {
          schema: { tags, summary: `${entry.path} (not implemented yet)`, response: { 501: failureSchema } },
          handler: async () => {
            throw new AppError(State.NOT_IMPLEMENTED, 'common.notImplemented', { path: entry.path });
          },
        });
        return;
      }
      if (!schemas) throw new Error(`Call ${entry.path} has a handler but no schema in the contract`);
      app.post(`/api${entry.path}`, {
        schema: {
          tags,
          summary: entry.note ? `${entry.path} (${entry.note})` : entry.path,
          security: entry.permission === 'public' ? [] : [{ bearer: [] }],
          body: schemas.request as never,
          response: { 200: schemas.response as never, '4xx': failureSchema, '5xx': failureSchema },
        },
        // An absent body is an empty object, so "no parameters" calls validate.
        preValidation: async (request) => {
          if (request.body === undefined || request.body === null) request.body = {};
        },
        handler: async (request) => {
          const ctx: CallContext = {
            deps,
            user: null,
            locale: requestLocale(request),
            ip: request.ip,
            userAgent: String(request.headers['user-agent'] ?? ''),
            request,
          };
          if (entry.permission !== 'public') {
            ctx.user = await authenticator.fromHeader(request.headers.authorization);
            if (entry.permission === 'admin' && ctx.user.userType !== ADMIN_USER_TYPE) throw forbidden();
          }
          return def.handler(ctx, request.body);
        },
      });
    };
    for (const entry of [...CALLS, ...EXTRA_CALLS]) register(entry);
  },
  { name: 'calls' },
);

export { AppError };
