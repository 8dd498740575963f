// The district lookups the fence calls and the engine use (districts.ts: the boundary dataset),
// behind one object so both reach them the same way.
export interface DistrictInfo {
  code: string;
  level: string | number;
  parent: string | null;
  name: { zh: string; tw: string; en: string };
}

export const districtSource: {
  info(code: string): DistrictInfo | null;
  /** Polygons of [lon, lat] rings (outer first, holes after), or null for an unknown code. */
  polygons(code: string): Promise<number[][][][] | null>;
} = {
  info: () => null,
  polygons: async () => null,
};
