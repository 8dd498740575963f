// The devices layer of the monitor map. Renders nothing: it owns one WebGL layer (DeviceLayer)
// drawing every device from typed arrays, a worker computing the clusters shown zoomed out, and
// the HTML labels (names, cluster counts) of what is on screen. A realtime batch rewrites the
// slots of the devices it moved and repaints; nothing is re-tiled or re-clustered on the page.
import { useEffect, useRef } from 'react';
import { useMap } from 'react-map-gl/maplibre';
import gcoord from 'gcoord';
import { Marker, type Map as MapLibreMap, type MapMouseEvent } from 'maplibre-gl';
import { liveDevices, type DeviceStore } from './deviceStore';
import { abbreviate, clusterStep, DevicePoints, hitTest, mercatorX, mercatorY, slotsIn, type Project } from './devicePoints';
import { DeviceLayer, DEVICE_LAYER_ID, type ClusterView } from './deviceLayer';
import type { BBox, ClusterRequest, ClusterResponse } from './clusterProtocol';
import { iconAtlas } from './icons';
import { useMapSettings, usesGcj02 } from './settings';

/** Up to this zoom (exclusive of the next level) devices are clustered; above, drawn one by one. */
const CLUSTER_MAX_ZOOM = 9;
/** Zoomed out, clusters follow moving devices at most this often. */
const CLUSTERED_UPDATE_MS = 1000;
/** Labels (names, cluster counts) are HTML markers: at most this many on screen. */
const MAX_LABELS = 250;
/** Moving devices relabel at most this often. */
const LABEL_UPDATE_MS = 1000;
/** A click selects the nearest device within this many CSS px. */
const HIT_PX = 14;

const wgs: Project = (lon, lat) => [lon, lat];
const gcj: Project = (lon, lat) => gcoord.transform([lon, lat], gcoord.WGS84, gcoord.GCJ02) as [number, number];

const clustered = (map: MapLibreMap) => Math.floor(map.getZoom()) <= CLUSTER_MAX_ZOOM;
/** Web Mercator units per CSS pixel at the map's zoom (512 px tiles). */
const unitsPerPx = (map: MapLibreMap) => 1 / (512 * 2 ** map.getZoom());

/** The view in Mercator units. */
function viewBox(map: MapLibreMap) {
  const b = map.getBounds();
  return { x0: mercatorX(b.getWest()), x1: mercatorX(b.getEast()), y0: mercatorY(b.getNorth()), y1: mercatorY(b.getSouth()) };
}

/** The view widened by half its size on each side, so a pan shows clusters before the next answer. */
function queryBox(map: MapLibreMap): BBox {
  const b = map.getBounds();
  const w = (b.getEast() - b.getWest()) / 2;
  const h = (b.getNorth() - b.getSouth()) / 2;
  if (w * 4 >= 360) return [-180, -85, 180, 85];
  return [Math.max(-180, b.getWest() - w), Math.max(-85, b.getSouth() - h), Math.min(180, b.getEast() + w), Math.min(85, b.getNorth() + h)];
}

const covers = (outer: BBox, map: MapLibreMap) => {
  const b = map.getBounds();
  return outer[0] <= Math.max(-180, b.getWest()) && outer[1] <= Math.max(-85, b.getSouth()) && outer[2] >= Math.min(180, b.getEast()) && outer[3] >= Math.min(85, b.getNorth());
};

export interface MapDevicesProps {
  store?: DeviceStore;
  selectedId?: number | null;
  onSelect?: (id: number) => void;
  showLabels?: boolean;
  /** Blink devices in SOS (the user's SOS animation switch). */
  sosAnimation?: boolean;
  /** The devices of a full list are drawn (the map is idle with them). */
  onRendered?: () => void;
}

