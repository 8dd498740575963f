// Uploaded images, recognised by their bytes (never by a name or a claimed type): base64 or data:
// URL decoding, PNG and SVG sniffing, the PNG header (its size, with the header's checksum checked)
// and SVG sanitizing. Brand icons and indoor scenes (maps, plans, icons) both go through here.
import { crc32 } from 'node:zlib';
import createDOMPurify, { type DOMPurify } from 'dompurify';
import { JSDOM } from 'jsdom';

export type ImageType = 'png' | 'svg';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The bytes of a data: URL or plain base64; null when it is neither. */
export function decodeUpload(data: string): Buffer | null {
  const trimmed = data.trim();
  const m = /^data:[\w/+.-]*(;[\w=-]+)*;base64,/i.exec(trimmed);
  const b64 = (m ? trimmed.slice(m[0].length) : trimmed).replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(b64) || b64.length % 4 === 1) return null;
  return Buffer.from(b64, 'base64');
}

export const isPng = (b: Buffer) => b.length > 8 && b.subarray(0, 8).equals(PNG_SIGNATURE);

/** The text of an SVG file (UTF-8, without a byte order mark). */
export const svgText = (b: Buffer) => b.toString('utf8').replace(/^\uFEFF/, '');

/** An XML prolog, comments and a DOCTYPE without an internal subset (no entities) may come before <svg. */
const SVG_START =
  /^\s*(<\?xml[^>]*\?>\s*)?(<!--[\s\S]*?-->\s*)*(<!DOCTYPE\s+svg[^>[]*>\s*)?(<!--[\s\S]*?-->\s*)*<svg[\s>]/i;

export const isSvg = (b: Buffer) => SVG_START.test(svgText(b));

/** PNG or SVG by content, or null. */
export function sniffImage(b: Buffer): ImageType | null {
  if (isPng(b)) return 'png';
  if (isSvg(b)) return 'svg';
  return null;
}

/** Colour types of PNG and the bit depths each allows (PNG spec, IHDR). */
const PNG_DEPTHS: Record<number, number[]> = {
  0: [1, 2, 4, 8, 16],
  2: [8, 16],
  3: [1, 2, 4, 8],
  4: [8, 16],
  6: [8, 16],
};

/**
 * The size of a PNG read from its header: the signature, then an IHDR chunk of 13 bytes whose CRC
 * matches, a size of at least 1×1 and a valid colour type and bit depth. Null when any fails.
 */
export function pngInfo(b: Buffer): { width: number; height: number } | null {
  // Signature (8), length (4), "IHDR" (4), data (13), CRC (4).
  if (b.length < 33 || !isPng(b)) return null;
  if (b.readUInt32BE(8) !== 13 || b.toString('latin1', 12, 16) !== 'IHDR') return null;
  if (crc32(b.subarray(12, 29)) !== b.readUInt32BE(29)) return null;
  const width = b.readUInt32BE(16);
  const height = b.readUInt32BE(20);
  const depth = b[24]!;
  const colour = b[25]!;
  if (width < 1 || height < 1 || width > 0x7fffffff || height > 0x7fffffff) return null;
  if (!PNG_DEPTHS[colour]?.includes(depth)) return null;
  // Compression, filter and interlace methods.
  if (b[26] !== 0 || b[27] !== 0 || b[28]! > 1) return null;
  return { width, height };
}

/** Whether an XML text declares entities (an internal DOCTYPE subset): never expanded, refused. */
export const declaresEntities = (text: string) => /<!DOCTYPE[^>[]*\[/i.test(text) || /<!ENTITY/i.test(text);

let purifier: { purify: DOMPurify; window: JSDOM['window'] } | undefined;

/** A raster picture as a data: URL (never SVG, which could hold more). */
const EMBEDDED_PICTURE = /^data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/=\s]*$/i;

/** A `url(...)` that points outside the file (anything but a `#fragment`). */
const EXTERNAL_URL = /url\(\s*['"]?\s*(?!#)/i;

function purifierOnce() {
  if (purifier) return purifier;
  const { window } = new JSDOM('');
  const purify = createDOMPurify(window as unknown as Parameters<typeof createDOMPurify>[0]);
  purify.addHook('uponSanitizeAttribute', (node, data) => {
    const name = data.attrName.toLowerCase();
    const value = data.attrValue.trim();
    // Only references inside the file (an href to http:, javascript: ... goes), and raster pictures
    // embedded in an <image> (a scanned plan under the drawing), which run nothing.
    const embeddedPicture = node.nodeName.toLowerCase() === 'image' && EMBEDDED_PICTURE.test(value);
    if (
      (name === 'href' || name === 'xlink:href' || name === 'src') &&
      !value.startsWith('#') &&
      !embeddedPicture
    )
      data.keepAttr = false;
    if (EXTERNAL_URL.test(value)) data.keepAttr = false;
  });
  purifier = { purify, window };
  return purifier;
}

/**
 * The SVG without anything active or external, as XML: no scripts, event handlers, foreignObject,
 * style sheets, links, or references outside the file. Null when nothing of an SVG is left (with
 * `requireContent`, also when the <svg> element is left empty).
 */
export function sanitizeSvg(source: string, opts: { requireContent?: boolean } = {}): string | null {
  const { purify, window } = purifierOnce();
  const body = purify.sanitize(source, {
    USE_PROFILES: { svg: true, svgFilters: true },
    FORBID_TAGS: ['foreignObject', 'script', 'style', 'a'],
    RETURN_DOM: true,
  });
  const svg = (body as unknown as Element).querySelector('svg');
  if (!svg || (opts.requireContent && svg.childElementCount === 0)) return null;
  return new window.XMLSerializer().serializeToString(svg);
}
