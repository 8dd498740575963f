// The map of the account-fence page and of its dialog: the console's MapView (the user's map
// source), the listed fences, the shape being edited (drawn, circle or district boundary) and a
// terra-draw control drawing a polygon or a circle. A drawn shape is shifted back to WGS-84 from
// the map's coordinates before it is handed out.
import { useEffect, useMemo, useRef } from 'react';
import { useMap } from 'react-map-gl/maplibre';
import { TerraDraw, TerraDrawCircleMode, TerraDrawPolygonMode, TerraDrawRenderMode } from 'terra-draw';
import { TerraDrawMapLibreGLAdapter } from 'terra-draw-maplibre-gl-adapter';
import { MapView } from '../../../map/MapView';
import { useMapProjection } from '../../../map/projection';
import { shapeFromRing, type FenceShape } from '../../devices/fence/geometry';
import { FenceLayers, useFenceCollection, type MapAccountFence } from './FenceLayers';
import { featureBounds } from './queries';

export type DrawMode = 'polygon' | 'circle' | null;

const DRAW_STYLE = { fillColor: '#1677ff', outlineColor: '#0958d9', fillOpacity: 0.2 } as const;

function DrawControl({ mode, onDrawn }: { mode: DrawMode; onDrawn: (shape: FenceShape) => void }) {
  const { current } = useMap();
  const projection = useMapProjection();
  const drawRef = useRef<TerraDraw | null>(null);
  const latest = useRef({ onDrawn, projection });
  latest.current = { onDrawn, projection };

  useEffect(() => {
    const map = current?.getMap();
    if (!map) return;
    const draw = new TerraDraw({
      adapter: new TerraDrawMapLibreGLAdapter({ map }),
      modes: [
        new TerraDrawPolygonMode({ styles: { ...DRAW_STYLE } }),
        new TerraDrawCircleMode({ styles: { ...DRAW_STYLE } }),
        new TerraDrawRenderMode({ modeName: 'idle', styles: {} }),
      ],
    });
    draw.start();
    draw.setMode('idle');
    draw.on('finish', (id) => {
      const f = draw.getSnapshotFeature(id);
      if (!f || f.geometry.type !== 'Polygon') return;
      const kind = f.properties.mode === 'circle' ? 'circle' : 'polygon';
      const { onDrawn: done, projection: p } = latest.current;
      const ring = (f.geometry.coordinates[0] as number[][]).map(([lon, lat]) => p.fromMap([lon!, lat!]));
      // The shape is drawn from then on by the edited-shape layer.
      setTimeout(() => {
        try {
          draw.clear();
        } catch {
          /* stopped meanwhile */
        }
      }, 0);
      done(shapeFromRing(kind, ring));
    });
    drawRef.current = draw;
    return () => {
      drawRef.current = null;
      try {
        draw.stop();
      } catch {
        /* the map may already be gone */
      }
    };
  }, [current]);

  useEffect(() => {
    const draw = drawRef.current;
    if (!draw) return;
    draw.clear();
    draw.setMode(mode ?? 'idle');
  }, [mode, current]);

  return null;
}

/**
 * Moves the view to what `fit` holds whenever `focusKey` changes (not on every refetch). Never while
 * a shape is being drawn: the fences arriving then would move the map under the pointer, and the
 * next click would land somewhere else.
 */
function FitView({ fit, focusKey, drawing }: { fit: GeoJSON.Feature<GeoJSON.MultiPolygon>[]; focusKey: string; drawing: boolean }) {
  const { current } = useMap();
  const latest = useRef(fit);
  latest.current = fit;
  const frozen = useRef(drawing);
  frozen.current = drawing;
  const ready = fit.length > 0;
  useEffect(() => {
    const b = featureBounds(latest.current);
    if (current && b && !frozen.current) current.fitBounds(b, { padding: 50, maxZoom: 16, duration: 0 });
  }, [current, focusKey, ready]);
  return null;
}

export interface AccountFenceMapProps {
  /** Stored fences drawn on the map. */
  fences: readonly MapAccountFence[];
  selectedId?: number | null;
  /** The shape being edited, drawn over the others. */
  editing?: MapAccountFence | null;
  drawMode?: DrawMode;
  onDrawn?: (shape: FenceShape) => void;
  /** The view moves to the selected fence (else the edited shape, else every fence) when it changes. */
  focusKey: string;
  height?: number | string;
  id?: string;
}

export function AccountFenceMap(props: AccountFenceMapProps) {
  const selectedId = props.selectedId ?? null;
  const listed = useFenceCollection(props.fences, selectedId);
  const editingList = useMemo(() => (props.editing ? [props.editing] : []), [props.editing]);
  const edited = useFenceCollection(editingList, props.editing?.FenceId ?? null);
  const fit = useMemo(() => {
    const chosen = listed.areas.features.filter((f) => f.properties.id === selectedId);
    if (chosen.length) return chosen;
    if (edited.areas.features.length) return edited.areas.features;
    return listed.areas.features;
  }, [listed, edited, selectedId]);
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
        <FitView fit={fit} focusKey={fitKey} drawing={!!props.drawMode} />
        <FenceLayers id="account-fences" data={listed} />
        <FenceLayers id="account-fence-edited" data={edited} />
        {props.onDrawn ? <DrawControl mode={props.drawMode ?? null} onDrawn={props.onDrawn} /> : null}
      </MapView>
    </div>
  );
}
