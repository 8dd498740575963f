// URLs of the offline base map's data as GeoJSON, converted at build time (web/scripts/map-assets.ts):
// world-atlas 50m, and 110m (suffix 110) for the first paint; China's province, prefecture and
// district borders; and the labels of countries and Chinese places.
declare module 'virtual:base-shapes' {
  export const land: string;
  export const borders: string;
  export const coast: string;
  export const land110: string;
  export const borders110: string;
  export const coast110: string;
  export const cnProvinceLines: string;
  export const cnCityLines: string;
  export const cnDistrictLines: string;
  export const labels: string;
  export const cnLand: string;
  export const cnDistricts: string;
}