export function MapDevices({ store = liveDevices, selectedId = null, onSelect, showLabels = true, sosAnimation = true, onRendered }: MapDevicesProps) {
  const { current: ref } = useMap();
  const provider = useMapSettings((s) => s.provider);
  const onSelectRef = useRef(onSelect);
  onSelectRef.current = onSelect;
  const onRenderedRef = useRef(onRendered);
  onRenderedRef.current = onRendered;
  const showLabelsRef = useRef(showLabels);
  showLabelsRef.current = showLabels;
  const layerRef = useRef<DeviceLayer | null>(null);
  const relabelRef = useRef<() => void>(() => {});

  useEffect(() => {
    const map = ref?.getMap();
    if (!map) return;
    const points = new DevicePoints(usesGcj02(provider) ? gcj : wgs);
    const layer = new DeviceLayer(points, iconAtlas());
    layerRef.current = layer;
    map.addLayer(layer);

    // Clusters: the worker holds the index; the page sends positions (at most once a second while
    // zoomed out) and the view, and draws the answer for the current zoom.
    const worker = new Worker(new URL('./clusterWorker.ts', import.meta.url), { type: 'module' });
    let seq = 0;
    let busy = false;
    let again = false;
    /** The worker's index is older than the positions. */
    let stale = true;
    let lastLoad = 0;
    let loadTimer: number | undefined;
    /** Sequence number of the first answer that reflects the last full list. */
    let firstSeq = -1;
    let firstPending = false;
    const expanding = new Map<number, [number, number]>();

    const post = (m: ClusterRequest, transfer: Transferable[] = []) => worker.postMessage(m, transfer);
    const request = () => {
      if (!points.count) return;
      if (busy) {
        again = true;
        return;
      }
      busy = true;
      again = false;
      const query = { bbox: queryBox(map), zoom: Math.floor(map.getZoom()) };
      if (stale) {
        stale = false;
        lastLoad = performance.now();
        const lon = points.lon.slice(0, points.count);
        const lat = points.lat.slice(0, points.count);
        post({ kind: 'load', seq: ++seq, lon, lat, query }, [lon.buffer, lat.buffer]);
      } else post({ kind: 'query', seq: ++seq, query });
    };
    const markRendered = () => {
      firstPending = false;
      map.once('idle', () => {
        performance.mark('wt-devices-rendered');
        onRenderedRef.current?.();
      });
    };
    worker.onmessage = (e: MessageEvent<ClusterResponse>) => {
      const m = e.data;
      if (m.kind === 'expand') {
        const at = expanding.get(m.seq);
        expanding.delete(m.seq);
        if (at) map.easeTo({ center: at, zoom: m.zoom });
        return;
      }
      busy = false;
      if (clustered(map) && m.zoom === Math.floor(map.getZoom()) && covers(m.bbox, map)) {
        layer.setClusters({ clusters: m.clusters, singles: m.singles } satisfies ClusterView);
        relabelRef.current();
        if (firstPending && m.seq >= firstSeq) markRendered();
      } else again = true;
      if (again && clustered(map)) request();
    };

    const loadAll = () => {
      points.load(store.records.values(), store.records.size);
      layer.reset();
      stale = true;
      if (!points.count) return;
      firstPending = true;
      firstSeq = seq + 1;
      if (clustered(map)) {
        // Nothing until the clusters are in: 50 000 single sprites would cost more than the wait.
        layer.setClusters({ clusters: new Float64Array(0), singles: new Uint32Array(0) });
        busy = false;
        request();
      } else {
        layer.setClusters(null);
        markRendered();
      }
      relabelRef.current();
    };

    const onMoveEnd = () => {
      if (!clustered(map)) {
        if (layer.clusters) layer.setClusters(null);
        return;
      }
      request();
    };
    // Zooming in past the cluster levels shows single devices at once.
    const onZoom = () => {
      if (!clustered(map) && layer.clusters) {
        layer.setClusters(null);
        relabelRef.current();
      }
    };

    const unsubscribe = store.subscribe((changed) => {
      if (changed === 'all') return loadAll();
      // Single devices repaint when one of them moved on or off the screen; zoomed out, the
      // clusters and the devices between them are redrawn with the next clusters (at most a second).
      const zoomedIn = !clustered(map);
      const box = viewBox(map);
      const margin = 30 * unitsPerPx(map);
      const seen = (i: number) => points.x[i]! >= box.x0 - margin && points.x[i]! <= box.x1 + margin && points.y[i]! >= box.y0 - margin && points.y[i]! <= box.y1 + margin;
      let any = false;
      let visible = false;
      for (const id of changed) {
        const r = store.records.get(id);
        const i = points.slot.get(id);
        if (!r || i === undefined) continue;
        if (zoomedIn && !visible && seen(i)) visible = true;
        points.update(r);
        if (zoomedIn && !visible && seen(i)) visible = true;
        any = true;
      }
      if (!any) return;
      stale = true;
      if (visible) layer.repaint();
      if (zoomedIn || loadTimer !== undefined) return;
      loadTimer = window.setTimeout(
        () => {
          loadTimer = undefined;
          if (clustered(map)) request();
        },
        Math.max(0, CLUSTERED_UPDATE_MS - (performance.now() - lastLoad)),
      );
    });

    /** What is under a point of the map: a cluster (its offset in the cluster list), else a device slot. */
    const hit = (e: MapMouseEvent): { cluster: number } | { slot: number } | null => {
      const x = mercatorX(e.lngLat.lng);
      const y = mercatorY(e.lngLat.lat);
      const px = unitsPerPx(map);
      const view = layer.clusters;
      const c = view?.clusters ?? [];
      for (let k = 0; k < c.length; k += 4) {
        const r = (clusterStep(c[k + 2]!).radius + 3) * px;
        if ((mercatorX(c[k]!) - x) ** 2 + (mercatorY(c[k + 1]!) - y) ** 2 <= r * r) return { cluster: k };
      }
      const slot = hitTest(points, x, y, HIT_PX * px, view?.singles);
      return slot >= 0 ? { slot } : null;
    };
    // A click selects the nearest single device, or zooms into a cluster.
    const onClick = (e: MapMouseEvent) => {
      const h = hit(e);
      const c = layer.clusters?.clusters;
      if (h && 'cluster' in h && c) {
        expanding.set(++seq, [c[h.cluster]!, c[h.cluster + 1]!]);
        post({ kind: 'expand', seq, id: c[h.cluster + 3]! });
      } else if (h && 'slot' in h) onSelectRef.current?.(points.ids[h.slot]!);
    };
    let hoverAt = 0;
    const onHover = (e: MapMouseEvent) => {
      if (e.originalEvent.timeStamp - hoverAt < 100) return;
      hoverAt = e.originalEvent.timeStamp;
      map.getCanvas().style.cursor = hit(e) ? 'pointer' : '';
    };
    map.on('click', onClick);
    map.on('mousemove', onHover);
    map.on('moveend', onMoveEnd);
    map.on('zoom', onZoom);
    if (store.records.size) loadAll();

    return () => {
      unsubscribe();
      worker.terminate();
      window.clearTimeout(loadTimer);
      map.off('click', onClick);
      map.off('mousemove', onHover);
      map.off('moveend', onMoveEnd);
      map.off('zoom', onZoom);
      layerRef.current = null;
      if (map.getStyle() && map.getLayer(DEVICE_LAYER_ID)) map.removeLayer(DEVICE_LAYER_ID);
    };
  }, [ref, store, provider]);

  // The selected device's ring.
  useEffect(() => {
    const layer = layerRef.current;
    if (!layer) return;
    layer.selectedId = selectedId;
    layer.repaint();
  }, [selectedId, provider]);

  // SOS blinking: two uniforms changed a few times a second, repainted only when a device is in SOS.
  useEffect(() => {
    const layer = layerRef.current;
    if (!layer) return;
    layer.halo = { radius: 16, alpha: 0.35 };
    if (!sosAnimation) return layer.repaint();
    let on = false;
    const id = window.setInterval(() => {
      on = !on;
      layer.halo = on ? { radius: 22, alpha: 0.15 } : { radius: 12, alpha: 0.5 };
      if (layer.points.sos > 0) layer.repaint();
    }, 450);
    return () => window.clearInterval(id);
  }, [sosAnimation, provider]);

  // Names and cluster counts as HTML markers for what is on screen (no glyph server needed
  // offline), kept from one refresh to the next so moving devices only move their label.
  useEffect(() => {
    const map = ref?.getMap();
    if (!map) return;
    const markers = new Map<string, Marker>();
    let timer: number | undefined;
    const refresh = () => {
      timer = undefined;
      const layer = layerRef.current;
      const keep = new Set<string>();
      const put = (key: string, lngLat: [number, number], make: () => Marker) => {
        keep.add(key);
        const m = markers.get(key);
        if (m) m.setLngLat(lngLat);
        else markers.set(key, make().setLngLat(lngLat).addTo(map));
      };
      if (layer?.points.count) {
        const { points } = layer;
        const box = viewBox(map);
        const view = layer.clusters;
        if (view) {
          const c = view.clusters;
          for (let k = 0, n = 0; k < c.length && n < MAX_LABELS; k += 4) {
            const x = mercatorX(c[k]!);
            const y = mercatorY(c[k + 1]!);
            if (x < box.x0 || x > box.x1 || y < box.y0 || y > box.y1) continue;
            n++;
            const text = abbreviate(c[k + 2]!);
            const key = `c${c[k + 3]}`;
            put(key, [c[k]!, c[k + 1]!], () => {
              const el = document.createElement('div');
              el.className = 'wt-map-cluster-count';
              el.textContent = text;
              return new Marker({ element: el });
            });
            markers.get(key)!.getElement().textContent = text;
          }
        }
        const slots = showLabelsRef.current ? slotsIn(points, box, MAX_LABELS, view?.singles) : [];
        if (slots.length <= MAX_LABELS)
          for (const i of slots) {
            const r = store.records.get(points.ids[i]!);
            if (!r) continue;
            put(`d${r.id}`, [points.lon[i]!, points.lat[i]!], () => {
              const el = document.createElement('div');
              el.className = 'wt-map-label';
              el.textContent = r.name || r.imei;
              el.dataset.deviceId = String(r.id);
              // A device's name is what people typed (USER_DATA in i18n/texts.ts).
              el.dataset.userData = '';
              // Above the device's icon (20 px).
              return new Marker({ element: el, anchor: 'bottom', offset: [0, -11] });
            });
          }
      }
      for (const [key, m] of markers)
        if (!keep.has(key)) {
          m.remove();
          markers.delete(key);
        }
    };
    const later = (ms: number) => {
      if (timer === undefined) timer = window.setTimeout(refresh, ms);
    };
    relabelRef.current = () => later(50);
    const onMove = () => {
      window.clearTimeout(timer);
      timer = undefined;
      later(200);
    };
    // Moving devices relabel at most once a second.
    const unsubscribe = store.subscribe(() => later(LABEL_UPDATE_MS));
    map.on('moveend', onMove);
    later(0);
    return () => {
      unsubscribe();
      relabelRef.current = () => {};
      map.off('moveend', onMove);
      window.clearTimeout(timer);
      for (const m of markers.values()) m.remove();
    };
  }, [ref, store, showLabels, provider]);

  return null;
}
