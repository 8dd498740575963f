// Builds the Fastify instance: plugins first, then the areas' calls and routes.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppDeps } from './deps.js';
import { allCalls, areaPlugins } from './modules/index.js';
import callsPlugin from './plugins/calls.js';
import errorsPlugin from './plugins/errors.js';
import webPlugin from './plugins/web.js';

const here = path.dirname(fileURLToPath(import.meta.url));
export const DEFAULT_WEB_DIST = path.resolve(here, '../../web/dist');

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  // pino's Logger and Fastify's base logger type differ only in optional members.
  const app = Fastify({
    loggerInstance: deps.log as unknown as FastifyBaseLogger,
    routerOptions: { caseSensitive: false, ignoreTrailingSlash: true },
    bodyLimit: 20 * 1024 * 1024,
    trustProxy: true,
    // Per-request lines would drown the log under device traffic; failures are logged by the error handler.
    logController: new LogController({ disableRequestLogging: true }),
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  await app.register(errorsPlugin);
  // A generous ceiling per address against floods; failed logins have their own, stricter limit.
  await app.register(rateLimit, { max: 3000, timeWindow: '1 minute', allowList: ['127.0.0.1', '::1'] });
  await app.register(swagger, {
    openapi: {
      info: { title: `${deps.config.PLATFORM_TITLE} API`, version: '1.0.0', description: 'Every call is POST /api/<path> with a JSON body.' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });

  await app.register(callsPlugin, { deps, handlers: allCalls() });
  for (const plugin of areaPlugins) await app.register(plugin, { deps });

  await app.register(webPlugin, { root: deps.config.WEB_DIST ?? DEFAULT_WEB_DIST });
  return app as unknown as FastifyInstance;
}
