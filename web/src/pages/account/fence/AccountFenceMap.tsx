// The map of the account-fence page and of its dialog: the console's MapView (the user's map
// source), the listed fences, the shape being edited (drawn, circle or district boundary) and a
// terra-draw control drawing a polygon or a circle. A drawn shape is shifted back to WGS-84 from
// the map's coordinates before it is handed out.
import { useEffect, useMemo, useRef } from 'react';
import { useMap } from 'react-map-gl/maplibre';
import { FenceDrawControl, type FenceDrawMode } from '../../../map/FenceDrawControl';
import { boundsOf, type Bounds } from '../../../map/bounds';
import { MapView } from '../../../map/MapView';
import { useMapProjection } from '../../../map/projection';
import type { FenceShape } from '../../devices/fence/geometry';
import { FenceLayers, useFenceCollection, type MapAccountFence } from './FenceLayers';
import { featureBounds } from './queries';

export type DrawMode = FenceDrawMode;

const DRAW_STYLE = { fillColor: '#1677ff', outlineColor: '#0958d9', fillOpacity: 0.2 } as const;

/**
 * Moves the view to what `fit` holds whenever `focusKey` changes (not on every refetch). Never while
 * a shape is being drawn: the fences arriving then would move the map under the pointer, and the
 * next click would land somewhere else.
 */
function FitView({ fit, home, focusKey, drawing }: { fit: GeoJSON.Feature<GeoJSON.MultiPolygon>[]; home: Bounds | null; focusKey: string; drawing: boolean }) {
  const { current } = useMap();
  const latest = useRef({ fit, home });
  latest.current = { fit, home };
  const frozen = useRef(drawing);
  frozen.current = drawing;
  const ready = fit.length > 0 ? 'fit' : home ? 'home' : '';
  useEffect(() => {
    const shapes = featureBounds(latest.current.fit);
    const b = shapes ?? latest.current.home;
    // Devices are framed at street-to-city scale: one device alone is not zoomed in to its door.
    if (current && b && !frozen.current) current.fitBounds(b, { padding: 50, maxZoom: shapes ? 16 : HOME_MAX_ZOOM, duration: 0 });
  }, [current, focusKey, ready]);
  return null;
}

/** The closest a view framing devices (not shapes) goes: a few kilometres across. */
const HOME_MAX_ZOOM = 13;

export interface AccountFenceMapProps {
  /** Stored fences drawn on the map. */
  fences: readonly MapAccountFence[];
  selectedId?: number | null;
  /** The shape being edited, drawn over the others. */
  editing?: MapAccountFence | null;
  drawMode?: DrawMode;
  onDrawn?: (shape: FenceShape) => void;
  /**
   * Where the map opens when there is no shape to show: [lon, lat] of the devices the fence is
   * about (WGS-84). The view moves to the selected fence, else the edited shape, else these
   * devices, else every fence, when `focusKey` changes.
   */
  home?: readonly (readonly [number, number])[];
  focusKey: string;
  height?: number | string;
  id?: string;
}

export function AccountFenceMap(props: AccountFenceMapProps) {
  const selectedId = props.selectedId ?? null;
  const listed = useFenceCollection(props.fences, selectedId);
  const editingList = useMemo(() => (props.editing ? [props.editing] : []), [props.editing]);
  const edited = useFenceCollection(editingList, props.editing?.FenceId ?? null);
  const projection = useMapProjection();
  const home = useMemo(() => boundsOf((props.home ?? []).map((p) => projection.toMap([p[0], p[1]]))), [props.home, projection]);
  const fit = useMemo(() => {
    const chosen = listed.areas.features.filter((f) => f.properties.id === selectedId);
    if (chosen.length) return chosen;
    if (edited.areas.features.length) return edited.areas.features;
    return home ? [] : listed.areas.features;
  }, [listed, edited, selectedId, home]);
  // A district's boundary arrives after the click that chose it: the view follows it then.
  const fitKey = `${props.focusKey}:${edited.areas.features.length ? 'shape' : ''}`;
  return (
    <div style={{ height: props.height ?? 420, position: 'relative' }} data-testid="account-fence-map">
      <MapView
        id={props.id ?? 'account-fence'}
        initialViewState={{ longitude: 116.397, latitude: 39.908, zoom: 3 }}
        doubleClickZoom={false}
      >
        {/* The view moves before the layers take new data: moved after, a source could keep the
            empty tiles it loaded for the new view while its data was being replaced. */}
        <FitView fit={fit} home={home} focusKey={fitKey} drawing={!!props.drawMode} />
        <FenceLayers id="account-fences" data={listed} />
        <FenceLayers id="account-fence-edited" data={edited} />
        {props.onDrawn ? <FenceDrawControl mode={props.drawMode ?? null} onDrawn={props.onDrawn} style={DRAW_STYLE} keep={false} clearOnFinish /> : null}
      </MapView>
    </div>
  );
}
