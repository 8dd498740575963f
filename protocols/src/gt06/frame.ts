// GT06 framing: `78 78 LEN(1) TYPE ... SERIAL(2) CRC(2) 0D 0A` or `79 79 LEN(2) ...`. LEN counts
// type, content, serial and CRC. A few devices send WiFi reports (0x17/0x69) with LEN 0 and the
// real size implied by the 0D 0A terminator; those are framed on the terminator.
import { crcItu } from './crc.js';

export interface Gt06FramerOutput {
  frames: Buffer[];
  overflow: boolean;
  skipped: number;
}

export interface Gt06FrameInfo {
  extended: boolean;
  type: number;
  /** Offset of the first content byte (after the type). */
  contentStart: number;
  /** Offset just past the content (where the serial starts). */
  contentEnd: number;
  serial: number;
  /** False for a frame without serial and CRC (framed on its terminator): `serial` is then 0 and means nothing. */
  numbered: boolean;
  crcOk: boolean;
}

/** WiFi reports whose length byte is the access-point count; they are framed on the 0D 0A terminator. */
export function isCountFramedWifi(type: number): boolean {
  return type === 0x17 || type === 0x69;
}

/**
 * Reads the framing fields of a complete frame; null when the bytes cannot be one.
 *
 * Field devices are not always exact about LEN: some count only the content, some drop serial and
 * CRC, some lose the final 0A. The rules, in order:
 * - LEN 0, or a WiFi report whose LEN does not land on 0D 0A: the content runs to the terminator.
 * - The bytes hold the declared frame (at least up to its CRC): LEN is trusted.
 * - Otherwise, if the CRC verifies just before the terminator, LEN is wrong by a byte or two and
 *   serial and CRC sit before 0D 0A; if it does not, the frame has no serial/CRC at all.
 */
export function parseGt06Frame(f: Uint8Array): Gt06FrameInfo | null {
  if (f.length < 5) return null;
  const extended = f[0] === 0x79 && f[1] === 0x79;
  if (!extended && !(f[0] === 0x78 && f[1] === 0x78)) return null;
  const head = extended ? 4 : 3;
  if (f.length <= head) return null;
  const len = extended ? (f[2] << 8) | f[3] : f[2];
  const type = f[head];
  const contentStart = head + 1;
  const endsWell = f[f.length - 2] === 0x0d && f[f.length - 1] === 0x0a;
  const bodyEnd = endsWell ? f.length - 2 : f.length;
  const declaredEnd = head + len; // just past the CRC
  const declaredTotal = declaredEnd + 2;
  const landsOnTerminator = declaredTotal <= f.length && f[declaredTotal - 2] === 0x0d && f[declaredTotal - 1] === 0x0a;
  const crcAt = (end: number) => end - 4 >= contentStart && crcItu(f, 2, end - 2) === ((f[end - 2] << 8) | f[end - 1]);
  const withSerial = (end: number): Gt06FrameInfo => ({
    extended, type, contentStart, contentEnd: end - 4, serial: (f[end - 4] << 8) | f[end - 3], numbered: true, crcOk: crcAt(end),
  });
  const bare = (): Gt06FrameInfo => ({ extended, type, contentStart, contentEnd: Math.max(contentStart, bodyEnd), serial: 0, numbered: false, crcOk: false });

  if (len === 0 || (!extended && isCountFramedWifi(type) && !landsOnTerminator)) return bare();
  if (declaredEnd - 4 >= contentStart && declaredEnd <= f.length) {
    // The whole declared frame is there. Trust LEN unless the bytes clearly say otherwise.
    if (landsOnTerminator || declaredTotal >= f.length || crcAt(declaredEnd)) return withSerial(declaredEnd);
  }
  if (crcAt(bodyEnd)) return withSerial(bodyEnd);
  if (declaredEnd - 4 >= contentStart && declaredEnd <= f.length && !endsWell) return withSerial(declaredEnd);
  return bare();
}

export class Gt06Framer {
  private buf: Buffer = Buffer.alloc(0);
  readonly maxBuffer: number;

  constructor(opts: { maxBuffer?: number } = {}) {
    this.maxBuffer = opts.maxBuffer ?? 64 * 1024;
  }

  get buffered(): number {
    return this.buf.length;
  }

  reset(): void {
    this.buf = Buffer.alloc(0);
  }

