// Builds the Fastify instance: plugins first, then the areas' calls and routes.
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import cookie from '@fastify/cookie';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppDeps } from './deps.js';
import { allCalls, areaPlugins } from './modules/index.js';
import { forwardedByUntrusted, isLoopback } from './lib/addresses.js';
import callsPlugin, { BODY_LIMIT } from './plugins/calls.js';
import errorsPlugin from './plugins/errors.js';
import observabilityPlugin from './plugins/observability.js';
import { sheetsPlugin } from './lib/export-sheet.js';
import oplogPlugin from './plugins/oplog.js';
import webPlugin from './plugins/web.js';

const here = path.dirname(fileURLToPath(import.meta.url));
export const DEFAULT_WEB_DIST = path.resolve(here, '../../web/dist');

/**
 * The console's Content Security Policy: its own scripts only; inline styles (antd writes its CSS at
 * run time); images, tiles and map data from https hosts (the base layers: OpenStreetMap, Esri,
 * AMap), data: and blob: URLs; MapLibre's workers; the realtime WebSocket of the same host ('self').
 * No page may frame it but its own, and nothing is upgraded, so plain-HTTP installations work.
 */
export const CONSOLE_CSP = {
  defaultSrc: ["'self'"],
  baseUri: ["'self'"],
  scriptSrc: ["'self'"],
  scriptSrcAttr: ["'none'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'", 'https:'],
  workerSrc: ["'self'", 'blob:'],
  childSrc: ["'self'", 'blob:'],
  objectSrc: ["'none'"],
  formAction: ["'self'"],
  frameAncestors: ["'self'"],
  upgradeInsecureRequests: null,
};

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  // pino's Logger and Fastify's base logger type differ only in optional members.
  const app = Fastify({
    loggerInstance: deps.log as unknown as FastifyBaseLogger,
    routerOptions: { caseSensitive: false, ignoreTrailingSlash: true },
    // Every route reads at most this much; the calls that carry files raise it for themselves.
    bodyLimit: BODY_LIMIT,
    // Forwarded addresses are believed only from the configured proxies; otherwise the client is
    // the socket's peer, so no one can pick the address the limits and the logs see.
    trustProxy: deps.config.TRUSTED_PROXIES.length ? deps.config.TRUSTED_PROXIES : false,
    // Per-request lines would drown the log under device traffic; failures are logged by the error handler.
    logController: new LogController({ disableRequestLogging: true }),
    // One id per request, in its log lines (reqId) and in its error answer (RequestId); never taken
    // from the client, so no one can make two requests look alike in the log.
    genReqId: () => randomUUID(),
    requestIdHeader: false,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  await app.register(errorsPlugin);
  await app.register(observabilityPlugin, { deps });
  await app.register(helmet, { contentSecurityPolicy: { directives: CONSOLE_CSP }, hsts: { maxAge: 180 * 24 * 3600, includeSubDomains: false }, referrerPolicy: { policy: 'strict-origin-when-cross-origin' } });
  await app.register(cookie);
  // A generous ceiling per address against floods; failed logins have their own, stricter limit.
  // Programs on this host (benchmarks, tests, monitoring) are exempt, but not what a proxy on this
  // host forwards.
  await app.register(rateLimit, {
    max: 3000,
    timeWindow: '1 minute',
    allowList: (request) => isLoopback(request.ip) && !forwardedByUntrusted(request),
  });
  await app.register(swagger, {
    openapi: {
      info: { title: `${deps.config.PLATFORM_TITLE} API`, version: '1.0.0', description: 'Every call is POST /api/<path> with a JSON body.' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });

  await app.register(sheetsPlugin);
  await app.register(callsPlugin, { deps, handlers: allCalls() });
  await app.register(oplogPlugin, { deps });
  for (const plugin of areaPlugins) await app.register(plugin, { deps });

  await app.register(webPlugin, { root: deps.config.WEB_DIST ?? DEFAULT_WEB_DIST });
  return app as unknown as FastifyInstance;
}
