// The maths of the floor-plan viewer, free of React and the DOM so it can be tested alone. Three
// frames (SPEC §3 Floor, contract/src/schemas/scene.ts):
// - image pixels: the plan PNG's own pixels, from its top-left corner, x right, y down;
// - plan metres: the same axes scaled by the floor's MetresPerPixel (x_m = px × MetresPerPixel);
// - screen pixels: CSS pixels from the viewer's top-left corner.
// The view is a uniform zoom and a translation (no rotation on screen): screen = offset + image ×
// zoom. Every conversion goes through `View`, so the viewer, the layers drawn on it and the tests
// agree to the last digit.

/** A point as [x, y]. */
export type Point = readonly [number, number];

/** How the plan image lies on the screen: image pixel (0, 0) at (offsetX, offsetY), `zoom` screen pixels per image pixel. */
export interface View {
  zoom: number;
  offsetX: number;
  offsetY: number;
}

/**
 * Plan metres to screen pixels: screen = offset + metres × pixelsPerMetre. The same numbers as a
 * 2D affine matrix `[a, b, c, d, e, f]` (canvas `setTransform`, SVG `matrix()`, a WebGL uniform)
 * are in `matrix`.
 */
export interface PlanTransform {
  /** Screen pixels per plan metre. */
  pixelsPerMetre: number;
  offsetX: number;
  offsetY: number;
  /** [a, b, c, d, e, f] with screenX = a·x + c·y + e, screenY = b·x + d·y + f (x, y in metres). */
  matrix: readonly [number, number, number, number, number, number];
  /** Plan metres per screen pixel: a marker 8 px wide on screen is 8 × this in metres. */
  metresPerScreenPixel: number;
}

/** Zoom limits, relative to the zoom that fits the plan in the viewer. */
export const MIN_ZOOM_FACTOR = 0.2;
export const MAX_ZOOM_FACTOR = 40;

/** The scale used when a floor has none yet: one metre per image pixel (so the overlay still works in pixels). */
export const UNSCALED = 1;

/** The scale in force: the floor's, or one metre per pixel while none is set. */
export const scaleOf = (metresPerPixel: number | null | undefined): number =>
  metresPerPixel && metresPerPixel > 0 ? metresPerPixel : UNSCALED;

/** Image pixels to plan metres. */
export function pixelsToMetres(p: Point, metresPerPixel: number): [number, number] {
  return [p[0] * metresPerPixel, p[1] * metresPerPixel];
}

/** Plan metres to image pixels. */
export function metresToPixels(p: Point, metresPerPixel: number): [number, number] {
  return [p[0] / metresPerPixel, p[1] / metresPerPixel];
}

export function imageToScreen(view: View, p: Point): [number, number] {
  return [view.offsetX + p[0] * view.zoom, view.offsetY + p[1] * view.zoom];
}

export function screenToImage(view: View, p: Point): [number, number] {
  return [(p[0] - view.offsetX) / view.zoom, (p[1] - view.offsetY) / view.zoom];
}

export function metresToScreen(view: View, metresPerPixel: number, p: Point): [number, number] {
  return imageToScreen(view, metresToPixels(p, metresPerPixel));
}

export function screenToMetres(view: View, metresPerPixel: number, p: Point): [number, number] {
  return pixelsToMetres(screenToImage(view, p), metresPerPixel);
}

/** The plan-metres-to-screen transform of a view. */
export function planTransform(view: View, metresPerPixel: number): PlanTransform {
  const k = view.zoom / metresPerPixel;
  return {
    pixelsPerMetre: k,
    offsetX: view.offsetX,
    offsetY: view.offsetY,
    matrix: [k, 0, 0, k, view.offsetX, view.offsetY],
    metresPerScreenPixel: 1 / k,
  };
}

/**
 * The view showing the whole image centred in a viewer of the given size, with `padding` screen
 * pixels kept free on every side. A zero-sized image or viewer gives zoom 1 at the origin.
 */
export function fitView(imageWidth: number, imageHeight: number, viewWidth: number, viewHeight: number, padding = 16): View {
  if (imageWidth <= 0 || imageHeight <= 0 || viewWidth <= 0 || viewHeight <= 0) return { zoom: 1, offsetX: 0, offsetY: 0 };
  const availW = Math.max(1, viewWidth - 2 * padding);
  const availH = Math.max(1, viewHeight - 2 * padding);
  const zoom = Math.min(availW / imageWidth, availH / imageHeight);
  return {
    zoom,
    offsetX: (viewWidth - imageWidth * zoom) / 2,
    offsetY: (viewHeight - imageHeight * zoom) / 2,
  };
}

/**
 * Zooms by `factor` keeping the screen point `anchor` over the same image point (the point under
 * the mouse wheel stays put). The zoom is clamped to [minZoom, maxZoom].
 */
export function zoomAt(view: View, factor: number, anchor: Point, minZoom: number, maxZoom: number): View {
  const zoom = Math.min(maxZoom, Math.max(minZoom, view.zoom * factor));
  const [ix, iy] = screenToImage(view, anchor);
  return { zoom, offsetX: anchor[0] - ix * zoom, offsetY: anchor[1] - iy * zoom };
}

export function panBy(view: View, dx: number, dy: number): View {
  return { zoom: view.zoom, offsetX: view.offsetX + dx, offsetY: view.offsetY + dy };
}

/** The zoom factor of one wheel event: a notch (deltaY ±100) zooms by about 1.2. */
export function wheelFactor(deltaY: number, deltaMode = 0): number {
  // deltaMode 1 counts lines (Firefox), 2 pages; 0 pixels.
  const pixels = deltaMode === 1 ? deltaY * 33 : deltaMode === 2 ? deltaY * 800 : deltaY;
  return Math.exp(-Math.max(-300, Math.min(300, pixels)) * 0.0018);
}

/** Euclidean distance of two points. */
export function distance(a: Point, b: Point): number {
  return Math.hypot(b[0] - a[0], b[1] - a[1]);
}

/**
 * The scale of a plan from two points on it and the real distance between them: metres per
 * pixel = metres / pixels. Null when the points are the same or the distance is not positive.
 */
export function scaleFromTwoPoints(a: Point, b: Point, metres: number): number | null {
  const px = distance(a, b);
  if (!(px > 0) || !(metres > 0) || !Number.isFinite(metres)) return null;
  return metres / px;
}
