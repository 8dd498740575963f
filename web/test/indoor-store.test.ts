// The indoor tag store and its maths: realtime batches with an indoor fix, with `in: null` (gone
// outdoors) and without `in` (status only), the scene snapshot, the glide between fixes, the hit
// test and the drawing pass over the typed arrays, and how a track is cut into runs per floor.
import { describe, expect, it, vi } from 'vitest';
import type { LiveDevice, scene } from '@wt/contract';
import { GLIDE_MS, INDOOR, IndoorStore, ONLINE, SOS, easeOut, interpolate } from '../src/indoor/live/indoorStore';
import { SPRITE_SIZE, drawTags, hitTag, project, type Sprites } from '../src/indoor/live/tagLayer';
import { runsOnFloor } from '../src/pages/position/inner/TrackMarks';

const fix = (i: number, x: number, y: number, extra: Partial<LiveDevice> = {}, f = 10, sc = 1): LiveDevice => ({
  i,
  ls: 1_700_000_000_000,
  in: { sc, f, x, y, a: 1.5, mt: 'trilateration' },
  ...extra,
});

const snapshot = (over: Partial<scene.IndoorDevice> = {}): scene.IndoorDevice => ({
  DeviceId: 1,
  Imei: '865000000000001',
  Name: 'Room 101',
  FloorId: 10,
  X: 3,
  Y: 4,
  Accuracy: 2,
  Method: 'nearest',
  Lat: null,
  Lon: null,
  Time: '2026-11-25T08:00:00.000Z',
  Online: true,
  Battery: 80,
  Sos: false,
  ...over,
});

describe('interpolation', () => {
  it('eases out from the origin to the target over the glide', () => {
    expect(easeOut(0)).toBe(0);
    expect(easeOut(1)).toBe(1);
    expect(easeOut(0.5)).toBeCloseTo(0.875);
    expect(interpolate(0, 0, 10, 20, 1000, 900)).toEqual([0, 0]);
    expect(interpolate(0, 0, 10, 20, 1000, 1000 + GLIDE_MS)).toEqual([10, 20]);
    const [x, y] = interpolate(0, 0, 10, 20, 1000, 1000 + GLIDE_MS / 2);
    expect(x).toBeCloseTo(8.75);
    expect(y).toBeCloseTo(17.5);
    // No duration: straight to the target.
    expect(interpolate(0, 0, 10, 20, 1000, 1000, 0)).toEqual([10, 20]);
  });
});

