// The device-fence map: the console's MapView (its base layer is the one the user chose, the
// offline map by default), stored fences drawn as layers, the device's last position, and a
// terra-draw control that draws a new circle or polygon. Fences are stored in WGS-84; on a map in
// GCJ-02 (AMap) they are shifted for display and a drawn shape is shifted back before it is kept.
import { useEffect, useMemo } from 'react';
import { Layer, Marker, Source, useMap } from 'react-map-gl/maplibre';
import { FenceDrawControl } from '../../../map/FenceDrawControl';
import { MapView } from '../../../map/MapView';
import { useMapProjection, type MapProjection } from '../../../map/projection';
import { boundsOf, fenceRing, type FenceShape, type LatLon } from './geometry';

export interface MapFence {
  FenceId: number;
  Name: string;
  Type: 'circle' | 'polygon';
  Lat: number | null;
  Lon: number | null;
  Radius: number | null;
  Points: LatLon[];
}

const projectRing = (ring: number[][], p: MapProjection) => ring.map(([lon, lat]) => p.toMap([lon!, lat!]));

const DRAW_STYLE = { fillColor: '#409EFF', outlineColor: '#1d6fd6', fillOpacity: 0.25 } as const;

function FenceLayers({ fences, selectedId }: { fences: MapFence[]; selectedId: number | null }) {
  const projection = useMapProjection();
  const data = useMemo(
    () => ({
      type: 'FeatureCollection' as const,
      features: fences.flatMap((f) => {
        const ring = fenceRing(f);
        return ring
          ? [
              {
                type: 'Feature' as const,
                properties: { id: f.FenceId, name: f.Name, selected: f.FenceId === selectedId },
                geometry: { type: 'Polygon' as const, coordinates: [projectRing(ring, projection)] },
              },
            ]
          : [];
      }),
    }),
    [fences, selectedId, projection],
  );
  return (
    <Source id="device-fences" type="geojson" data={data}>
      <Layer
        id="device-fences-fill"
        type="fill"
        paint={{ 'fill-color': ['case', ['get', 'selected'], '#f56c6c', '#67c23a'], 'fill-opacity': 0.2 }}
      />
      <Layer
        id="device-fences-line"
        type="line"
        paint={{ 'line-color': ['case', ['get', 'selected'], '#f56c6c', '#3a9a16'], 'line-width': 2 }}
      />
    </Source>
  );
}

/** Moves the view to the fences (or the device) when the device or the selection changes. */
function FitView({
  fences,
  device,
  focusKey,
}: {
  fences: MapFence[];
  device: LatLon | null;
  focusKey: string;
}) {
  const { current } = useMap();
  const projection = useMapProjection();
  useEffect(() => {
    const map = current;
    if (!map) return;
    const b = boundsOf(
      fences
        .map(fenceRing)
        .filter((r): r is number[][] => r !== null)
        .map((r) => projectRing(r, projection)),
    );
    if (b) map.fitBounds(b, { padding: 60, maxZoom: 16, duration: 0 });
    else if (device) map.jumpTo({ center: projection.toMap([device.Lon, device.Lat]), zoom: 14 });
    // Only when the device, the focused fence or the map source changes, not on every refetch.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [current, focusKey, projection]);
  return null;
}

function DeviceMarker({ device }: { device: LatLon }) {
  const [lon, lat] = useMapProjection().toMap([device.Lon, device.Lat]);
  return (
    <Marker longitude={lon} latitude={lat}>
      <div className="wt-fence-device" />
    </Marker>
  );
}

export function FenceMap(props: {
  fences: MapFence[];
  selectedId: number | null;
  device: LatLon | null;
  drawMode: 'circle' | 'polygon' | null;
  keepDrawing: boolean;
  onDrawn: (shape: FenceShape) => void;
  focusKey: string;
  height?: number | string;
}) {
  return (
    <div style={{ height: props.height ?? 560, position: 'relative' }} data-testid="fence-map">
      <MapView
        id="fence"
        initialViewState={
          props.device
            ? { longitude: props.device.Lon, latitude: props.device.Lat, zoom: 14 }
            : { longitude: 116.397, latitude: 39.908, zoom: 3 }
        }
        // A double click closes a polygon; it must not zoom as well.
        doubleClickZoom={false}
      >
        <FenceLayers fences={props.fences} selectedId={props.selectedId} />
        {props.device ? <DeviceMarker device={props.device} /> : null}
        <FitView
          fences={
            props.selectedId ? props.fences.filter((f) => f.FenceId === props.selectedId) : props.fences
          }
          device={props.device}
          focusKey={props.focusKey}
        />
        <FenceDrawControl mode={props.drawMode} keep={props.keepDrawing} onDrawn={props.onDrawn} style={DRAW_STYLE} />
      </MapView>
    </div>
  );
}
