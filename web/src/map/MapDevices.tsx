// The devices layer of the monitor map. Renders nothing: it owns one clustered GeoJSON source
// and its layers (added in one effect, removed on cleanup) and patches the source with the
// devices a realtime batch changed (updateData), so 50 000 devices cost one source, not 50 000
// components, and an update sends only what changed to the map's worker.
import { useEffect, useRef } from 'react';
import { useMap } from 'react-map-gl/maplibre';
import gcoord from 'gcoord';
import { Marker, type GeoJSONSource, type GeoJSONSourceDiff, type MapLayerMouseEvent, type MapSourceDataEvent } from 'maplibre-gl';
import { liveDevices, STATUS, type DeviceRecord, type DeviceStore } from './deviceStore';
import { addDeviceIcons, colorKey, shapeKey } from './icons';
import { useMapSettings, usesGcj02 } from './settings';

const SOURCE = 'devices';
export const DEVICE_LAYERS = ['devices-clusters', 'devices-sos', 'devices-points', 'devices-selected'] as const;
/** Above this zoom devices are drawn one by one; below, in clusters. */
const CLUSTER_MAX_ZOOM = 9;
/** Zoomed out (clusters), the source is patched at most this often. */
const CLUSTERED_UPDATE_MS = 1000;
/** Labels (names, cluster counts) are HTML markers: at most this many on screen. */
const MAX_LABELS = 250;

type Project = (lon: number, lat: number) => [number, number];
const wgs: Project = (lon, lat) => [lon, lat];
const gcj: Project = (lon, lat) => gcoord.transform([lon, lat], gcoord.WGS84, gcoord.GCJ02) as [number, number];

function props(r: DeviceRecord) {
  return { s: r.status, c: r.status === STATUS.offline ? 'grey' : colorKey(r.color), h: shapeKey(r.shape) };
}

function feature(r: DeviceRecord, project: Project): GeoJSON.Feature<GeoJSON.Point> | null {
  if (r.lat === null || r.lon === null) return null;
  return { type: 'Feature', id: r.id, geometry: { type: 'Point', coordinates: project(r.lon, r.lat) }, properties: props(r) };
}

export function collection(store: DeviceStore, project: Project): GeoJSON.FeatureCollection {
  const features: GeoJSON.Feature[] = [];
  for (const r of store.records.values()) {
    const f = feature(r, project);
    if (f) features.push(f);
  }
  return { type: 'FeatureCollection', features };
}

export interface MapDevicesProps {
  store?: DeviceStore;
  selectedId?: number | null;
  onSelect?: (id: number) => void;
  showLabels?: boolean;
  /** Blink devices in SOS (the user's SOS animation switch). */
  sosAnimation?: boolean;
}

