// The live devices of the monitor map, outside React: 50 000 records updated by realtime batches
// several times a second. The map layer reads changed ids and patches its source; React views
// subscribe to a throttled version number only, so a burst never re-renders a component per device.
import { BIG_DATA_FIELDS, BIG_DATA_STATUS, type LiveDevice } from '@wt/contract';

export const STATUS = BIG_DATA_STATUS;
export type DeviceStatus = 0 | 1 | 2;

export interface DeviceRecord {
  id: number;
  imei: string;
  name: string;
  lat: number | null;
  lon: number | null;
  status: DeviceStatus;
  /** Epoch ms of the last communication. */
  lastSeen: number | null;
  color: string | null;
  shape: string | null;
  speed?: number;
  course?: number;
  battery?: number;
  signal?: number;
  mode?: 'long' | 'short';
}

type Listener = (changed: Set<number> | 'all') => void;

const col = Object.fromEntries(BIG_DATA_FIELDS.map((f, i) => [f, i])) as Record<(typeof BIG_DATA_FIELDS)[number], number>;

export class DeviceStore {
  readonly records = new Map<number, DeviceRecord>();
  /** Ordered ids (as loaded), for the list. */
  ids: number[] = [];
  version = 0;
  private listeners = new Set<Listener>();
  private pending = new Set<number>();
  private pendingAll = false;
  private scheduled = false;

  subscribe(l: Listener): () => void {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }

  /** Replaces everything with the compact rows of /device/devicesByUserIdPageColorBigData. */
  load(rows: (string | number | null)[][]): void {
    this.records.clear();
    this.ids = [];
    for (const r of rows) {
      const id = r[col.DeviceId] as number;
      const ls = r[col.LastSeen] as number | null;
      this.records.set(id, {
        id,
        imei: String(r[col.Imei]),
        name: String(r[col.Nickname] ?? ''),
        lat: r[col.Lat] as number | null,
        lon: r[col.Lon] as number | null,
        status: (r[col.Status] as DeviceStatus) ?? 0,
        lastSeen: ls === null ? null : ls * 1000,
        color: (r[col.role_color] as string | null) ?? null,
        shape: (r[col.role_shape] as string | null) ?? null,
      });
      this.ids.push(id);
    }
    this.pendingAll = true;
    this.schedule();
  }

  /** Merges a realtime batch; unknown devices (not loaded yet) are skipped until the next load. */
  apply(changes: LiveDevice[]): void {
    for (const c of changes) {
      const r = this.records.get(c.i);
      if (!r) continue;
      if (c.la !== undefined && c.lo !== undefined) {
        r.lat = c.la;
        r.lon = c.lo;
      }
      if (c.sp !== undefined) r.speed = c.sp;
      if (c.co !== undefined) r.course = c.co;
      if (c.b !== undefined) r.battery = c.b;
      if (c.s !== undefined) r.signal = c.s;
      if (c.m !== undefined) r.mode = c.m;
      r.lastSeen = c.ls;
      // SOS stays until the alarm is handled; otherwise the online flag decides.
      if (c.on !== undefined && r.status !== STATUS.sos) r.status = c.on ? STATUS.online : STATUS.offline;
      this.pending.add(c.i);
    }
    this.schedule();
  }

  setSos(id: number, on: boolean): void {
    const r = this.records.get(id);
    if (!r) return;
    r.status = on ? STATUS.sos : STATUS.online;
    this.pending.add(id);
    this.schedule();
  }

  /** Changes are handed out once per animation frame, however many batches arrived; a full list at once. */
  private schedule(): void {
    // The map starts on a full list while the page renders.
    if (this.pendingAll) return this.flush();
    if (this.scheduled) return;
    this.scheduled = true;
    const run = () => {
      this.scheduled = false;
      this.flush();
    };
    if (typeof requestAnimationFrame === 'function' && document.visibilityState === 'visible') requestAnimationFrame(run);
    else setTimeout(run, 16);
  }

  private flush(): void {
    if (!this.pendingAll && !this.pending.size) return;
    const changed: Set<number> | 'all' = this.pendingAll ? 'all' : this.pending;
    this.pending = new Set();
    this.pendingAll = false;
    this.version++;
    for (const l of this.listeners) l(changed);
  }
}

/** The monitor map's devices, shared by the map, the side panel and the realtime connection. */
export const liveDevices = new DeviceStore();
