// Account fences as map features: circles and polygons in the map's coordinates (shifted to GCJ-02
// on AMap, unchanged on the others), districts once their boundary is there, one name per fence
// inside its largest part.
import { describe, expect, it } from 'vitest';
import gcoord from 'gcoord';
import {
  districtOutlines,
  fenceFeatures,
  featureBounds,
  labelPoints,
  type ShapeOf,
} from '../src/pages/account/fence/queries';
import { projectionOf } from '../src/map/projection';

type Fence = ShapeOf & { FenceId: number; Name: string };
const square: Fence = {
  FenceId: 1,
  Name: 'Square',
  Type: 'polygon',
  Points: [
    { Lat: 22.5, Lon: 113.9 },
    { Lat: 22.5, Lon: 114 },
    { Lat: 22.6, Lon: 114 },
    { Lat: 22.6, Lon: 113.9 },
  ],
};
const circle: Fence = { FenceId: 2, Name: 'Circle', Type: 'circle', Lat: 22.54, Lon: 113.95, Radius: 1000 };
const district: Fence = { FenceId: 3, Name: 'Nanshan', Type: 'district', DistrictCode: '440305' };
const boundary: GeoJSON.MultiPolygon = {
  type: 'MultiPolygon',
  coordinates: [
    [
      [
        [113.8, 22.4],
        [114.0, 22.4],
        [114.0, 22.6],
        [113.8, 22.6],
        [113.8, 22.4],
      ],
    ],
    [
      [
        [113.7, 22.3],
        [113.72, 22.3],
        [113.72, 22.32],
        [113.7, 22.3],
      ],
    ],
  ],
};

describe('account fence features', () => {
  it('draws polygons and circles where they are stored on the offline map, and leaves a district out until its boundary is loaded', () => {
    const fc = fenceFeatures([square, circle, district], undefined, projectionOf('offline'));
    expect(fc.features.map((f) => f.properties.name)).toEqual(['Square', 'Circle']);
    expect(fc.features[0]!.geometry.coordinates[0]![0]).toEqual([
      [113.9, 22.5],
      [114, 22.5],
      [114, 22.6],
      [113.9, 22.6],
      [113.9, 22.5],
    ]);
    const [w, s, e, n] = featureBounds([fc.features[1]!])!;
    // A 1 km radius: about 0.009° of latitude either side of the centre.
    expect(n - 22.54).toBeCloseTo(0.009, 3);
    expect(22.54 - s).toBeCloseTo(0.009, 3);
    expect((w + e) / 2).toBeCloseTo(113.95, 4);
  });

  it('shifts every vertex to GCJ-02 on AMap', () => {
    const fc = fenceFeatures([square], undefined, projectionOf('amap'));
    const [lon, lat] = gcoord.transform([113.9, 22.5], gcoord.WGS84, gcoord.GCJ02) as [number, number];
    expect(fc.features[0]!.geometry.coordinates[0]![0]![0]).toEqual([lon, lat]);
    expect(lon).not.toBe(113.9);
  });

  it('draws a district with its boundary and outline, its name inside its largest part', () => {
    const outline: GeoJSON.MultiLineString = {
      type: 'MultiLineString',
      coordinates: [
        [
          [113.8, 22.4],
          [114.0, 22.4],
        ],
      ],
    };
    const districts = new Map([['440305', { shape: boundary, outline }]]);
    const fc = fenceFeatures([district], districts, projectionOf('offline'), 3);
    expect(fc.features).toHaveLength(1);
    expect(fc.features[0]!.properties).toEqual({ id: 3, name: 'Nanshan', type: 'district', selected: true });
    expect(districtOutlines([district, square], districts, projectionOf('offline')).features).toHaveLength(1);
    const [label] = labelPoints(fc).features;
    expect(label!.geometry.coordinates[0]).toBeCloseTo(113.9, 6);
    expect(label!.geometry.coordinates[1]).toBeCloseTo(22.5, 6);
  });
});
