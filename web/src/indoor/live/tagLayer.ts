// Drawing the indoor tags of one floor on a 2D canvas straight from the IndoorStore's typed arrays:
// one pass computes each tag's glided position on screen and fills one path per colour (online,
// offline, SOS), so 2 000 tags cost a few thousand arc commands and three fills per frame, never a
// DOM node per tag. Accuracy circles and name labels are optional; labels are drawn only for tags
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

export function drawTags(g: CanvasRenderingContext2D, store: IndoorStore, o: DrawOptions): DrawResult {
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

  // One path per colour; SOS last so it lies on top.
  for (const kind of ['offline', 'online', 'sos'] as const) {
    g.beginPath();
    let any = false;
    for (let i = 0; i < n; i++) {
      const x = pos[i * 2]!;
      if (Number.isNaN(x)) continue;
      const y = pos[i * 2 + 1]!;
      if (!inView(x, y)) continue;
      const f = store.flags[i]!;
      const k = f & SOS ? 'sos' : f & ONLINE ? 'online' : 'offline';
      if (k !== kind) continue;
      g.moveTo(x + TAG_RADIUS, y);
      g.arc(x, y, TAG_RADIUS, 0, Math.PI * 2);
      any = true;
      drawn++;
      if (kind === 'sos') sos++;
    }
    if (!any) continue;
    if (kind === 'sos') {
      g.globalAlpha = o.blinkOn ? 1 : 0.35;
      // The halo: a wider translucent ring around each SOS tag.
      if (o.blinkOn) {
        g.save();
        g.lineWidth = 10;
        g.strokeStyle = 'rgba(245,34,45,0.35)';
        g.stroke();
        g.restore();
      }
    }
    g.fillStyle = COLORS[kind];
    g.fill();
    g.lineWidth = 2;
    g.strokeStyle = '#fff';
    g.stroke();
    g.globalAlpha = 1;
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
