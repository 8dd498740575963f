// The demo care home: a two-storey building used by the indoor benchmark, the demo seed and the
// simulator's indoor mode. Each floor is a 40 x 20 m plan (1000 x 500 px at 0.04 m/px): a row of
// rooms to the north, a 3 m corridor, a row of rooms to the south, and a stair/lift core at the east
// end linking the floors. Floor 1 has the dining hall (with two AOA locators) and a UWB-equipped
// west wing. BLE anchors sit about every 8 m in rooms and corridors, each with its own true
// RSSI@1m around -59 dBm (hardware varies), so calibration matters.
// Plan frame: metres from the plan image's top-left corner, x right, y down. Plain data only.
import { Rng } from '../rng.js';

export interface Rect {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export interface Room extends Rect {
  id: string;
  name: string;
  kind: 'room' | 'corridor' | 'hall' | 'stairs';
}

export interface WalkNode {
  id: string;
  floorId: string;
  x: number;
  y: number;
  /** The room (or corridor) the node lies in; a door node belongs to the room behind it. */
  roomId: string;
  kind: 'corridor' | 'door' | 'spot' | 'stairs';
}

export interface WalkEdge {
  a: string;
  b: string;
  /** Seconds to cross a floor change (stairs or lift); absent for ordinary edges walked at walking speed. */
  seconds?: number;
}

export interface BuildingAnchor {
  key: string;
  floorId: string;
  x: number;
  y: number;
  height: number;
  /** The hardware's true RSSI at 1 m, dBm (what calibration should find). */
  rssi1m: number;
  kind: 'ble' | 'uwb';
}

export interface BuildingLocator {
  key: string;
  floorId: string;
  x: number;
  y: number;
  height: number;
  /** Boresight, degrees clockwise on screen from +x. */
  heading: number;
}

export interface BuildingFloor {
  floorId: string;
  name: string;
  level: number;
  /** Plan image size, px, and its scale. */
  widthPx: number;
  heightPx: number;
  metresPerPixel: number;
  geo: { originLat: number; originLon: number; rotation: number; metresPerPixel: number };
  /** The true path-loss exponent of the floor (what calibration should find). */
  exponent: number;
  rooms: Room[];
  /** Door openings: a short segment on a wall, plan metres. */
  doors: { x0: number; y0: number; x1: number; y1: number }[];
}

export interface Building {
  sceneId: string;
  name: string;
  floors: BuildingFloor[];
  anchors: BuildingAnchor[];
  locators: BuildingLocator[];
  nodes: WalkNode[];
  edges: WalkEdge[];
}

const W = 40;
const H = 20;
const MPP = 0.04;
const CORRIDOR: [number, number] = [8, 11];
const ROOM_W = 8;
/** The plans sit near Shenzhen civic centre, turned 15° from east like the street grid there. */
const ORIGIN = { originLat: 22.5431, originLon: 114.0579, rotation: 15, metresPerPixel: MPP };

function floorLayout(level: number): { rooms: Room[]; doors: BuildingFloor['doors'] } {
  const f = level;
  const rooms: Room[] = [];
  const doors: BuildingFloor['doors'] = [];
  for (let i = 0; i < 5; i++) {
    rooms.push({ id: `F${f}-R${f}0${i + 1}`, name: `Room ${f}0${i + 1}`, kind: 'room', x0: i * ROOM_W, y0: 0, x1: (i + 1) * ROOM_W, y1: CORRIDOR[0] });
    doors.push({ x0: i * ROOM_W + 3.5, y0: CORRIDOR[0], x1: i * ROOM_W + 4.5, y1: CORRIDOR[0] });
  }
  rooms.push({ id: `F${f}-CORRIDOR`, name: `Corridor ${f}`, kind: 'corridor', x0: 0, y0: CORRIDOR[0], x1: W, y1: CORRIDOR[1] });
  const south: Room[] =
    f === 1
      ? [
          { id: 'F1-R106', name: 'Room 106', kind: 'room', x0: 0, y0: CORRIDOR[1], x1: 8, y1: H },
          { id: 'F1-NURSE', name: 'Nurse station', kind: 'room', x0: 8, y0: CORRIDOR[1], x1: 16, y1: H },
          { id: 'F1-HALL', name: 'Dining hall', kind: 'hall', x0: 16, y0: CORRIDOR[1], x1: 32, y1: H },
        ]
      : [
          { id: 'F2-R206', name: 'Room 206', kind: 'room', x0: 0, y0: CORRIDOR[1], x1: 8, y1: H },
          { id: 'F2-R207', name: 'Room 207', kind: 'room', x0: 8, y0: CORRIDOR[1], x1: 16, y1: H },
          { id: 'F2-LOUNGE', name: 'Lounge', kind: 'hall', x0: 16, y0: CORRIDOR[1], x1: 32, y1: H },
        ];
  south.push({ id: `F${f}-STAIRS`, name: 'Stairs and lift', kind: 'stairs', x0: 32, y0: CORRIDOR[1], x1: W, y1: H });
  for (const r of south) {
    rooms.push(r);
    const cx = (r.x0 + r.x1) / 2;
    doors.push({ x0: cx - (r.kind === 'hall' ? 1 : 0.5), y0: CORRIDOR[1], x1: cx + (r.kind === 'hall' ? 1 : 0.5), y1: CORRIDOR[1] });
  }
  return { rooms, doors };
}

function hex2(n: number): string {
  return n.toString(16).toUpperCase().padStart(2, '0');
}

/** Builds the demo care home (deterministic). */
export function buildCareHome(): Building {
  const rng = new Rng(20260301);
  const floors: BuildingFloor[] = [];
  const anchors: BuildingAnchor[] = [];
  const nodes: WalkNode[] = [];
  const edges: WalkEdge[] = [];
  const yMid = (CORRIDOR[0] + CORRIDOR[1]) / 2;
  for (const level of [1, 2]) {
    const floorId = `F${level}`;
    const { rooms, doors } = floorLayout(level);
    floors.push({
      floorId,
      name: `Floor ${level}`,
      level,
      widthPx: Math.round(W / MPP),
      heightPx: Math.round(H / MPP),
      metresPerPixel: MPP,
      geo: { ...ORIGIN },
      exponent: level === 1 ? 2.2 : 2.0,
      rooms,
      doors,
    });
    // BLE anchors on a grid: 8 m along the building, rows in the north rooms, the corridor and the south rooms.
    let i = 0;
    for (const y of [4, yMid, 15.5]) {
      for (const x of [4, 12, 20, 28, 36]) {
        i++;
        anchors.push({
          key: `AC:23:3F:A0:${hex2(level)}:${hex2(i)}`,
          floorId,
          x,
          y,
          height: y === yMid ? 2.8 : 2.6,
          rssi1m: Math.round((-59 + rng.normal(0, 3)) * 2) / 2,
          kind: 'ble',
        });
      }
    }
    // Walk graph: corridor spine every 4 m, a door node and spots in every room, the stair core.
    const corridorId = `F${level}-CORRIDOR`;
    const spine: WalkNode[] = [];
    for (let x = 2; x <= 38; x += 4) {
      const n: WalkNode = { id: `${floorId}-c${x}`, floorId, x, y: yMid, roomId: corridorId, kind: 'corridor' };
      nodes.push(n);
      spine.push(n);
    }
    for (let k = 1; k < spine.length; k++) edges.push({ a: spine[k - 1].id, b: spine[k].id });
    const nearestSpine = (x: number) => spine.reduce((b, n) => (Math.abs(n.x - x) < Math.abs(b.x - x) ? n : b));
    for (const r of rooms) {
      if (r.kind === 'corridor') continue;
      const door = doors.find((d) => d.x0 >= r.x0 && d.x1 <= r.x1 && (d.y0 === r.y0 || d.y0 === r.y1))!;
      const dx = (door.x0 + door.x1) / 2;
      const inward = door.y0 === r.y1 ? -1 : 1;
      const doorNode: WalkNode = { id: `${r.id}-door`, floorId, x: dx, y: door.y0 + inward * 0.5, roomId: r.id, kind: 'door' };
      nodes.push(doorNode);
      const s = nearestSpine(dx);
      // From the spine straight across to the door (a point on the corridor's centre line in front of it).
      const front: WalkNode = { id: `${r.id}-front`, floorId, x: dx, y: yMid, roomId: corridorId, kind: 'corridor' };
      nodes.push(front);
      edges.push({ a: s.id, b: front.id }, { a: front.id, b: doorNode.id });
      if (r.kind === 'stairs') {
        const st: WalkNode = { id: `${floorId}-stairs`, floorId, x: 36, y: 16, roomId: r.id, kind: 'stairs' };
        nodes.push(st);
        edges.push({ a: doorNode.id, b: st.id });
        continue;
      }
      // Places people stay: a bed and a chair in rooms, tables in halls.
      const spots: [number, number][] =
        r.kind === 'hall'
          ? [[0.2, 0.3], [0.5, 0.3], [0.8, 0.3], [0.2, 0.7], [0.5, 0.7], [0.8, 0.7]]
          : [[0.3, 0.35], [0.7, 0.6], [0.5, 0.5]];
      spots.forEach(([fx, fy], k) => {
        const n: WalkNode = { id: `${r.id}-s${k}`, floorId, x: r.x0 + fx * (r.x1 - r.x0), y: r.y0 + fy * (r.y1 - r.y0), roomId: r.id, kind: 'spot' };
        nodes.push(n);
        edges.push({ a: doorNode.id, b: n.id });
      });
    }
  }
  edges.push({ a: 'F1-stairs', b: 'F2-stairs', seconds: 20 });

  // UWB anchors in the west wing of floor 1 (rooms 101, 102, 106, the nurse station and that stretch of corridor).
  const uwb: [number, number][] = [[0.3, 0.3], [15.7, 0.3], [0.3, 19.7], [15.7, 19.7], [8, 9.5]];
  uwb.forEach(([x, y], k) => anchors.push({ key: `AC:23:3F:B0:01:${hex2(k + 1)}`, floorId: 'F1', x, y, height: 2.7, rssi1m: -59, kind: 'uwb' }));

  // Two AOA locators on the corridor wall of the dining hall, looking diagonally into it.
  const locators: BuildingLocator[] = [
    { key: 'AC:23:3F:C0:01:01', floorId: 'F1', x: 16.3, y: 11.3, height: 3, heading: 40 },
    { key: 'AC:23:3F:C0:01:02', floorId: 'F1', x: 31.7, y: 11.3, height: 3, heading: 140 },
  ];
  return { sceneId: 'care-home', name: 'Sunshine Care Home', floors, anchors, locators, nodes, edges };
}

export const CARE_HOME: Building = buildCareHome();

/** The room (or corridor, hall, stair core) containing a point of a floor; null outside the building. */
export function roomAt(b: Building, floorId: string, x: number, y: number): Room | null {
  const f = b.floors.find((fl) => fl.floorId === floorId);
  if (!f) return null;
  // Points exactly on a wall (doorways) count for the first room listed; rooms are listed before the corridor's neighbours.
  for (const r of f.rooms) if (x >= r.x0 && x <= r.x1 && y >= r.y0 && y <= r.y1) return r;
  return null;
}

/** The UWB-covered area of floor 1 (the west wing). */
export const UWB_WING: Rect & { floorId: string } = { floorId: 'F1', x0: 0, y0: 0, x1: 16, y1: 20 };
