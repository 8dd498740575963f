// Passwords are hashed with argon2id; the plain text is never stored or logged.
import { hash, verify } from '@node-rs/argon2';

// Algorithm.Argon2id of the package's const enum, written out (const enums do not cross modules).
const ARGON2ID = 2;

export function hashPassword(plain: string): Promise<string> {
  return hash(plain, { algorithm: ARGON2ID, memoryCost: 19456, timeCost: 2, parallelism: 1 });
}

export async function verifyPassword(stored: string, plain: string): Promise<boolean> {
  try {
    return await verify(stored, plain);
  } catch {
    return false;
  }
}
