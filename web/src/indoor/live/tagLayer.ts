// Drawing the indoor tags of one floor on a 2D canvas straight from the IndoorStore's typed arrays:
// one pass computes each tag's glided position on screen and stamps a pre-drawn sprite per status
// (online, offline, SOS), so 2 000 tags cost 2 000 small bitmap copies per frame, never a DOM node
// per tag. Accuracy circles and name labels are optional; labels are drawn only for tags
// inside the viewer. Coordinates: plan metres to CSS pixels with screen = offset + metres × k.
import { INDOOR, ONLINE, SOS, type IndoorStore } from './indoorStore';

/** Plan metres to screen: screen = offset + metres × pixelsPerMetre (the PlanView transform). */
export interface ScreenTransform {
  pixelsPerMetre: number;
  offsetX: number;
  offsetY: number;
}

export const TAG_RADIUS = 6;
export const COLORS = { online: '#52c41a', offline: '#8c8c8c', sos: '#f5222d', selected: '#1677ff', accuracy: 'rgba(22,119,255,0.12)', accuracyEdge: 'rgba(22,119,255,0.45)' };
/** Beyond this many labels on screen the rest are left out (unreadable anyway). */
export const MAX_LABELS = 400;

export interface DrawOptions {
  sceneId: number;
  floorId: number;
  transform: ScreenTransform;
  width: number;
  height: number;
  /** performance.now() of the frame. */
  now: number;
  accuracy: boolean;
  labels: boolean;
  selectedId: number | null;
  /** SOS blink phase: true draws the SOS tags bright with a halo, false dimmed. */
  blinkOn: boolean;
}

/** What a frame drew: the layer keeps animating while `sos` blink or a glide is under way. */
export interface DrawResult {
  drawn: number;
  sos: number;
  labels: number;
}

/** Screen positions of the tags on the floor at `now`, into `out` (x, y per slot; NaN when not drawn). */
export function project(store: IndoorStore, sceneId: number, floorId: number, t: ScreenTransform, now: number, out: Float32Array): void {
  const k = t.pixelsPerMetre;
  for (let i = 0; i < store.count; i++) {
    if ((store.flags[i]! & INDOOR) === 0 || store.scene[i] !== sceneId || store.floor[i] !== floorId) {
      out[i * 2] = NaN;
      out[i * 2 + 1] = NaN;
      continue;
    }
    const [x, y] = store.positionAt(i, now);
    out[i * 2] = t.offsetX + x * k;
    out[i * 2 + 1] = t.offsetY + y * k;
  }
}

let scratch = new Float32Array(0);
function screenPositions(store: IndoorStore, o: DrawOptions): Float32Array {
  if (scratch.length < store.count * 2) scratch = new Float32Array(Math.max(128, store.count * 4));
  project(store, o.sceneId, o.floorId, o.transform, o.now, scratch);
  return scratch;
}

/** Pre-drawn tag images, one per status (SOS bright with its halo, and dimmed for the blink). */
export interface Sprites {
  online: CanvasImageSource;
  offline: CanvasImageSource;
  sos: CanvasImageSource;
  sosDim: CanvasImageSource;
}

/** Sprites are SPRITE_SIZE CSS pixels square (room for the SOS halo), drawn at the screen's pixel ratio. */
export const SPRITE_SIZE = 28;

function sprite(fill: string, halo: boolean, alpha: number, dpr: number): HTMLCanvasElement {
  const c = document.createElement('canvas');
  c.width = c.height = Math.ceil(SPRITE_SIZE * dpr);
  const g = c.getContext('2d')!;
  g.scale(dpr, dpr);
  g.globalAlpha = alpha;
  const m = SPRITE_SIZE / 2;
  if (halo) {
    g.beginPath();
    g.arc(m, m, TAG_RADIUS + 6, 0, Math.PI * 2);
    g.fillStyle = 'rgba(245,34,45,0.35)';
    g.fill();
  }
  g.beginPath();
  g.arc(m, m, TAG_RADIUS, 0, Math.PI * 2);
  g.fillStyle = fill;
  g.fill();
  g.lineWidth = 2;
  g.strokeStyle = '#fff';
  g.stroke();
  return c;
}

let cached: { dpr: number; sprites: Sprites } | null = null;
/** The sprites for the screen's pixel ratio, drawn once. */
export function defaultSprites(): Sprites {
  const dpr = (typeof window !== 'undefined' && window.devicePixelRatio) || 1;
  if (cached?.dpr !== dpr)
    cached = {
      dpr,
      sprites: {
        online: sprite(COLORS.online, false, 1, dpr),
        offline: sprite(COLORS.offline, false, 1, dpr),
        sos: sprite(COLORS.sos, true, 1, dpr),
        sosDim: sprite(COLORS.sos, false, 0.35, dpr),
      },
    };
  return cached.sprites;
}

