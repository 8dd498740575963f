// Watch text frames: `[VV*ID*LEN*CONTENT]` or `[VV*ID*INDEX*LEN*CONTENT]`, LEN = 4 hex digits of the
// content length in bytes. Inside the content `}` is an escape: `}` followed by 0x01..0x05 stands
// for `}` `[` `]` `,` `*` (the same mapping as Traccar's WatchFrameDecoder), so that binary
// payloads (voice, images) cannot contain a bare bracket.

const OPEN = 0x5b; // [
const CLOSE = 0x5d; // ]
const STAR = 0x2a; // *
const ESC = 0x7d; // }
const UNESCAPED = [0x7d, 0x5b, 0x5d, 0x2c, 0x2a];

export interface WatchHeader {
  vendor: string;
  id: string;
  /** The optional index field of the ZJ-style variant, as sent. */
  index?: string;
  /** LEN as declared by the device. */
  length: number;
  /** Offset of the content in the frame bytes. */
  contentStart: number;
}

function isAlnum(b: number): boolean {
  return (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a);
}
function isHex(b: number): boolean {
  return (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66);
}

/** Bytes as latin1 text (identities and hex fields are short: no Buffer copy for them). */
function latin1(buf: Uint8Array, from: number, to: number): string {
  let out = '';
  for (let i = from; i < to; i++) out += String.fromCharCode(buf[i]);
  return out;
}

/** `XXXX*` at p: the 4 hex digits' value, null when the bytes differ, 'more' when they stop short. */
function hex4Star(buf: Uint8Array, p: number): number | null | 'more' {
  if (p + 5 > buf.length) {
    for (let i = p; i < buf.length; i++) if (!isHex(buf[i])) return null;
    return 'more';
  }
  for (let i = 0; i < 4; i++) if (!isHex(buf[p + i])) return null;
  if (buf[p + 4] !== STAR) return null;
  return parseInt(latin1(buf, p, p + 4), 16);
}

/**
 * Parses the header at `start` (which holds `[`). Returns null when the bytes cannot be a header,
 * 'more' when they could be but are incomplete. (On the path of every frame: no closures, no copies.)
 */
export function parseWatchHeader(buf: Uint8Array, start = 0): WatchHeader | null | 'more' {
  let p = start + 1;
  if (p + 3 > buf.length) return 'more';
  if (!isAlnum(buf[p]) || !isAlnum(buf[p + 1]) || buf[p + 2] !== STAR) return null;
  const vendor = String.fromCharCode(buf[p], buf[p + 1]);
  p += 3;
  // Identity: device ids are at most 20 alphanumerics (IMEI 15, watch ids 10).
  const idStart = p;
  while (p < buf.length && buf[p] !== STAR) {
    if (!isAlnum(buf[p]) || p - idStart > 20) return null;
    p++;
  }
  if (p >= buf.length) return 'more';
  if (p === idStart) return null;
  const id = latin1(buf, idStart, p);
  p++;
  // Either LEN* or INDEX*LEN*: both fields are 4 hex digits.
  const first = hex4Star(buf, p);
  if (first === null || first === 'more') return first;
  p += 5;
  // Index variant when another `XXXX*` follows. A content starting with 4 hex digits and `*` is
  // not a real message type, so this is unambiguous in practice.
  if (p + 5 <= buf.length) {
    const second = hex4Star(buf, p);
    if (typeof second === 'number') return { vendor, id, index: latin1(buf, p - 5, p - 1), length: second, contentStart: p + 5 };
  } else {
    // Not enough bytes to tell the variants apart yet, unless what we have already differs.
    let couldBe = true;
    for (let i = p; i < buf.length && i < p + 4; i++) if (!isHex(buf[i])) couldBe = false;
    if (couldBe && buf.length - p < 5) return 'more';
  }
  return { vendor, id, length: first, contentStart: p };
}

export function unescapeWatch(raw: Uint8Array): Buffer {
  const out = Buffer.allocUnsafe(raw.length);
  let o = 0;
  for (let i = 0; i < raw.length; i++) {
    const b = raw[i];
    if (b === ESC && i + 1 < raw.length && raw[i + 1] >= 1 && raw[i + 1] <= 5) {
      out[o++] = UNESCAPED[raw[i + 1] - 1];
      i++;
    } else {
      out[o++] = b;
    }
  }
  return out.subarray(0, o);
}

