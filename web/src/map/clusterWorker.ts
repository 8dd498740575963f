// Clusters of the monitor map, off the page's main thread: supercluster indexes the device
// positions it is sent (typed arrays, one slot per device) and answers what a view shows at a
// zoom: clusters (centre, count, id) and the slots drawn singly.
import Supercluster, { type AnyProps, type ClusterProperties, type PointFeature } from 'supercluster';
import type { ClusterRequest, ClusterResponse } from './clusterProtocol';

let index: Supercluster<{ i: number }, AnyProps> | null = null;

function load(lon: Float64Array, lat: Float64Array): void {
  const features: PointFeature<{ i: number }>[] = [];
  for (let i = 0; i < lon.length; i++) {
    const x = lon[i]!;
    if (Number.isNaN(x)) continue;
    features.push({ type: 'Feature', properties: { i }, geometry: { type: 'Point', coordinates: [x, lat[i]!] } });
  }
  // As MapLibre's own clustering: 50 px at 512 px tiles, single devices above zoom 9; the map
  // never goes below zoom 2 (MIN_ZOOM).
  index = new Supercluster<{ i: number }>({ radius: 50, extent: 512, minZoom: 2, maxZoom: 9 }).load(features);
}

self.onmessage = (e: MessageEvent<ClusterRequest>) => {
  const m = e.data;
  if (m.kind === 'load') {
    load(m.lon, m.lat);
  }
  if (m.kind === 'expand') {
    const zoom = index ? index.getClusterExpansionZoom(m.id) : 0;
    (self as unknown as Worker).postMessage({ kind: 'expand', seq: m.seq, zoom } satisfies ClusterResponse);
    return;
  }
  if (!m.query || !index) return;
  const { bbox, zoom } = m.query;
  const found = index.getClusters(bbox, zoom);
  let nc = 0;
  for (const f of found) if ((f.properties as ClusterProperties).cluster) nc++;
  const clusters = new Float64Array(nc * 4);
  const singles = new Uint32Array(found.length - nc);
  let c = 0;
  let s = 0;
  for (const f of found) {
    const p = f.properties as ClusterProperties & { i?: number };
    if (p.cluster) {
      clusters[c++] = f.geometry.coordinates[0]!;
      clusters[c++] = f.geometry.coordinates[1]!;
      clusters[c++] = p.point_count;
      clusters[c++] = p.cluster_id;
    } else singles[s++] = p.i!;
  }
  const out: ClusterResponse = { kind: 'clusters', seq: m.seq, zoom, bbox, clusters, singles };
  (self as unknown as Worker).postMessage(out, [clusters.buffer, singles.buffer]);
};
