// Turns every failure into the envelope of ARCHITECTURE.md: {State, Message (i18n key), Params,
// Fields, Text (rendered in the caller's language), RequestId (the reqId of the request's log lines)}.
// Validation failures list the fields at fault.
import fp from 'fastify-plugin';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { State, fieldErrorsOf, httpStatusFor, translate, type FieldError } from '@wt/contract';
import { AppError } from '../lib/errors.js';
import { requestLocale } from './calls.js';

function send(request: FastifyRequest, reply: FastifyReply, state: number, key: string, params?: Record<string, unknown>, fields?: FieldError[]) {
  const locale = requestLocale(request);
  const body: Record<string, unknown> = { State: state, Message: key, Text: translate(locale, key, params), RequestId: request.id };
  if (params) body.Params = params;
  if (fields?.length) {
    body.Fields = fields.map((f) => ({ ...f, Text: translate(locale, f.Message, f.Params) }));
    body.Text = `${body.Text}: ${(body.Fields as { Field: string; Text: string }[]).map((f) => `${f.Field} ${f.Text}`).join('; ')}`;
  }
  return reply.code(httpStatusFor(state)).send(body);
}

export default fp(
  async function errors(app: FastifyInstance) {
    app.setErrorHandler((error: FastifyError, request, reply) => {
      if (error instanceof AppError) return send(request, reply, error.state, error.key, error.params, error.fields);
      if (hasZodFastifySchemaValidationErrors(error)) {
        // The provider keeps each zod issue's details in `params` and its path as `instancePath`.
        const issues = error.validation.map((v) => ({
          ...(v.params as Record<string, unknown>),
          code: v.keyword,
          path: v.instancePath.split('/').slice(1).filter((k) => k !== ''),
          message: v.message ?? '',
        }));
        return send(request, reply, State.BAD_REQUEST, 'common.validation', undefined, fieldErrorsOf(issues, request.body));
      }
      if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || (error as { type?: string }).type === 'entity.parse.failed') {
        return send(request, reply, State.BAD_REQUEST, 'common.badJson');
      }
      if (error.statusCode === 413) {
        // Refused unread. A body of a sane declared size is drained rather than cut off, so that a
        // client still sending it reads this answer; anything else closes the connection.
        if (Number(request.headers['content-length']) <= 32 * 1024 * 1024) reply.removeHeader('connection');
        const max = Math.round(((request.routeOptions.bodyLimit ?? app.initialConfig.bodyLimit ?? 0) / 1024 / 1024) * 100) / 100;
        return send(request, reply, 413, 'common.bodyTooLarge', { max });
      }
      if (error.statusCode === 429) {
        const seconds = Math.ceil(Number(reply.getHeader('retry-after') ?? 60));
        return send(request, reply, State.TOO_MANY_REQUESTS, 'common.rateLimited', { seconds });
      }
      if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
        request.log.info({ err: error }, 'request refused');
        return send(request, reply, error.statusCode === 415 ? State.BAD_REQUEST : error.statusCode, 'common.failed');
      }
      request.log.error({ err: error }, 'request failed');
      return send(request, reply, State.INTERNAL, 'common.internal');
    });

    app.setNotFoundHandler((request, reply) => {
      if (request.url.startsWith('/api/')) return send(request, reply, State.NOT_FOUND, 'common.notFound');
      return reply.code(404).type('text/plain').send('Not found');
    });
  },
  { name: 'errors' },
);
