// Small byte and text helpers shared by the codecs. Pure, no I/O.

export function toHex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
}

export function asBuffer(bytes: Uint8Array | string): Buffer {
  if (typeof bytes === 'string') return Buffer.from(bytes, 'latin1');
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Parses a finite number or returns undefined (empty strings and garbage are "absent"). */
export function num(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v !== 'string') return undefined;
  const t = v.trim();
  if (t === '') return undefined;
  const n = Number(t);
  return Number.isFinite(n) ? n : undefined;
}

/** Integer parse with the same "absent" semantics as num. */
export function int(v: unknown): number | undefined {
  const n = num(v);
  return n === undefined ? undefined : Math.trunc(n);
}

export function round(n: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

/** Drops undefined members so that "absent" is never serialized as a key. */
export function compact<T extends object>(o: T): T | undefined {
  const out: Record<string, unknown> = {};
  let any = false;
  for (const [k, v] of Object.entries(o)) {
    if (v !== undefined) {
      out[k] = v;
      any = true;
    }
  }
  return any ? (out as T) : undefined;
}

export function validDate(d: Date): boolean {
  return Number.isFinite(d.getTime());
}
