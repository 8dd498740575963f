// CRC-ITU as GT06 uses it: CRC-16/X.25 (reflected poly 0x1021 -> 0x8408, init 0xFFFF, xorout 0xFFFF).
// Computed over length, type, content and serial (everything between the start bits and the CRC).

const TABLE = (() => {
  const t = new Uint16Array(256);
  for (let i = 0; i < 256; i++) {
    let c = i;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0x8408 : c >>> 1;
    t[i] = c;
  }
  return t;
})();

export function crcItu(data: Uint8Array, start = 0, end = data.length): number {
  let crc = 0xffff;
  for (let i = start; i < end; i++) crc = (crc >>> 8) ^ TABLE[(crc ^ data[i]) & 0xff];
  return ~crc & 0xffff;
}
