// Indoor positioning: a pure library (no database, no I/O) turning BLE scans, gateway observations,
// UWB coordinates and AOA bearings into fixes on floor plans, plus the radio-model calibration and
// the plan/earth conversions the console and the engine share.
export * from './types.js';
export { IndoorEngine, DEFAULT_ENGINE_OPTIONS, uwbAccuracy, type EngineOptions, type EngineOptionsInput, type PositionFilterOptions } from './engine.js';
export { anchorKey, normalizeAnchorKey, normalizeMac, normalizeUuid, type AnchorIdentity } from './keys.js';
export { distanceFromRssi, rssiAtDistance, distanceSigma, isPlausibleRssi, MIN_RSSI, MAX_RSSI, MIN_DISTANCE, MAX_DISTANCE } from './radio.js';
export { smoothRssi, varianceAt, expireSmoothed, DEFAULT_SMOOTHING, type SmoothingOptions, type SmoothedRssi } from './smoothing.js';
export { chooseNearest, type NearestCandidate } from './nearest.js';
export { trilaterate, type Range, type RangeFix, type TrilaterationOptions } from './trilateration.js';
export { intersectBearings, rangeFromElevation, type Bearing, type BearingFix, type AoaOptions } from './aoa.js';
export { chooseFloor, floorScore, newFloorState, DEFAULT_FLOOR_CHOICE, type FloorChoiceOptions, type FloorState } from './floor.js';
export {
  fitRadioModel,
  samplesFromAnchorPairs,
  samplesFromWalk,
  type CalibrationSample,
  type CalibrationOptions,
  type CalibrationResult,
  type PlacedAnchor,
} from './calibration.js';
export { planToGeo, geoToPlan, pixelsToMetres, metresToPixels, scaleFromPoints, isGeoreference, type LatLon, type PlanPoint } from './geo.js';
