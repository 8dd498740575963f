// The files the scene pages upload, checked in the browser before they are sent (the server checks
// them again by content): a scene map is an SVG under 6 MB (SPEC §5), a floor plan a PNG of at most
// 10 MB and 8000 pixels a side, a scene icon a PNG or SVG of at most 256 KB. Each is sent as a data:
// URL. A refusal is a message key of the contract's `messages` with its parameters.
import { scene } from '@wt/contract';

export type FileRefusal = { key: string; params?: Record<string, unknown> };

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** The pixel size of a PNG from its header (IHDR follows the signature), or null when the bytes are no PNG. */
export function pngSize(bytes: Uint8Array): { width: number; height: number } | null {
  if (bytes.length < 24 || PNG_SIGNATURE.some((b, i) => bytes[i] !== b)) return null;
  // Chunk type at 12..15 must be IHDR; width and height are big-endian at 16 and 20.
  if (String.fromCharCode(bytes[12]!, bytes[13]!, bytes[14]!, bytes[15]!) !== 'IHDR') return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

/** Whether the text starts like an SVG document (an XML prolog, comments or a doctype may come first). */
export function looksLikeSvg(head: string): boolean {
  return /^\s*(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*(<!DOCTYPE[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*<svg[\s>/]/i.test(head);
}

async function headBytes(file: Blob, n: number): Promise<Uint8Array> {
  return new Uint8Array(await file.slice(0, n).arrayBuffer());
}

export function readDataUrl(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsDataURL(file);
  });
}

/** A scene map: an SVG document under 6 MB. */
export async function checkSceneMap(file: File): Promise<FileRefusal | null> {
  if (file.size >= scene.SCENE_MAP_MAX_BYTES) return { key: 'scene.mapTooLarge', params: { max: scene.SCENE_MAP_MAX_BYTES / 1024 / 1024 } };
  const head = new TextDecoder().decode(await headBytes(file, 4096));
  if (!looksLikeSvg(head)) return { key: 'scene.mapType' };
  return null;
}

/** A floor plan: a PNG of at most 10 MB and 8000 pixels a side. Its size when accepted. */
export async function checkFloorPlan(file: File): Promise<{ refusal: FileRefusal } | { width: number; height: number }> {
  const tooLarge = {
    refusal: { key: 'scene.planTooLarge', params: { max: scene.FLOOR_PLAN_MAX_BYTES / 1024 / 1024, side: scene.FLOOR_PLAN_MAX_SIDE } },
  };
  if (file.size > scene.FLOOR_PLAN_MAX_BYTES) return tooLarge;
  const size = pngSize(await headBytes(file, 32));
  if (!size || !size.width || !size.height) return { refusal: { key: 'scene.planType' } };
  if (size.width > scene.FLOOR_PLAN_MAX_SIDE || size.height > scene.FLOOR_PLAN_MAX_SIDE) return tooLarge;
  return size;
}

/** A scene icon: a PNG or an SVG of at most 256 KB. */
export async function checkIcon(file: File): Promise<FileRefusal | null> {
  const refusal = { key: 'scene.iconInvalid', params: { max: scene.SCENE_ICON_MAX_BYTES / 1024 } };
  if (file.size > scene.SCENE_ICON_MAX_BYTES) return refusal;
  const head = await headBytes(file, 1024);
  if (pngSize(head)) return null;
  return looksLikeSvg(new TextDecoder().decode(head)) ? null : refusal;
}
