// The map every map page uses: MapLibre through react-map-gl, the offline base layer under the
// chosen tiles, and zoom buttons that say when a zoom limit is reached. Feature layers are its
// children (MapDevices, MapTrack ...), each owning its own sources and layers.
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { App, Button, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import Map, { useMap, type MapRef, type ViewState } from 'react-map-gl/maplibre';
import PlusOutlined from '@ant-design/icons/es/icons/PlusOutlined';
import MinusOutlined from '@ant-design/icons/es/icons/MinusOutlined';
import type { GeoJSONSource, RasterTileSource } from 'maplibre-gl';
import 'maplibre-gl/dist/maplibre-gl.css';
import './worker';
import {
  BASE_SHAPES,
  baseStyle,
  CHINA_LINES,
  CJK_FONTS,
  LABEL_LAYERS,
  labelLanguage,
  labelsUrl,
  labelText,
  OFFLINE_PALETTE,
} from './baseStyle';
import { useMapSettings } from './settings';
import { useMapSource } from './sources';
import './map.css';

export const MIN_ZOOM = 2;
export const MAX_ZOOM = 18;

/** Applies the base layer settings to the fixed base style. */
function BaseLayers({ holdDetail }: { holdDetail?: boolean }) {
  const { current: map } = useMap();
  const { mode, normalUrl, satelliteUrl } = useMapSettings();
  const source = useMapSource();

  // The light shapes first when the page holds the detailed ones back (to draw its own layers
  // first), then the detailed ones once the map is idle.
  const shapes = useRef<'light' | 'detailed' | null>(null);
  useEffect(() => {
    const m = map?.getMap();
    if (!m) return;
    const set = (level: 'light' | 'detailed') => {
      // From the shapes' first file on (the style's placeholder is empty).
      if (!shapes.current) markLandPainted(m);
      shapes.current = level;
      for (const [id, url] of Object.entries(BASE_SHAPES[level]()))
        (m.getSource(id) as GeoJSONSource | undefined)?.setData(url);
      if (level === 'detailed')
        (m.getSource('base-labels') as GeoJSONSource | undefined)?.setData(labelsUrl());
    };
    if (holdDetail) {
      if (!shapes.current) set('light');
      return;
    }
    if (!shapes.current) return set('detailed');
    if (shapes.current === 'detailed') return;
    const upgrade = () => set('detailed');
    if (m.loaded()) upgrade();
    else m.once('idle', upgrade);
    return () => void m.off('idle', upgrade);
  }, [map, holdDetail]);

  // China's borders: each level's file is fetched when the map first shows that level.
  useEffect(() => {
    const m = map?.getMap();
    if (!m) return;
    const pending = new Set<string>(CHINA_LINES.map((l) => l.id));
    const check = () => {
      for (const l of CHINA_LINES) {
        if (!pending.has(l.id) || m.getZoom() < l.minzoom - 0.5) continue;
        pending.delete(l.id);
        (m.getSource(l.id) as GeoJSONSource | undefined)?.setData(l.url());
      }
      if (!pending.size) m.off('moveend', check);
    };
    m.on('moveend', check);
    if (m.loaded()) check();
    else m.once('idle', check);
    return () => void m.off('moveend', check);
  }, [map]);

  // Place names in the console's language.
  const { i18n } = useTranslation();
  const lang = labelLanguage(i18n.language);
  useEffect(() => {
    const m = map?.getMap();
    if (!m) return;
    for (const id of [...LABEL_LAYERS.map((l) => l.id), 'base-labels-area'])
      if (m.getLayer(id)) m.setLayoutProperty(id, 'text-field', labelText(lang));
  }, [map, lang]);

  useEffect(() => {
    const m = map?.getMap();
    if (!m || !m.getLayer('base-water')) return;
    const p = OFFLINE_PALETTE[mode];
    m.setPaintProperty('base-water', 'background-color', p.water);
    m.setPaintProperty('base-land', 'fill-color', p.land);
    m.setPaintProperty('base-borders', 'line-color', p.border);
    m.setPaintProperty('base-coast', 'line-color', p.coast);
    m.setPaintProperty('base-cn-land', 'fill-color', p.land);
    m.setPaintProperty('base-cn-province', 'line-color', p.province);
    m.setPaintProperty('base-cn-city', 'line-color', p.city);
    m.setPaintProperty('base-cn-district', 'line-color', p.district);
    for (const l of LABEL_LAYERS) {
      m.setPaintProperty(l.id, 'text-color', p.text);
      m.setPaintProperty(l.id, 'text-halo-color', p.halo);
    }
    const layer = mode === 'normal' ? source.Normal : source.Satellite;
    if (!layer) {
      m.setLayoutProperty('base-tiles', 'visibility', 'none');
      m.setLayoutProperty('base-tiles-labels', 'visibility', 'none');
      return;
    }
    const custom = mode === 'normal' ? normalUrl : satelliteUrl;
    (m.getSource('base-tiles') as RasterTileSource).setTiles(custom ? [custom] : layer.Tiles);
    m.setLayoutProperty('base-tiles', 'visibility', 'visible');
    // A source serving its place names apart (Tianditu) draws them over its tiles.
    if (layer.Labels.length && !custom)
      (m.getSource('base-tiles-labels') as RasterTileSource).setTiles(layer.Labels);
    m.setLayoutProperty(
      'base-tiles-labels',
      'visibility',
      layer.Labels.length && !custom ? 'visible' : 'none',
    );
  }, [map, source, mode, normalUrl, satelliteUrl]);
  return null;
}

/**
 * Marks the first frame drawn with the land in it (`wt-map-land`, once per page load): what
 * bench:map measures from the shell's first paint (`wt-shell`).
 */
function markLandPainted(m: ReturnType<MapRef['getMap']>) {
  if (performance.getEntriesByName('wt-map-land').length > 0) return;
  const onData = (e: { sourceId?: string }) => {
    if (e.sourceId !== 'base-land' || !m.isSourceLoaded('base-land')) return;
    m.off('sourcedata', onData);
    m.once('render', () => {
      if (performance.getEntriesByName('wt-map-land').length === 0) performance.mark('wt-map-land');
    });
  };
  m.on('sourcedata', onData);
}

function ZoomButtons() {
  const { current: map } = useMap();
  const { t } = useTranslation('monitor');
  const { message } = App.useApp();
  const zoom = (dir: 1 | -1) => {
    if (!map) return;
    const z = map.getZoom();
    if (dir > 0 && z >= MAX_ZOOM - 0.01) return void message.info(t('zoom.max'));
    if (dir < 0 && z <= MIN_ZOOM + 0.01) return void message.info(t('zoom.min'));
    map.easeTo({ zoom: Math.round(z) + dir, duration: 250 });
  };
  return (
    <div className="wt-map-zoom">
      <Tooltip title={t('zoom.in')} placement="left">
        <Button icon={<PlusOutlined />} onClick={() => zoom(1)} aria-label={t('zoom.in')} />
      </Tooltip>
      <Tooltip title={t('zoom.out')} placement="left">
        <Button icon={<MinusOutlined />} onClick={() => zoom(-1)} aria-label={t('zoom.out')} />
      </Tooltip>
    </div>
  );
}

export interface MapViewProps {
  id: string;
  initialViewState?: Partial<ViewState>;
  children?: ReactNode;
  /** The map's style is loaded: feature layers can be added, the camera moved. */
  onLoad?: (map: MapRef) => void;
  /** The container is visible again (kept-alive pages): the canvas must take its size. */
  visibleKey?: unknown;
  /** Keep the light base shapes until false (a page drawing a heavy layer first). */
  holdDetail?: boolean;
  /** Off where a double click means something else (closing a drawn polygon). */
  doubleClickZoom?: boolean;
}

export function MapView({
  id,
  initialViewState,
  children,
  onLoad,
  visibleKey,
  holdDetail,
  doubleClickZoom = true,
}: MapViewProps) {
  const style = useMemo(() => baseStyle(), []);
  // Feature layers add sources and layers: only once the style has loaded (not waiting for its
  // sources, so the page's layers and the base shapes load side by side).
  const [ready, setReady] = useState(false);
  return (
    <div className="wt-map" data-map={id}>
      <Map
        id={id}
        mapStyle={style}
        initialViewState={{ longitude: 114.06, latitude: 22.55, zoom: 4, ...initialViewState }}
        minZoom={MIN_ZOOM}
        maxZoom={MAX_ZOOM}
        dragRotate={false}
        localIdeographFontFamily={CJK_FONTS}
        doubleClickZoom={doubleClickZoom}
        attributionControl={{ compact: true }}
        // The style is in: layers can be added (the base shapes may still be loading).
        onStyleData={(e) => {
          if (ready) return;
          if (performance.getEntriesByName('wt-map-style').length === 0) performance.mark('wt-map-style');
          setReady(true);
          onLoad?.(e.target as unknown as MapRef);
        }}
        style={{ position: 'absolute', inset: 0 }}
      >
        {ready && (
          <>
            <BaseLayers holdDetail={holdDetail} />
            <ResizeOnShow visibleKey={visibleKey} />
            <ZoomButtons />
            {children}
          </>
        )}
      </Map>
    </div>
  );
}

/** Kept-alive pages hide the map with display:none; the canvas takes its size again when shown. */
function ResizeOnShow({ visibleKey }: { visibleKey?: unknown }) {
  const { current: map } = useMap();
  useEffect(() => {
    const m = map?.getMap();
    if (!m) return;
    m.resize();
    const ro = new ResizeObserver(() => m.resize());
    ro.observe(m.getContainer());
    return () => ro.disconnect();
  }, [map, visibleKey]);
  return null;
}
