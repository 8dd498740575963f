// A terra-draw control inside the console's MapView that draws a polygon or a circle for a fence
// (device fences and account fences alike). The drawn ring is shifted back from the map's
// coordinates (GCJ-02 on AMap) to WGS-84 before it is handed out as a fence shape.
import { useEffect, useRef } from 'react';
import { useMap } from 'react-map-gl/maplibre';
import { TerraDraw, TerraDrawCircleMode, TerraDrawPolygonMode, TerraDrawRenderMode } from 'terra-draw';
import { TerraDrawMapLibreGLAdapter } from 'terra-draw-maplibre-gl-adapter';
import { shapeFromRing, type FenceShape } from '../pages/devices/fence/geometry';
import { useMapProjection } from './projection';

export type FenceDrawMode = 'polygon' | 'circle' | null;

export interface FenceDrawStyle {
  fillColor: `#${string}`;
  outlineColor: `#${string}`;
  fillOpacity: number;
}

export function FenceDrawControl({
  mode,
  onDrawn,
  style,
  keep,
  clearOnFinish = false,
}: {
  mode: FenceDrawMode;
  onDrawn: (shape: FenceShape) => void;
  style: FenceDrawStyle;
  /** A finished drawing stays on the map until the next drawing starts (else it goes when the mode changes). */
  keep: boolean;
  /** The drawing is cleared as soon as it is handed out: a layer of the page draws the shape from then on. */
  clearOnFinish?: boolean;
}) {
  const { current } = useMap();
  const projection = useMapProjection();
  const drawRef = useRef<TerraDraw | null>(null);
  const latest = useRef({ onDrawn, projection, clearOnFinish });
  latest.current = { onDrawn, projection, clearOnFinish };

  useEffect(() => {
    const map = current?.getMap();
    if (!map) return;
    const draw = new TerraDraw({
      adapter: new TerraDrawMapLibreGLAdapter({ map }),
      modes: [
        new TerraDrawPolygonMode({ styles: { ...style } }),
        new TerraDrawCircleMode({ styles: { ...style } }),
        new TerraDrawRenderMode({ modeName: 'idle', styles: {} }),
      ],
    });
    draw.start();
    draw.setMode('idle');
    draw.on('finish', (id) => {
      const f = draw.getSnapshotFeature(id);
      if (!f || f.geometry.type !== 'Polygon') return;
      const kind = f.properties.mode === 'circle' ? 'circle' : 'polygon';
      const { onDrawn: done, projection: p, clearOnFinish: clear } = latest.current;
      const ring = (f.geometry.coordinates[0] as number[][]).map(([lon, lat]) => p.fromMap([lon!, lat!]));
      if (clear) {
        // Cleared after terra-draw has finished its own handling of the event.
        setTimeout(() => {
          try {
            draw.clear();
          } catch {
            /* stopped meanwhile */
          }
        }, 0);
      }
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
    // The style is fixed per map: a new one needs a new control.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [current]);

  useEffect(() => {
    const draw = drawRef.current;
    if (!draw) return;
    // A new drawing replaces the last one; a kept one stays until saved or dropped.
    if (mode !== null || !keep) draw.clear();
    draw.setMode(mode ?? 'idle');
  }, [mode, keep, current]);

  return null;
}