  push(chunk: Uint8Array): Gt06FramerOutput {
    const frames: Buffer[] = [];
    let skipped = 0;
    this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : Buffer.from(chunk);
    for (;;) {
      const start = this.findStart();
      if (start < 0) {
        // Keep a trailing 0x78/0x79 that may be the first half of a start.
        const keep = this.buf.length && (this.buf[this.buf.length - 1] === 0x78 || this.buf[this.buf.length - 1] === 0x79) ? 1 : 0;
        skipped += this.buf.length - keep;
        this.buf = this.buf.subarray(this.buf.length - keep);
        break;
      }
      if (start > 0) {
        skipped += start;
        this.buf = this.buf.subarray(start);
      }
      const extended = this.buf[0] === 0x79;
      const head = extended ? 4 : 3;
      if (this.buf.length < head + 1) break;
      const len = extended ? this.buf.readUInt16BE(2) : this.buf[2];
      const declared = head + len + 2;
      const countFramed = !extended && isCountFramedWifi(this.buf[head]) &&
        (len < 5 || (this.buf.length >= declared && (this.buf[declared - 2] !== 0x0d || this.buf[declared - 1] !== 0x0a)));
      if (len === 0 || countFramed) {
        const end = this.buf.indexOf('\r\n', head, 'latin1');
        if (end < 0) break;
        frames.push(Buffer.from(this.buf.subarray(0, end + 2)));
        this.buf = this.buf.subarray(end + 2);
        continue;
      }
      if (len < 5) {
        skipped += 1;
        this.buf = this.buf.subarray(1);
        continue;
      }
      const total = head + len + 2;
      if (total > this.maxBuffer) {
        // A length no frame of ours can have: garbage that looked like a start.
        skipped += 1;
        this.buf = this.buf.subarray(1);
        continue;
      }
      if (this.buf.length < total) {
        // Maybe a stray start byte: if a complete frame already sits further on, take that one.
        const later = this.completeFrameAfter(1);
        if (later < 0) break;
        skipped += later;
        this.buf = this.buf.subarray(later);
        continue;
      }
      if (this.buf[total - 2] !== 0x0d || this.buf[total - 1] !== 0x0a) {
        // Some clones count LEN a byte or two short: accept 0D 0A just after, when a frame start
        // (or the end of what arrived) follows it.
        const slack = [1, 2].find((d) => {
          const end = total + d;
          if (end > this.buf.length || this.buf[end - 2] !== 0x0d || this.buf[end - 1] !== 0x0a) return false;
          return end === this.buf.length || (end + 1 < this.buf.length && this.buf[end] === this.buf[end + 1] && (this.buf[end] === 0x78 || this.buf[end] === 0x79));
        });
        if (slack) {
          frames.push(Buffer.from(this.buf.subarray(0, total + slack)));
          this.buf = this.buf.subarray(total + slack);
          continue;
        }
        if (this.buf.length < total + 2 && this.completeFrameAfter(1) < 0) break; // the terminator may still be on its way
        // Not a frame boundary: resynchronise one byte further.
        skipped += 1;
        this.buf = this.buf.subarray(1);
        continue;
      }
      frames.push(Buffer.from(this.buf.subarray(0, total)));
      this.buf = this.buf.subarray(total);
    }
    let overflow = false;
    if (this.buf.length > this.maxBuffer) {
      overflow = true;
      skipped += this.buf.length;
      this.buf = Buffer.alloc(0);
    }
    if (this.buf.length) this.buf = Buffer.from(this.buf);
    return { frames, overflow, skipped };
  }

  private completeFrameAfter(from: number): number {
    const b = this.buf;
    for (let i = from; i + 4 < b.length; i++) {
      const ext = b[i] === 0x79 && b[i + 1] === 0x79;
      if (!ext && !(b[i] === 0x78 && b[i + 1] === 0x78)) continue;
      const len = ext ? (b[i + 2] << 8) | b[i + 3] : b[i + 2];
      const end = i + (ext ? 4 : 3) + len + 2;
      if (len >= 5 && end <= b.length && b[end - 2] === 0x0d && b[end - 1] === 0x0a) return i;
    }
    return -1;
  }

  private findStart(): number {
    const b = this.buf;
    for (let i = 0; i + 1 < b.length; i++) {
      if ((b[i] === 0x78 && b[i + 1] === 0x78) || (b[i] === 0x79 && b[i + 1] === 0x79)) return i;
    }
    return -1;
  }
}