export function escapeWatch(content: Uint8Array): Buffer {
  const out: number[] = [];
  for (const b of content) {
    const k = UNESCAPED.indexOf(b);
    // Commas and stars are field separators the device parses itself, so only the brackets and
    // the escape byte need escaping in what we send.
    if (k === 0 || k === 1 || k === 2) out.push(ESC, k + 1);
    else out.push(b);
  }
  return Buffer.from(out);
}

export interface FramerOptions {
  /** Largest buffered byte count before the stream is declared broken. */
  maxBuffer?: number;
}

export interface FramerOutput {
  frames: Buffer[];
  /** True when the buffer passed its cap: the caller should close the connection. */
  overflow: boolean;
  /** Bytes skipped as garbage while resynchronising. */
  skipped: number;
}

/**
 * Stream framer for the watch protocol. Frames come out with their escapes resolved, brackets
 * included. The end of a frame is found from LEN when it agrees with a `]`; otherwise (devices
 * that miscount LEN) the first bare `]` ends it, as escaped content never holds one.
 */
export class WatchFramer {
  private buf: Buffer = Buffer.alloc(0);
  /** Whether the frame findEnd just measured holds an escape (then it is copied, unescaped). */
  private escaped = false;
  readonly maxBuffer: number;

  constructor(opts: FramerOptions = {}) {
    this.maxBuffer = opts.maxBuffer ?? 256 * 1024;
  }

  get buffered(): number {
    return this.buf.length;
  }

  /**
   * Frames without escapes are views of the chunk's memory (no copy); use them before the chunk is
   * written to again.
   */
  push(chunk: Uint8Array): FramerOutput {
    const frames: Buffer[] = [];
    let skipped = 0;
    this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    for (;;) {
      const start = this.buf.indexOf(OPEN);
      if (start < 0) {
        skipped += this.buf.length;
        this.buf = Buffer.alloc(0);
        break;
      }
      if (start > 0) {
        skipped += start;
        this.buf = this.buf.subarray(start);
      }
      const header = parseWatchHeader(this.buf, 0);
      if (header === 'more') break;
      if (header === null) {
        // Not a frame start: drop this `[` and look for the next one.
        skipped += 1;
        this.buf = this.buf.subarray(1);
        continue;
      }
      const end = this.findEnd(header);
      if (end === 'more') break;
      if (end === null) {
        skipped += 1;
        this.buf = this.buf.subarray(1);
        continue;
      }
      const raw = this.buf.subarray(0, end + 1);
      frames.push(this.escaped ? Buffer.concat([raw.subarray(0, header.contentStart), unescapeWatch(raw.subarray(header.contentStart))]) : raw);
      this.buf = this.buf.subarray(end + 1);
    }
    let overflow = false;
    if (this.buf.length > this.maxBuffer) {
      overflow = true;
      skipped += this.buf.length;
      this.buf = Buffer.alloc(0);
    }
    // Copy so that the retained remainder does not pin the large concatenated chunk.
    if (this.buf.length) this.buf = Buffer.from(this.buf);
    return { frames, overflow, skipped };
  }

  reset(): void {
    this.buf = Buffer.alloc(0);
  }

  /** Index of the closing `]` of the frame at 0, 'more' when incomplete, null when broken. */
  private findEnd(h: WatchHeader): number | 'more' | null {
    const b = this.buf;
    let decoded = 0;
    let i = h.contentStart;
    this.escaped = false;
    while (i < b.length) {
      if (decoded === h.length) {
        if (b[i] === CLOSE) return i;
        // LEN disagrees with the data: fall back to the first bare `]`.
        const close = b.indexOf(CLOSE, h.contentStart);
        if (close < 0) return 'more';
        // Bytes past i were not scanned for escapes: unescape the whole content.
        this.escaped = true;
        return close;
      }
      const c = b[i];
      if (c === CLOSE) {
        // A bare `]` before LEN bytes: a miscounted LEN if a new frame (or nothing yet) follows.
        const next = i + 1;
        if (next >= b.length) return i;
        if (b[next] === OPEN || b[next] === 0x0d || b[next] === 0x0a) return i;
      }
      if (c === OPEN && i > h.contentStart) {
        // A new frame header inside the content means this frame was cut short.
        const nh = parseWatchHeader(b, i);
        if (nh !== null && nh !== 'more') return null;
      }
      if (c === ESC && i + 1 < b.length && b[i + 1] >= 1 && b[i + 1] <= 5) {
        i += 2;
        this.escaped = true;
      }
      else if (c === ESC && i + 1 >= b.length) return 'more';
      else i += 1;
      decoded++;
    }
    return 'more';
  }
}
