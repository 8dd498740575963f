// Bounds-checked big-endian reader: an overrun throws, and the decoder turns that into "undecodable".

export class Reader {
  constructor(
    readonly buf: Uint8Array,
    public pos: number,
    readonly end: number,
  ) {}

  get left(): number {
    return this.end - this.pos;
  }
  private need(n: number): void {
    if (n < 0 || this.pos + n > this.end) throw new RangeError('frame too short');
  }
  u8(): number {
    this.need(1);
    return this.buf[this.pos++];
  }
  u16(): number {
    this.need(2);
    const v = (this.buf[this.pos] << 8) | this.buf[this.pos + 1];
    this.pos += 2;
    return v;
  }
  i16(): number {
    const v = this.u16();
    return v >= 0x8000 ? v - 0x10000 : v;
  }
  u24(): number {
    this.need(3);
    const v = (this.buf[this.pos] << 16) | (this.buf[this.pos + 1] << 8) | this.buf[this.pos + 2];
    this.pos += 3;
    return v;
  }
  u32(): number {
    this.need(4);
    const v = this.buf[this.pos] * 2 ** 24 + ((this.buf[this.pos + 1] << 16) | (this.buf[this.pos + 2] << 8) | this.buf[this.pos + 3]);
    this.pos += 4;
    return v;
  }
  u64(): number {
    return this.u32() * 2 ** 32 + this.u32();
  }
  bytes(n: number): Uint8Array {
    this.need(n);
    const v = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return v;
  }
  skip(n: number): void {
    this.need(n);
    this.pos += n;
  }
  peek(offset = 0): number {
    this.need(offset + 1);
    return this.buf[this.pos + offset];
  }
}
