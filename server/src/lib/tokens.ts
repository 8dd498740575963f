// Access tokens are short-lived and self-contained (HMAC-SHA256 over {account, session, expiry}), so
// checking one costs no database round trip; refresh tokens are random, stored only as a hash, and
// rotate on every use.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export interface AccessClaims {
  /** account id */
  sub: number;
  /** session id */
  sid: number;
  /** expiry, seconds since epoch */
  exp: number;
}

const b64 = (buf: Buffer) => buf.toString('base64url');

export function signAccessToken(secret: string, claims: AccessClaims): string {
  const body = b64(Buffer.from(JSON.stringify(claims)));
  const mac = b64(createHmac('sha256', secret).update(body).digest());
  return `${body}.${mac}`;
}

/** The claims of a well-signed, unexpired token, or null. */
export function verifyAccessToken(secret: string, token: string, nowSeconds = Date.now() / 1000): AccessClaims | null {
  const dot = token.indexOf('.');
  if (dot <= 0) return null;
  const body = token.slice(0, dot);
  const given = Buffer.from(token.slice(dot + 1), 'base64url');
  const expected = createHmac('sha256', secret).update(body).digest();
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as AccessClaims;
    if (typeof claims.sub !== 'number' || typeof claims.sid !== 'number' || typeof claims.exp !== 'number') return null;
    return claims.exp > nowSeconds ? claims : null;
  } catch {
    return null;
  }
}

export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/**
 * The mark a browser keeps after logging in to an account (a random id signed for the account), so
 * a later login from it is recognised as the owner's own source. Answers the mark's value.
 */
export function signKnownBrowser(secret: string, accountId: number): string {
  const id = randomToken(12);
  return `${id}.${b64(createHmac('sha256', secret).update(`known-browser:${accountId}:${id}`).digest())}`;
}

/** The id of a well-signed mark of this account, or null. */
export function verifyKnownBrowser(secret: string, accountId: number, value: string | undefined): string | null {
  if (!value) return null;
  const dot = value.indexOf('.');
  if (dot <= 0) return null;
  const id = value.slice(0, dot);
  const given = Buffer.from(value.slice(dot + 1), 'base64url');
  const expected = createHmac('sha256', secret).update(`known-browser:${accountId}:${id}`).digest();
  return given.length === expected.length && timingSafeEqual(given, expected) ? id : null;
}