export function drawTags(g: CanvasRenderingContext2D, store: IndoorStore, o: DrawOptions, sprites?: Sprites): DrawResult {
  g.clearRect(0, 0, o.width, o.height);
  const pos = screenPositions(store, o);
  const margin = TAG_RADIUS * 3;
  const inView = (x: number, y: number) => x >= -margin && y >= -margin && x <= o.width + margin && y <= o.height + margin;
  const n = store.count;
  let drawn = 0;
  let sos = 0;

  if (o.accuracy) {
    g.beginPath();
    for (let i = 0; i < n; i++) {
      const x = pos[i * 2]!;
      const a = store.accuracy[i]!;
      if (Number.isNaN(x) || !(a > 0)) continue;
      const y = pos[i * 2 + 1]!;
      const r = a * o.transform.pixelsPerMetre;
      if (x + r < 0 || y + r < 0 || x - r > o.width || y - r > o.height) continue;
      g.moveTo(x + r, y);
      g.arc(x, y, r, 0, Math.PI * 2);
    }
    g.fillStyle = COLORS.accuracy;
    g.fill();
    g.strokeStyle = COLORS.accuracyEdge;
    g.lineWidth = 1;
    g.stroke();
  }

  // Tags are stamped from pre-drawn sprites (a disc with a white edge per status) at whole pixels:
  // copying a small bitmap is several times cheaper to rasterize than an anti-aliased arc with its
  // stroke, which matters where the canvas is drawn in software. SOS last, so it lies on top.
  const sp = sprites ?? defaultSprites();
  const half = SPRITE_SIZE / 2;
  for (const kind of ['offline', 'online', 'sos'] as const) {
    const sprite = kind === 'sos' ? (o.blinkOn ? sp.sos : sp.sosDim) : sp[kind];
    for (let i = 0; i < n; i++) {
      const x = pos[i * 2]!;
      if (Number.isNaN(x)) continue;
      const y = pos[i * 2 + 1]!;
      if (!inView(x, y)) continue;
      const f = store.flags[i]!;
      const k = f & SOS ? 'sos' : f & ONLINE ? 'online' : 'offline';
      if (k !== kind) continue;
      g.drawImage(sprite, Math.round(x - half), Math.round(y - half), SPRITE_SIZE, SPRITE_SIZE);
      drawn++;
      if (kind === 'sos') sos++;
    }
  }

  const sel = o.selectedId === null ? undefined : store.slot.get(o.selectedId);
  if (sel !== undefined && !Number.isNaN(pos[sel * 2]!)) {
    g.beginPath();
    g.arc(pos[sel * 2]!, pos[sel * 2 + 1]!, TAG_RADIUS + 5, 0, Math.PI * 2);
    g.lineWidth = 3;
    g.strokeStyle = COLORS.selected;
    g.stroke();
  }

  let labels = 0;
  if (o.labels) {
    g.font = '12px sans-serif';
    g.textAlign = 'center';
    g.textBaseline = 'top';
    g.lineWidth = 3;
    g.strokeStyle = 'rgba(255,255,255,0.9)';
    g.fillStyle = '#262626';
    for (let i = 0; i < n && labels < MAX_LABELS; i++) {
      const x = pos[i * 2]!;
      if (Number.isNaN(x)) continue;
      const y = pos[i * 2 + 1]!;
      if (x < 0 || y < 0 || x > o.width || y > o.height) continue;
      const text = store.names[i] || store.imeis[i] || String(store.ids[i]);
      g.strokeText(text, x, y + TAG_RADIUS + 2);
      g.fillText(text, x, y + TAG_RADIUS + 2);
      labels++;
    }
  }
  return { drawn, sos, labels };
}

/**
 * The tag under a screen point (CSS pixels from the viewer's corner): the nearest one on the floor
 * within `radius` pixels, as its device id; null when none.
 */
export function hitTag(store: IndoorStore, sceneId: number, floorId: number, t: ScreenTransform, now: number, sx: number, sy: number, radius = TAG_RADIUS + 4): number | null {
  let best: number | null = null;
  let bestD = radius * radius;
  for (let i = 0; i < store.count; i++) {
    if (!store.isIndoor(i, sceneId, floorId)) continue;
    const [x, y] = store.positionAt(i, now);
    const dx = t.offsetX + x * t.pixelsPerMetre - sx;
    const dy = t.offsetY + y * t.pixelsPerMetre - sy;
    const d = dx * dx + dy * dy;
    if (d <= bestD) {
      bestD = d;
      best = store.ids[i]!;
    }
  }
  return best;
}
