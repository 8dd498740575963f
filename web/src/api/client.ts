// The one API client of the console: POST /api/<path> with a JSON body, typed by the contract's
// SCHEMAS. A failure answer becomes an ApiError carrying the server's i18n message key.
import { LIMITS, State, type CallPath, type CallRequest, type CallResponse, type FieldError } from '@wt/contract';

export class ApiError extends Error {
  readonly state: number;
  /** i18n key of the `messages` namespace. */
  readonly messageKey: string;
  readonly params?: Record<string, unknown>;
  readonly fields?: FieldError[];
  readonly text?: string;

  constructor(state: number, messageKey: string, params?: Record<string, unknown>, fields?: FieldError[], text?: string) {
    super(text || messageKey);
    this.name = 'ApiError';
    this.state = state;
    this.messageKey = messageKey;
    this.params = params;
    this.fields = fields;
    this.text = text;
  }

  get tokenInvalid(): boolean {
    return this.state === State.TOKEN_INVALID;
  }
}

/** The two calls that succeed with State 0; every other call succeeds with 200. */
const ZERO_SUCCESS = new Set<string>(['/user/login', '/user/changepassword']);
/** The refresh call goes without the Authorization header. */
const NO_AUTH = new Set<string>(['/user/refreshtoken']);
/** Calls whose State 1100 is not about the access token: never refreshed and sent again. */
const NO_RETRY = new Set<string>(['/user/refreshtoken', '/user/login']);

export function successStateOf(path: string): number {
  return ZERO_SUCCESS.has(path.toLowerCase()) ? State.LOGIN_OK : State.OK;
}

export interface CallOptions {
  /** Leave an expired-token answer to the caller instead of sending the user to the login page. */
  keepSessionOnTokenError?: boolean;
  signal?: AbortSignal;
}

export interface ClientHooks {
  getToken: () => string | null;
  /** Called once per State 1100 answer that ends the session (unless the caller keeps it), with the answer. */
  onTokenInvalid: (err: ApiError) => void;
  /**
   * Renews the access token after a State 1100 answer (one refresh shared by every caller); the
   * call is then sent once more with the new token. False: the session is over.
   */
  refresh?: () => Promise<boolean>;
  /** The console's language, sent as X-Language: what the server renders (alarm contents, names) is in it. */
  getLanguage?: () => string;
}

let hooks: ClientHooks = { getToken: () => null, onTokenInvalid: () => undefined };

/** Wires the client to the session (done once at start-up, keeps this module free of stores). */
export function configureClient(next: ClientHooks): void {
  hooks = next;
}

type Fetch = typeof fetch;
let fetchImpl: Fetch = (...args) => fetch(...args);
/** For tests. */
export function setFetch(f: Fetch): void {
  fetchImpl = f;
}

export async function call<P extends CallPath>(path: P, body: CallRequest<P>, options: CallOptions = {}): Promise<CallResponse<P>> {
  const sentWith = hooks.getToken();
  try {
    return await send(path, body, options);
  } catch (e) {
    if (!(e instanceof ApiError) || !e.tokenInvalid || NO_RETRY.has(path.toLowerCase()) || !sentWith || !hooks.refresh) {
      if (e instanceof ApiError && e.tokenInvalid && !options.keepSessionOnTokenError) hooks.onTokenInvalid(e);
      throw e;
    }
    // An expired access token: renewed once (unless another call already did), then sent again.
    const renewed = hooks.getToken() !== sentWith || (await hooks.refresh());
    if (!renewed) {
      if (!options.keepSessionOnTokenError) hooks.onTokenInvalid(e);
      throw e;
    }
    try {
      return await send(path, body, options);
    } catch (again) {
      if (again instanceof ApiError && again.tokenInvalid && !options.keepSessionOnTokenError) hooks.onTokenInvalid(again);
      throw again;
    }
  }
}

async function send<P extends CallPath>(path: P, body: CallRequest<P>, options: CallOptions): Promise<CallResponse<P>> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  const token = hooks.getToken();
  if (token && !NO_AUTH.has(path.toLowerCase())) headers.Authorization = `Bearer ${token}`;
  const language = hooks.getLanguage?.();
  if (language) headers['X-Language'] = language;

  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), LIMITS.requestTimeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout.signal]) : timeout.signal;

  let res: Response;
  try {
    res = await fetchImpl(`/api${path}`, { method: 'POST', headers, body: JSON.stringify(body ?? {}), signal });
  } catch (e) {
    clearTimeout(timer);
    if (timeout.signal.aborted) throw new ApiError(0, 'errors.timeout');
    if (options.signal?.aborted) throw e;
    throw new ApiError(0, 'errors.network');
  }
  clearTimeout(timer);

  let data: Record<string, unknown>;
  try {
    data = (await res.json()) as Record<string, unknown>;
  } catch {
    throw new ApiError(res.status, res.status === 401 ? 'common.tokenInvalid' : 'common.internal');
  }
  const state = typeof data.State === 'number' ? data.State : res.status;
  if (state === successStateOf(path) && res.ok) return data as CallResponse<P>;

  const err = new ApiError(
    state,
    typeof data.Message === 'string' && data.Message ? data.Message : 'common.failed',
    data.Params as Record<string, unknown> | undefined,
    data.Fields as FieldError[] | undefined,
    typeof data.Text === 'string' ? data.Text : undefined,
  );
  throw err;
}
