// Small real images for upload tests: a PNG written chunk by chunk (signature, IHDR, one zlib IDAT
// of grey scanlines, IEND, each with its CRC), so any decoder reads it, and plain SVG text; both as
// the base64 and data: URLs the upload fields take.
import { crc32, deflateSync } from 'node:zlib';

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** An 8-bit greyscale PNG of the given size, mid-grey. */
export function pngBytes(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // colour type: greyscale
  // Each scanline: filter byte 0, then one byte per pixel.
  const raw = Buffer.alloc((width + 1) * height, 0x80);
  for (let y = 0; y < height; y++) raw[y * (width + 1)] = 0;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

export const pngBase64 = (width: number, height: number) => pngBytes(width, height).toString('base64');
export const pngDataUrl = (width: number, height: number) =>
  `data:image/png;base64,${pngBase64(width, height)}`;

export const CLEAN_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 80" width="100" height="80"><rect id="hall" x="10" y="10" width="80" height="60" fill="#eef"/><path d="M10 40 H90" stroke="#333"/><text x="20" y="30">Hall</text></svg>';
export const svgBase64 = (svg: string) => Buffer.from(svg, 'utf8').toString('base64');
export const svgDataUrl = (svg: string) => `data:image/svg+xml;base64,${svgBase64(svg)}`;