describe('IndoorStore', () => {
  it('places a tag on its first indoor fix, glides it on the next from where it is drawn', () => {
    const s = new IndoorStore((id) => (id === 7 ? { imei: '865000000000007', name: 'Bed 7' } : undefined));
    s.apply([fix(7, 2, 2, { on: true, b: 55, t: 1_700_000_000_000 })], 0);
    const i = s.slot.get(7)!;
    expect(s.count).toBe(1);
    // First fix: no glide, drawn there at once.
    expect(s.positionAt(i, 0)).toEqual([2, 2]);
    expect(s.tag(7)).toMatchObject({ name: 'Bed 7', imei: '865000000000007', sceneId: 1, floorId: 10, x: 2, y: 2, online: true, battery: 55, method: 'trilateration', accuracy: 1.5, indoor: true });
    s.apply([fix(7, 12, 2)], 1000);
    expect(s.moving(1000 + GLIDE_MS / 2)).toBe(true);
    expect(s.positionAt(i, 1000)).toEqual([2, 2]);
    expect(s.positionAt(i, 1000 + GLIDE_MS)).toEqual([12, 2]);
    // A new fix half-way: the glide restarts from the drawn point, not from the old fix.
    s.apply([fix(7, 12, 12)], 1000 + GLIDE_MS / 2);
    const [x0, y0] = s.positionAt(i, 1000 + GLIDE_MS / 2);
    expect(x0).toBeCloseTo(2 + 10 * 0.875, 4);
    expect(y0).toBeCloseTo(2, 4);
    expect(s.positionAt(i, 1000 + GLIDE_MS * 2)).toEqual([12, 12]);
    expect(s.moving(1000 + GLIDE_MS * 3)).toBe(false);
  });

  it('knows when a tag indoors has no name yet, until a snapshot names it', () => {
    const s = new IndoorStore(() => undefined);
    s.apply([fix(8, 3, 3)], 0);
    expect(s.hasUnnamed(1)).toBe(true);
    expect(s.hasUnnamed(2)).toBe(false);
    s.seed(1, [{ DeviceId: 8, Imei: '866000000005001', Name: '陈秀英', FloorId: 10, X: 3, Y: 3, Accuracy: 1, Method: 'trilateration', Lat: null, Lon: null, Time: new Date(0).toISOString(), Online: true, Battery: 80, Sos: false }]);
    expect(s.hasUnnamed(1)).toBe(false);
    expect(s.tag(8)?.name).toBe('陈秀英');
  });

  it('jumps without gliding to another floor', () => {
    const s = new IndoorStore();
    s.apply([fix(1, 2, 2)], 0);
    s.apply([fix(1, 30, 40, {}, 11)], 1000);
    expect(s.positionAt(s.slot.get(1)!, 1000)).toEqual([30, 40]);
    expect(s.countByFloor(1)).toEqual(new Map([[11, 1]]));
  });

  it('takes a tag off the plan on in: null and keeps it on a change without in', () => {
    const s = new IndoorStore();
    s.apply([fix(1, 2, 2, { on: true }), fix(2, 5, 5, { on: true })], 0);
    // Status only: still indoors where it was, now offline with a new battery level.
    s.apply([{ i: 1, ls: 1_700_000_001_000, on: false, b: 20 }], 100);
    expect(s.tag(1)).toMatchObject({ indoor: true, x: 2, y: 2, online: false, battery: 20, lastSeen: 1_700_000_001_000 });
    // Outdoors: off the plan, its record kept.
    s.apply([{ i: 2, ls: 1_700_000_002_000, in: null, la: 22.5, lo: 114 }], 200);
    expect(s.tag(2)!.indoor).toBe(false);
    expect(s.isIndoor(s.slot.get(2)!, 1)).toBe(false);
    expect(s.countByFloor(1)).toEqual(new Map([[10, 1]]));
    // A device never seen indoors gets no slot from an outdoor or status change.
    s.apply([{ i: 3, ls: 1, in: null }, { i: 4, ls: 1, on: true }], 300);
    expect(s.slot.has(3)).toBe(false);
    expect(s.slot.has(4)).toBe(false);
    // Back indoors: placed again without a glide from the old point.
    s.apply([fix(2, 40, 40)], 400);
    expect(s.positionAt(s.slot.get(2)!, 400)).toEqual([40, 40]);
  });

  it('grows its arrays past their first size', () => {
    const s = new IndoorStore();
    const batch = Array.from({ length: 2000 }, (_, k) => fix(k + 1, k % 50, Math.floor(k / 50)));
    s.apply(batch, 0);
    expect(s.count).toBe(2000);
    expect(s.ids.length).toBeGreaterThanOrEqual(2000);
    expect(s.tag(2000)).toMatchObject({ x: 49, y: 39 });
    expect(s.countByFloor(1).get(10)).toBe(2000);
  });

  it('is seeded by the scene snapshot, which keeps newer realtime fixes and drops tags gone', () => {
    const s = new IndoorStore();
    s.apply([fix(2, 9, 9, { t: Date.parse('2026-11-25T09:00:00Z') })], 0);
    s.apply([fix(3, 1, 1)], 0);
    s.seed(1, [
      snapshot(),
      snapshot({ DeviceId: 2, Imei: '865000000000002', Name: 'Nurse', X: 1, Y: 1, Time: '2026-11-25T08:30:00Z', Sos: true, Online: false, Battery: null }),
    ], 10);
    expect(s.tag(1)).toMatchObject({ name: 'Room 101', x: 3, y: 4, accuracy: 2, method: 'nearest', online: true, sos: false, battery: 80, indoor: true });
    expect(s.positionAt(s.slot.get(1)!, 10)).toEqual([3, 4]);
    // The realtime fix (09:00) is newer than the snapshot's (08:30): kept; names and flags taken.
    expect(s.tag(2)).toMatchObject({ name: 'Nurse', x: 9, y: 9, sos: true, online: false, battery: null });
    // Not in the snapshot: left the scene.
    expect(s.tag(3)!.indoor).toBe(false);
    expect(s.search(1, 'nur').map((t) => t.id)).toEqual([2]);
    expect(s.search(1, '0000001').map((t) => t.id)).toEqual([1]);
    expect(s.search(2, 'nur')).toEqual([]);
  });

  it('marks and clears SOS and tells its listeners once for a burst of batches', async () => {
    const s = new IndoorStore();
    const heard = vi.fn();
    s.subscribe(heard);
    s.apply([fix(1, 1, 1)], 0);
    s.apply([fix(1, 2, 1)], 10);
    s.setSos(1, true);
    expect(s.flags[s.slot.get(1)!]! & SOS).toBe(SOS);
    await vi.waitFor(() => expect(heard).toHaveBeenCalledTimes(1));
    s.setSos(1, false);
    expect(s.flags[s.slot.get(1)!]! & SOS).toBe(0);
    expect(s.flags[s.slot.get(1)!]! & INDOOR).toBe(INDOOR);
    expect(s.flags[s.slot.get(1)!]! & ONLINE).toBe(0);
  });
});

