// Indoor simulation: the demo care home (plans, anchors, locators, walk graph), people walking in
// it with ground truth, and the radio readings BLE, UWB and AOA hardware would report.
export { CARE_HOME, buildCareHome, roomAt, UWB_WING, type Building, type BuildingAnchor, type BuildingFloor, type BuildingLocator, type Rect, type Room, type WalkEdge, type WalkNode } from './building.js';
export { Walker, WalkGraph, type WalkTruth, type WalkerOptions } from './walk.js';
export { bleScan, anchorPairReadings, meanRssi, uwbFix, aoaReadings, type RadioOptions, type SimHeard, type SimUwb, type SimAoa, type AoaOptions as SimAoaOptions } from './radio.js';
export { renderFloorPlan, type PlanImage } from './plan.js';
