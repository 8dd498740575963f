// Account fences drawn on a map (the fence page, its dialog, the monitor): filled shapes with an
// outline and the fence's name. Stored shapes are WGS-84; they are shifted to the map's
// coordinates (GCJ-02 on AMap) here. District fences appear once their boundary is loaded.
import { useMemo } from 'react';
import { Layer, Source } from 'react-map-gl/maplibre';
import { useMapProjection } from '../../../map/projection';
import {
  districtOutlines,
  fenceFeatures,
  labelPoints,
  useDistrictShapes,
  type FenceFeatureProps,
  type ShapeOf,
} from './queries';

export type MapAccountFence = ShapeOf & { FenceId: number; Name: string };

const COLOURS = { fill: '#722ed1', line: '#531dab', selected: '#f5222d' };

export function useFenceCollection(fences: readonly MapAccountFence[], selectedId: number | null) {
  const projection = useMapProjection();
  const districts = useDistrictShapes(
    fences.flatMap((f) => (f.Type === 'district' && f.DistrictCode ? [f.DistrictCode] : [])),
  );
  return useMemo<FenceCollection>(
    () => ({
      areas: fenceFeatures(fences, districts.data, projection, selectedId),
      outlines: districtOutlines(fences, districts.data, projection, selectedId),
    }),
    [fences, districts.data, projection, selectedId],
  );
}

/** Fences as map features: their areas, and the outlines of the districts among them. */
export interface FenceCollection {
  areas: GeoJSON.FeatureCollection<GeoJSON.MultiPolygon, FenceFeatureProps>;
  outlines: GeoJSON.FeatureCollection<GeoJSON.MultiLineString, FenceFeatureProps>;
}

/** The fences as layers of the source `id` (one map may hold several sets: ids keep them apart). */
export function FenceLayers({
  id,
  data,
  labels = true,
  beforeId,
}: {
  id: string;
  data: FenceCollection;
  labels?: boolean;
  beforeId?: string;
}) {
  const colour = (base: string) => ['case', ['get', 'selected'], COLOURS.selected, base] as unknown as string;
  const points = useMemo(() => labelPoints(data.areas), [data.areas]);
  const lineWidth = ['case', ['get', 'selected'], 3, 2] as unknown as number;
  return (
    <>
      <Source id={id} type="geojson" data={data.areas}>
        <Layer
          id={`${id}-fill`}
          type="fill"
          beforeId={beforeId}
          paint={{ 'fill-color': colour(COLOURS.fill), 'fill-opacity': 0.15 }}
        />
        {/* A district's own outline is drawn instead of its counties' borders. */}
        <Layer
          id={`${id}-line`}
          type="line"
          beforeId={beforeId}
          filter={['!=', ['get', 'type'], 'district']}
          paint={{ 'line-color': colour(COLOURS.line), 'line-width': lineWidth }}
        />
      </Source>
      <Source id={`${id}-outlines`} type="geojson" data={data.outlines}>
        <Layer
          id={`${id}-outline`}
          type="line"
          beforeId={beforeId}
          paint={{ 'line-color': colour(COLOURS.line), 'line-width': lineWidth }}
        />
      </Source>
      {labels ? (
        <Source id={`${id}-names`} type="geojson" data={points}>
          <Layer
            id={`${id}-label`}
            type="symbol"
            layout={{
              'text-field': ['get', 'name'],
              'text-font': ['sans-serif'],
              'text-size': 13,
              'text-max-width': 10,
            }}
            paint={{ 'text-color': colour(COLOURS.line), 'text-halo-color': '#ffffff', 'text-halo-width': 2 }}
          />
        </Source>
      ) : null}
    </>
  );
}
