// Messages between the monitor map and its cluster worker.
export type BBox = [west: number, south: number, east: number, north: number];

export type ClusterRequest =
  | { kind: 'load'; seq: number; lon: Float64Array; lat: Float64Array; query?: { bbox: BBox; zoom: number } }
  | { kind: 'query'; seq: number; query: { bbox: BBox; zoom: number } }
  | { kind: 'expand'; seq: number; id: number };

export type ClusterResponse =
  | {
      kind: 'clusters';
      seq: number;
      zoom: number;
      bbox: BBox;
      /** lon, lat, count, cluster id per cluster. */
      clusters: Float64Array;
      /** Slots of the devices drawn singly. */
      singles: Uint32Array;
    }
  | { kind: 'expand'; seq: number; zoom: number };