/** A 2D context that records what is drawn where. */
function recorder() {
  const arcs: { x: number; y: number; r: number }[] = [];
  const fills: { style: string; arcs: number }[] = [];
  const texts: string[] = [];
  const stamps: { sprite: string; x: number; y: number }[] = [];
  let pathArcs = 0;
  const g = {
    fillStyle: '',
    strokeStyle: '',
    lineWidth: 1,
    globalAlpha: 1,
    font: '',
    textAlign: '',
    textBaseline: '',
    clearRect() {},
    beginPath() {
      pathArcs = 0;
    },
    moveTo() {},
    arc(x: number, y: number, r: number) {
      arcs.push({ x, y, r });
      pathArcs++;
    },
    fill() {
      fills.push({ style: String(g.fillStyle), arcs: pathArcs });
    },
    stroke() {},
    save() {},
    restore() {},
    strokeText() {},
    fillText(t: string) {
      texts.push(t);
    },
    drawImage(sprite: { name: string }, x: number, y: number) {
      stamps.push({ sprite: sprite.name, x, y });
    },
  };
  return { g: g as unknown as CanvasRenderingContext2D, arcs, fills, texts, stamps };
}

describe('tag layer', () => {
  const transform = { pixelsPerMetre: 10, offsetX: 100, offsetY: 50 };
  const store = () => {
    const s = new IndoorStore();
    s.seed(1, [
      snapshot({ DeviceId: 1, Name: 'A', X: 1, Y: 1, Online: true }),
      snapshot({ DeviceId: 2, Name: 'B', X: 5, Y: 1, Online: false }),
      snapshot({ DeviceId: 3, Name: 'C', X: 9, Y: 1, Sos: true }),
      snapshot({ DeviceId: 4, Name: 'Other floor', FloorId: 11, X: 1, Y: 1 }),
      // Far outside the viewer: not drawn, no label.
      snapshot({ DeviceId: 5, Name: 'Far', X: 500, Y: 500 }),
    ], 0);
    return s;
  };

  it('projects the floor’s tags to the screen (metres × k + offset), NaN for the others', () => {
    const s = store();
    const out = new Float32Array(s.count * 2);
    project(s, 1, 10, transform, 0, out);
    expect([out[0], out[1]]).toEqual([110, 60]);
    expect([out[2], out[3]]).toEqual([150, 60]);
    expect(Number.isNaN(out[6]!)).toBe(true);
  });

  const sprites = { online: { name: 'online' }, offline: { name: 'offline' }, sos: { name: 'sos' }, sosDim: { name: 'sosDim' } } as unknown as Sprites;

  it('stamps each tag in view with its status sprite (SOS on top, blinking) and labels only the tags in view', () => {
    const s = store();
    const { g, fills, texts, arcs, stamps } = recorder();
    const o = { sceneId: 1, floorId: 10, transform, width: 800, height: 600, now: 0, accuracy: true, labels: true, selectedId: 2, blinkOn: true };
    const r = drawTags(g, s, o, sprites);
    expect(r).toEqual({ drawn: 3, sos: 1, labels: 3 });
    // Accuracy circles (2 m = 20 px) for the three in view, in one fill.
    expect(fills.map((f) => f.arcs)).toEqual([3]);
    expect(arcs.filter((a) => a.r === 20)).toHaveLength(3);
    // Offline, online, then SOS; each sprite centred on the tag at whole pixels.
    const half = SPRITE_SIZE / 2;
    expect(stamps).toEqual([
      { sprite: 'offline', x: 150 - half, y: 60 - half },
      { sprite: 'online', x: 110 - half, y: 60 - half },
      { sprite: 'sos', x: 190 - half, y: 60 - half },
    ]);
    const dim = recorder();
    drawTags(dim.g, s, { ...o, blinkOn: false }, sprites);
    expect(dim.stamps.at(-1)!.sprite).toBe('sosDim');
    expect(texts).toEqual(['A', 'B', 'C']);
    // The selection ring around B.
    expect(arcs.at(-1)).toMatchObject({ x: 150, y: 60 });
  });

  it('hits the nearest tag under the pointer on the floor shown', () => {
    const s = store();
    expect(hitTag(s, 1, 10, transform, 0, 152, 58)).toBe(2);
    expect(hitTag(s, 1, 10, transform, 0, 130, 60)).toBeNull();
    expect(hitTag(s, 1, 11, transform, 0, 110, 60)).toBe(4);
  });
});

describe('track runs', () => {
  it('cuts a track into runs on one floor, never joined across another floor', () => {
    const pts = [
      { FloorId: 1, X: 0, Y: 0 },
      { FloorId: 1, X: 1, Y: 0 },
      { FloorId: 2, X: 5, Y: 5 },
      { FloorId: 1, X: 2, Y: 0 },
    ];
    expect(runsOnFloor(pts, 1)).toEqual([[[0, 0], [1, 0]], [[2, 0]]]);
    expect(runsOnFloor(pts, 2)).toEqual([[[5, 5]]]);
    expect(runsOnFloor(pts, 3)).toEqual([]);
  });
});