export function MapDevices({ store = liveDevices, selectedId = null, onSelect, showLabels = true, sosAnimation = true }: MapDevicesProps) {
  const { current: ref } = useMap();
  const provider = useMapSettings((s) => s.provider);
  const onSelectRef = useRef(onSelect);
  onSelectRef.current = onSelect;
  const shown = useRef(new Set<number>());

  // Source and layers; the data follows the store from here on.
  useEffect(() => {
    const map = ref?.getMap();
    if (!map) return;
    const project = usesGcj02(provider) ? gcj : wgs;
    addDeviceIcons(map);
    map.addSource(SOURCE, {
      type: 'geojson',
      data: collection(store, project),
      cluster: true,
      clusterMaxZoom: CLUSTER_MAX_ZOOM,
      clusterRadius: 50,
    });
    shown.current = new Set([...store.records.values()].filter((r) => r.lat !== null).map((r) => r.id));
    if (store.records.size) map.once('idle', () => performance.mark('wt-devices-rendered'));
    map.addLayer({
      id: 'devices-clusters',
      type: 'circle',
      source: SOURCE,
      filter: ['has', 'point_count'],
      paint: {
        'circle-color': ['step', ['get', 'point_count'], '#52c41a', 50, '#1677ff', 500, '#fa8c16', 5000, '#f5222d'],
        'circle-radius': ['step', ['get', 'point_count'], 14, 50, 18, 500, 23, 5000, 28],
        'circle-opacity': 0.85,
        'circle-stroke-color': '#ffffff',
        'circle-stroke-width': 3,
        'circle-stroke-opacity': 0.6,
      },
    });
    map.addLayer({
      id: 'devices-sos',
      type: 'circle',
      source: SOURCE,
      filter: ['all', ['!', ['has', 'point_count']], ['==', ['get', 's'], STATUS.sos]],
      paint: { 'circle-color': '#f5222d', 'circle-radius': 16, 'circle-opacity': 0.35, 'circle-stroke-color': '#f5222d', 'circle-stroke-width': 2 },
    });
    map.addLayer({
      id: 'devices-points',
      type: 'symbol',
      source: SOURCE,
      filter: ['!', ['has', 'point_count']],
      layout: {
        'icon-image': ['concat', 'dev-', ['get', 'h'], '-', ['case', ['==', ['get', 's'], STATUS.sos], 'red', ['get', 'c']]],
        'icon-allow-overlap': true,
        'icon-ignore-placement': true,
        'icon-size': ['case', ['==', ['get', 's'], STATUS.sos], 1.25, 1],
      },
    });
    map.addLayer({
      id: 'devices-selected',
      type: 'circle',
      source: SOURCE,
      filter: ['==', ['id'], -1],
      paint: { 'circle-radius': 15, 'circle-color': 'rgba(0,0,0,0)', 'circle-stroke-color': '#409EFF', 'circle-stroke-width': 3 },
    });

    const onPoint = (e: MapLayerMouseEvent) => {
      const id = e.features?.[0]?.id;
      if (typeof id === 'number') onSelectRef.current?.(id);
    };
    const onCluster = async (e: MapLayerMouseEvent) => {
      const f = e.features?.[0];
      if (!f) return;
      const zoom = await (map.getSource(SOURCE) as GeoJSONSource).getClusterExpansionZoom(f.properties!.cluster_id as number);
      map.easeTo({ center: (f.geometry as GeoJSON.Point).coordinates as [number, number], zoom });
    };
    const pointer = () => (map.getCanvas().style.cursor = 'pointer');
    const normal = () => (map.getCanvas().style.cursor = '');
    map.on('click', 'devices-points', onPoint);
    map.on('click', 'devices-clusters', onCluster);
    for (const l of ['devices-points', 'devices-clusters']) {
      map.on('mouseenter', l, pointer);
      map.on('mouseleave', l, normal);
    }

    // Changes wait here until sent. Zoomed out, the view is clusters, which a few metres of
    // movement do not change: the source is patched at most once a second there, and on every
    // batch when single devices are on screen.
    let pending = new Set<number>();
    let lastFlush = 0;
    let timer: number | undefined;
    const flush = () => {
      timer = undefined;
      lastFlush = performance.now();
      const src = map.getSource(SOURCE) as GeoJSONSource | undefined;
      const ids = pending;
      pending = new Set();
      if (!src || !ids.size) return;
      const diff: Required<Pick<GeoJSONSourceDiff, 'add' | 'update'>> = { add: [], update: [] };
      for (const id of ids) {
        const r = store.records.get(id);
        if (!r || r.lat === null || r.lon === null) continue;
        if (!shown.current.has(id)) {
          diff.add.push(feature(r, project)!);
          shown.current.add(id);
          continue;
        }
        const p = props(r);
        diff.update.push({
          id,
          newGeometry: { type: 'Point', coordinates: project(r.lon, r.lat) },
          addOrUpdateProperties: [
            { key: 's', value: p.s },
            { key: 'c', value: p.c },
          ],
        });
      }
      if (diff.add.length || diff.update.length) void src.updateData(diff);
    };
    const unsubscribe = store.subscribe((changed) => {
      const src = map.getSource(SOURCE) as GeoJSONSource | undefined;
      if (!src) return;
      if (changed === 'all') {
        pending = new Set();
        void src.setData(collection(store, project));
        map.once('idle', () => performance.mark('wt-devices-rendered'));
        shown.current = new Set([...store.records.values()].filter((r) => r.lat !== null).map((r) => r.id));
        return;
      }
      for (const id of changed) pending.add(id);
      if (!pending.size || timer !== undefined) return;
      const wait = map.getZoom() > CLUSTER_MAX_ZOOM ? 0 : Math.max(0, CLUSTERED_UPDATE_MS - (performance.now() - lastFlush));
      if (wait === 0) flush();
      else timer = window.setTimeout(flush, wait);
    });

    return () => {
      unsubscribe();
      window.clearTimeout(timer);
      map.off('click', 'devices-points', onPoint);
      map.off('click', 'devices-clusters', onCluster);
      for (const l of ['devices-points', 'devices-clusters']) {
        map.off('mouseenter', l, pointer);
        map.off('mouseleave', l, normal);
      }
      if (!map.getStyle()) return;
      for (const l of [...DEVICE_LAYERS].reverse()) if (map.getLayer(l)) map.removeLayer(l);
      if (map.getSource(SOURCE)) map.removeSource(SOURCE);
    };
  }, [ref, store, provider]);

  // The selected device's ring.
  useEffect(() => {
    const map = ref?.getMap();
    if (!map?.getLayer('devices-selected')) return;
    map.setFilter('devices-selected', ['==', ['id'], selectedId ?? -1]);
  }, [ref, selectedId, provider]);

  // SOS blinking: one paint property animated, a few times a second.
  useEffect(() => {
    const map = ref?.getMap();
    if (!map || !sosAnimation) return;
    let on = false;
    const id = window.setInterval(() => {
      if (!map.getLayer('devices-sos')) return;
      on = !on;
      map.setPaintProperty('devices-sos', 'circle-radius', on ? 22 : 12);
      map.setPaintProperty('devices-sos', 'circle-opacity', on ? 0.15 : 0.5);
    }, 450);
    return () => window.clearInterval(id);
  }, [ref, sosAnimation, provider]);

  // Names and cluster counts as HTML markers for what is on screen (no glyph server needed offline).
  useEffect(() => {
    const map = ref?.getMap();
    if (!map) return;
    const markers: Marker[] = [];
    let timer: number | undefined;
    const clear = () => markers.splice(0).forEach((m) => m.remove());
    const refresh = () => {
      clear();
      if (!map.getLayer('devices-points')) return;
      for (const f of map.queryRenderedFeatures({ layers: ['devices-clusters'] }).slice(0, MAX_LABELS)) {
        const el = document.createElement('div');
        el.className = 'wt-map-cluster-count';
        el.textContent = String(f.properties.point_count_abbreviated ?? f.properties.point_count);
        markers.push(new Marker({ element: el }).setLngLat((f.geometry as GeoJSON.Point).coordinates as [number, number]).addTo(map));
      }
      if (!showLabels) return;
      const points = map.queryRenderedFeatures({ layers: ['devices-points'] });
      if (points.length > MAX_LABELS) return;
      for (const f of points) {
        const r = store.records.get(f.id as number);
        if (!r) continue;
        const el = document.createElement('div');
        el.className = 'wt-map-label';
        el.textContent = r.name || r.imei;
        el.dataset.deviceId = String(r.id);
        markers.push(new Marker({ element: el, anchor: 'bottom' }).setLngLat((f.geometry as GeoJSON.Point).coordinates as [number, number]).addTo(map));
      }
    };
    const later = () => {
      window.clearTimeout(timer);
      timer = window.setTimeout(refresh, 200);
    };
    // Moving devices relabel at most once a second; a pan relabels at once.
    let lastData = 0;
    const onData = () => {
      if (Date.now() - lastData < 1000) return;
      lastData = Date.now();
      later();
    };
    const onSource = (e: MapSourceDataEvent) => {
      if (e.sourceId === SOURCE && e.isSourceLoaded) onData();
    };
    map.on('moveend', later);
    map.on('sourcedata', onSource);
    const unsubscribe = store.subscribe(onData);
    later();
    return () => {
      unsubscribe();
      map.off('moveend', later);
      map.off('sourcedata', onSource);
      window.clearTimeout(timer);
      clear();
    };
  }, [ref, store, showLabels, provider]);

  return null;
}
