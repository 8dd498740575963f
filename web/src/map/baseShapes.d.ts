// URLs of the offline base map's shapes as GeoJSON, converted at build time (web/vite.config.ts):
// world-atlas 50m, and 110m (suffix 110) for the first paint.
declare module 'virtual:base-shapes' {
  export const land: string;
  export const borders: string;
  export const coast: string;
  export const land110: string;
  export const borders110: string;
  export const coast110: string;
}
