// How an area declares the calls it implements. A call is a path of the contract's registry, its
// schemas come from the contract, and its handler is a plain function of (context, parsed body).
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { CallPath, Locale, SCHEMAS } from '@wt/contract';
import type { AppDeps } from './deps.js';

export interface AuthUser {
  id: number;
  loginName: string;
  /** Materialized path of the account ('/1/5/'); its subtree is every path with this prefix. */
  path: string;
  /** The server's user type (1-10). */
  userType: number;
  kind: string;
  sessionId: number;
  /** Set by a password reset: every call but a few is refused until the password is changed. */
  mustChangePassword: boolean;
  /** The actions of its permission set (contract permissions.ts), or every action. */
  actions: 'all' | ReadonlySet<string>;
  /** The account's zone, minutes east of UTC: every time it is shown or sends without a zone is in it. */
  timeZoneOffset: number;
  /** Its permitted routes as UserInfo gives them (contract effectiveRoutes); empty or absent: by role. */
  routes?: string;
}

export interface CallContext {
  deps: AppDeps;
  user: AuthUser | null;
  locale: Locale;
  ip: string;
  userAgent: string;
  request: FastifyRequest;
  /** Absent where a route builds a context of its own. */
  reply?: FastifyReply;
}

export interface AuthedContext extends CallContext {
  user: AuthUser;
}

type Schemas = typeof SCHEMAS;
type Body<P extends CallPath> = z.output<Schemas[P]['request']>;
type Result<P extends CallPath> = z.input<Schemas[P]['response']>;

export interface CallDef {
  path: string;
  handler: (ctx: CallContext, body: unknown) => Promise<unknown>;
}

/** Declares the handler of a call; the context has a user unless the registry marks it public. */
export function defineCall<P extends CallPath>(
  path: P,
  handler: (ctx: AuthedContext, body: Body<P>) => Promise<Result<P>>,
): CallDef {
  return { path, handler: handler as CallDef['handler'] };
}

/** For public calls, whose context has no user. */
export function definePublicCall<P extends CallPath>(
  path: P,
  handler: (ctx: CallContext, body: Body<P>) => Promise<Result<P>>,
): CallDef {
  return { path, handler: handler as CallDef['handler'] };
}
