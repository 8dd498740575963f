// A point picked on the outdoor map (a scene's location): the console's MapView in the user's map
// source, a marker at the point, a click moving it. Positions go in and out in WGS-84; the map's
// own coordinates (GCJ-02 on AMap) stay inside.
import { useEffect } from 'react';
import { Marker, useMap } from 'react-map-gl/maplibre';
import type { MapMouseEvent } from 'maplibre-gl';
import { MapView } from '../../map/MapView';
import { useMapProjection } from '../../map/projection';

function ClickToPick({ onPick }: { onPick: (lon: number, lat: number) => void }) {
  const { current } = useMap();
  const projection = useMapProjection();
  useEffect(() => {
    const m = current?.getMap();
    if (!m) return;
    const click = (e: MapMouseEvent) => {
      const [lon, lat] = projection.fromMap([e.lngLat.lng, e.lngLat.lat]);
      onPick(lon, lat);
    };
    m.on('click', click);
    m.getCanvas().style.cursor = 'crosshair';
    return () => void m.off('click', click);
  }, [current, projection, onPick]);
  return null;
}

export interface PointPickerMapProps {
  /** WGS-84; none: the map opens on the default view. */
  lat?: number;
  lon?: number;
  onPick: (lon: number, lat: number) => void;
  height?: number;
}

export function PointPickerMap({ lat, lon, onPick, height = 420 }: PointPickerMapProps) {
  const projection = useMapProjection();
  const has = typeof lat === 'number' && typeof lon === 'number' && Number.isFinite(lat) && Number.isFinite(lon);
  const shown = has ? projection.toMap([lon, lat]) : null;
  return (
    <div style={{ height, position: 'relative' }} data-testid="scene-point-map">
      <MapView
        id="scene-point"
        initialViewState={shown ? { longitude: shown[0], latitude: shown[1], zoom: 16 } : { zoom: 4 }}
        doubleClickZoom={false}
      >
        <ClickToPick onPick={onPick} />
        {shown ? <Marker longitude={shown[0]} latitude={shown[1]} color="#1677ff" /> : null}
      </MapView>
    </div>
  );
}
