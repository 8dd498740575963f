// Indoor scenes (SPEC §3 Scene, Floor, Scene beacon; §5 Scene/Floor/Beacon/Uploads; §8; §9). A scene
// is a building of an owner account (at most 5 per owner): its SVG map (sanitized on the server),
// where it is on the earth, the kind of anchors it uses and how positions are computed. A floor
// holds a PNG plan with its scale (metres per pixel) and its georeference, so every indoor position
// also has WGS-84 coordinates. Anchors are placed on a floor's plan in metres: BLE beacons, UWB
// anchors and AOA locators (with the direction they face).
//
// Plan frame: metres from the plan image's top-left corner, x to the right, y down (x = px ×
// MetresPerPixel). Georeference: OriginLat/OriginLon is the WGS-84 of that corner, Rotation the
// angle in degrees, clockwise on a north-up map, of the plan's +x axis from east.
//
// Calls (the spec names them without bodies; the ByMonitor variants are the scene map page's and
// the live map's names for the same things):
// - /Scene/SceneInfoList, SceneInfoListByMonitor   scenes of the caller (paged / all, with floors).
// - /Scene/addSceneInfo, addSceneInfoByMonitor     create a scene (map required).
// - /Scene/editSceneInfo, editSceneInfoByMonitor   change a scene (map kept when not sent).
// - /Scene/DeleteSceneInfo, DelSceneInfoByMonitor  delete scenes without anchors deployed.
// - /Scene/sceneInfoByMonitor                      one scene with its floors and anchors.
// - /Scene/sceneInfoByMonitorForServer             the devices indoors in a scene now.
// - /Scene/sceneInfoByFoorId                       one floor with its scene and anchors.
// - /Scene/deviceHistoryForScene                   a device's indoor track.
// - /Scene/FoorsInfoList, addFoorsInfo, editFoorsInfo, DeleteFoorsInfo   floors.
// - /Scene/BeaconsInfoList, BeaconsInfoByMonitor   anchors (paged / all of a scene or floor).
// - /Scene/addBeaconsInfoByMonitor, editBeaconsInfo, editBeaconsBatchInfo, DeleteBeaconsInfo,
//   DelBeaconsInfoByMonitor                        anchors.
// - /Scene/ProjectMap (ours)                       the scenes of the caller's subtree on the project map,
//                                                  each with the tags seen in it lately.
// - /Scene/Calibrate (ours)                        fit RSSI@1m per anchor and the floor's exponent
//                                                  from anchors hearing each other; nothing changes.
// - /Scene/ApplyCalibration (ours)                 store a fit.
import { z } from 'zod';
import { ok, pageOf, pageRequest } from '../envelope.js';
import { STORABLE, changingOneOf, dateInput, id, int, num, optionalId, requiredText, text } from './common.js';
import { batchResultResponse } from './device.js';
import { latField, lonField } from './fence.js';
import { SentTime } from '../time.js';

/** SPEC §9: at most 5 scene maps (per owner account). */
export const MAX_SCENES = 5;
/** SPEC §5: a scene map is an SVG under 6 MB. */
export const SCENE_MAP_MAX_BYTES = 6 * 1024 * 1024;
/** A floor plan PNG: at most 10 MB, at most 8000 px a side. */
export const FLOOR_PLAN_MAX_BYTES = 10 * 1024 * 1024;
export const FLOOR_PLAN_MAX_SIDE = 8000;
/** A scene icon: PNG or SVG, at most 256 KB. */
export const SCENE_ICON_MAX_BYTES = 256 * 1024;
/** Floors of one scene, anchors of one floor. */
export const MAX_FLOORS = 100;
export const MAX_ANCHORS_PER_FLOOR = 2000;
/** SPEC §5: a beacon code has at least 14 digits. */
export const BEACON_CODE = /^[0-9A-Fa-f-]{14,64}$/;
export const MAC_ADDRESS = /^([0-9A-Fa-f]{2}[:-]?){5}[0-9A-Fa-f]{2}$/;
/** Longest indoor track asked at once, days. */
export const MAX_SCENE_HISTORY_DAYS = 7;

/** 1 Bluetooth, 2 UWB. */
export const SCENE_BEACON_TYPES = [1, 2] as const;
/** 1 triangular (trilateration), 2 nearest beacon. */
export const SCENE_METHODS = [1, 2] as const;
/** 1 office, 2 factory, 3 other. */
export const FLOOR_TYPES = [1, 2, 3] as const;
/** 1 BLE beacon, 2 UWB anchor, 3 AOA locator. */
export const ANCHOR_TYPES = [1, 2, 3] as const;
/** 1 valid, 2 invalid. */
export const ANCHOR_STATES = [1, 2] as const;
/** How an indoor position was computed. */
export const INDOOR_METHODS = ['nearest', 'trilateration', 'uwb', 'aoa'] as const;
export type IndoorMethod = (typeof INDOOR_METHODS)[number];

const numeric = (v: unknown) => (typeof v === 'string' && /^\s*-?\d+\s*$/.test(v) ? Number(v) : v);
export function choice<T extends readonly number[]>(values: T, requiredKey: string, invalidKey: string) {
  return z.preprocess(
    numeric,
    z.number({ error: (iss) => (iss.input === undefined ? requiredKey : invalidKey) }).refine((v) => values.includes(v), { error: invalidKey }),
  ) as unknown as z.ZodType<T[number], unknown>;
}

/** An uploaded file: a data: URL or plain base64 (checked by content on the server, not by name). */
const upload = (maxBytes: number, key: string) =>
  z
    .string({ error: key })
    .min(1, { error: key })
    .max(Math.ceil((maxBytes * 4) / 3) + 200, { error: 'scene.fileTooLarge' })
    .check(...STORABLE);

/** Degrees clockwise of the plan's +x axis from east. */
export const rotationField = num(-360, 360);
/** Metres per pixel of a plan: 1 mm to 10 m. */
export const scaleField = num(0.001, 10);
/** Plan coordinates, metres. */
export const planCoordinate = num(-10_000, 10_000);

const sceneFields = {
  Name: requiredText('scene.nameRequired', 64),
  Lat: latField,
  Lon: lonField,
  Address: requiredText('scene.addressRequired', 200),
  Enabled: z.boolean().default(true),
  BeaconType: choice(SCENE_BEACON_TYPES, 'scene.beaconTypeRequired', 'scene.beaconTypeInvalid'),
  Method: choice(SCENE_METHODS, 'scene.methodRequired', 'scene.methodInvalid'),
  /** PNG or SVG data; absent: no icon (on edit: unchanged), '' on edit: removed. */
  Icon: z
    .string()
    .max(Math.ceil((SCENE_ICON_MAX_BYTES * 4) / 3) + 200, { error: 'scene.fileTooLarge' })
    .check(...STORABLE)
    .optional(),
};

export const addSceneRequest = z.object({
  /** The owner (the caller by default): the scene counts towards its 5. */
  UserId: optionalId,
  ...sceneFields,
  /** SVG, under 6 MB (SPEC §5). */
  MapSvg: upload(SCENE_MAP_MAX_BYTES, 'scene.mapRequired'),
});
export const editSceneRequest = z.object({
  SceneId: id,
  ...sceneFields,
  /** Absent: the map is kept. */
  MapSvg: upload(SCENE_MAP_MAX_BYTES, 'scene.mapRequired').optional(),
});
export const deleteScenesRequest = z.object({ SceneIds: z.array(id).min(1, { error: 'validation.required' }).max(100) });

export const georeferenceSchema = z.object({
  OriginLat: z.number(),
  OriginLon: z.number(),
  Rotation: z.number(),
});

export const floorSummarySchema = z.object({
  FloorId: z.number(),
  SceneId: z.number(),
  FloorNo: z.number(),
  Name: z.string(),
  Description: z.string(),
  Type: z.number(),
  /** The plan image (PNG), or null when none was uploaded. */
  PlanUrl: z.string().nullable(),
  Width: z.number(),
  Height: z.number(),
  /** Null until the scale is set. */
  MetresPerPixel: z.number().nullable(),
  /** Null until the plan is placed on the earth. */
  Geo: georeferenceSchema.nullable(),
  /** Path-loss exponent n of the distance model on this floor. */
  Exponent: z.number(),
  AnchorCount: z.number(),
});
export type FloorSummary = z.infer<typeof floorSummarySchema>;

export const sceneSchema = z.object({
  SceneId: z.number(),
  UserId: z.number(),
  OwnerLoginName: z.string(),
  Name: z.string(),
  Lat: z.number(),
  Lon: z.number(),
  Address: z.string(),
  Enabled: z.boolean(),
  BeaconType: z.number(),
  Method: z.number(),
  MapUrl: z.string().nullable(),
  IconUrl: z.string().nullable(),
  FloorCount: z.number(),
  AnchorCount: z.number(),
  CreatedAt: z.string(),
});
export type Scene = z.infer<typeof sceneSchema>;

export const sceneListRequest = z.object({
  ...pageRequest,
  /** Whose subtree: the caller by default. */
  UserId: optionalId,
  Name: text(64).optional(),
  Enabled: z.boolean().optional(),
});
export const sceneListResponse = pageOf(sceneSchema);
export const sceneIdResponse = ok({ SceneId: z.number() });

/** The scenes a live map offers: the caller's subtree's and those of the accounts above it. */
export const monitorScenesRequest = z.object({ UserId: optionalId, EnabledOnly: z.boolean().default(true) });
export const monitorScenesResponse = ok({ Items: z.array(sceneSchema.extend({ Floors: z.array(floorSummarySchema) })) });

export const anchorSchema = z.object({
  BeaconId: z.number(),
  SceneId: z.number(),
  FloorId: z.number(),
  Name: z.string(),
  Mac: z.string(),
  Code: z.string(),
  Major: z.number(),
  Minor: z.number(),
  Type: z.number(),
  State: z.number(),
  X: z.number(),
  Y: z.number(),
  Height: z.number(),
  /** AOA: degrees clockwise on screen from the plan's +x axis. */
  Heading: z.number(),
  /** Calibrated RSSI at 1 m, dBm. */
  Rssi1m: z.number(),
  CreatedAt: z.string(),
});
export type Anchor = z.infer<typeof anchorSchema>;

/** The project map: tags seen in a scene within this many minutes are counted. */
export const PROJECT_MAP_TAG_MINUTES = 10;
export const projectMapRequest = z.object({});
export const projectMapSceneSchema = sceneSchema.extend({
  /** Devices of the caller's subtree whose latest indoor fix, within PROJECT_MAP_TAG_MINUTES, is in this scene. */
  TagCount: z.number(),
});
export type ProjectMapScene = z.infer<typeof projectMapSceneSchema>;
export const projectMapResponse = ok({ Items: z.array(projectMapSceneSchema), Minutes: z.number() });

export const sceneDetailRequest = z.object({ SceneId: id });
export const sceneDetailResponse = ok({
  Item: sceneSchema.extend({ Floors: z.array(floorSummarySchema), Anchors: z.array(anchorSchema) }),
});
export const floorDetailRequest = z.object({ FloorId: id });
export const floorDetailResponse = ok({
  Item: floorSummarySchema.extend({ Scene: sceneSchema, Anchors: z.array(anchorSchema) }),
});

export const indoorDeviceSchema = z.object({
  DeviceId: z.number(),
  Imei: z.string(),
  Name: z.string(),
  FloorId: z.number(),
  X: z.number(),
  Y: z.number(),
  Accuracy: z.number().nullable(),
  Method: z.string(),
  Lat: z.number().nullable(),
  Lon: z.number().nullable(),
  Time: z.string(),
  Online: z.boolean(),
  Battery: z.number().nullable(),
  /** An SOS of this device not yet confirmed. */
  Sos: z.boolean(),
});
export type IndoorDevice = z.infer<typeof indoorDeviceSchema>;
export const sceneLiveRequest = z.object({
  SceneId: id,
  FloorId: optionalId,
  /** Positions older than this many minutes are left out (default one day). */
  Minutes: int(1, 60 * 24 * 31).default(60 * 24),
});
export const sceneLiveResponse = ok({ Items: z.array(indoorDeviceSchema) });

/** EndTime − StartTime (both sent in one zone), or null while either is not a time (its own error is reported). */
const spanMs = (v: { StartTime?: unknown; EndTime?: unknown }) =>
  v.StartTime instanceof SentTime && v.EndTime instanceof SentTime ? v.EndTime.approxMs() - v.StartTime.approxMs() : null;

export const sceneHistoryRequest = z
  .object({
    DeviceId: optionalId,
    Imei: text(32).optional(),
    SceneId: optionalId,
    StartTime: dateInput,
    EndTime: dateInput,
  })
  .refine((v) => v.DeviceId !== undefined || (v.Imei ?? '') !== '', { error: 'validation.required', path: ['DeviceId'] })
  .refine((v) => spanMs(v) === null || spanMs(v)! > 0, { error: 'scene.historyRange', path: ['EndTime'] })
  .refine((v) => spanMs(v) === null || spanMs(v)! <= MAX_SCENE_HISTORY_DAYS * 86_400_000, {
    error: 'scene.historyTooLong',
    path: ['EndTime'],
    params: { days: MAX_SCENE_HISTORY_DAYS },
  });
export const indoorPointSchema = z.object({
  Time: z.string(),
  SceneId: z.number(),
  FloorId: z.number(),
  X: z.number(),
  Y: z.number(),
  Accuracy: z.number().nullable(),
  Method: z.string(),
});
export const sceneHistoryResponse = ok({ DeviceId: z.number(), Items: z.array(indoorPointSchema) });

const floorFields = {
  /** The floor's number as people say it (1, 2, -1 for a basement); unique in its scene. */
  FloorNo: int(-20, 300, 'scene.floorNoRequired'),
  Name: requiredText('scene.floorNameRequired', 64),
  Description: requiredText('scene.descriptionRequired', 500),
  Type: choice(FLOOR_TYPES, 'scene.floorTypeRequired', 'scene.floorTypeInvalid'),
  MetresPerPixel: scaleField.nullable().optional(),
  Geo: z.object({ OriginLat: latField, OriginLon: lonField, Rotation: rotationField }).nullable().optional(),
  Exponent: num(1, 6).optional(),
};
export const addFloorRequest = z.object({
  SceneId: id,
  ...floorFields,
  /** PNG (SPEC §5: 1000×800 recommended; other sizes accepted). */
  Plan: upload(FLOOR_PLAN_MAX_BYTES, 'scene.planRequired'),
});
export const editFloorRequest = z.object({
  FloorId: id,
  ...floorFields,
  /** Absent: the plan is kept. */
  Plan: upload(FLOOR_PLAN_MAX_BYTES, 'scene.planRequired').optional(),
});
export const deleteFloorsRequest = z.object({ FloorIds: z.array(id).min(1, { error: 'validation.required' }).max(MAX_FLOORS) });
export const floorListRequest = z.object({ ...pageRequest, SceneId: id });
export const floorListResponse = pageOf(floorSummarySchema);
export const floorIdResponse = ok({ FloorId: z.number() });

const anchorFields = {
  Name: requiredText('scene.beaconNameRequired', 64),
  Mac: z.string({ error: 'scene.macRequired' }).trim().regex(MAC_ADDRESS, { error: 'scene.macInvalid' }),
  /** SPEC §5: at least 14 digits. */
  Code: z.string({ error: 'scene.codeRequired' }).trim().regex(BEACON_CODE, { error: 'scene.codeInvalid' }),
  Major: int(0, 65535, 'scene.majorRequired'),
  Minor: int(0, 65535, 'scene.minorRequired'),
  Type: choice(ANCHOR_TYPES, 'scene.anchorTypeRequired', 'scene.anchorTypeInvalid'),
  State: choice(ANCHOR_STATES, 'validation.required', 'scene.stateInvalid').default(1),
  X: planCoordinate,
  Y: planCoordinate,
  Height: num(-50, 200).default(2.5),
  Heading: num(-360, 360).default(0),
  Rssi1m: num(-120, 0).default(-59),
};
export const addAnchorRequest = z.object({ FloorId: id, ...anchorFields });
export const editAnchorRequest = z.object({ BeaconId: id, FloorId: optionalId, ...anchorFields });
/** The fields given are set on every anchor named; the others are kept. */
export const editAnchorsBatchRequest = changingOneOf(
  z.object({
    BeaconIds: z.array(id).min(1, { error: 'validation.required' }).max(MAX_ANCHORS_PER_FLOOR),
    State: choice(ANCHOR_STATES, 'validation.required', 'scene.stateInvalid').optional(),
    Type: choice(ANCHOR_TYPES, 'scene.anchorTypeRequired', 'scene.anchorTypeInvalid').optional(),
    Height: num(-50, 200).optional(),
    Rssi1m: num(-120, 0).optional(),
    Major: int(0, 65535).optional(),
  }),
  ['State', 'Type', 'Height', 'Rssi1m', 'Major'],
  'scene.batchNothing',
);
export const deleteAnchorsRequest = z.object({ BeaconIds: z.array(id).min(1, { error: 'validation.required' }).max(MAX_ANCHORS_PER_FLOOR) });
export const anchorListRequest = z.object({
  ...pageRequest,
  SceneId: optionalId,
  FloorId: optionalId,
  Type: choice(ANCHOR_TYPES, 'scene.anchorTypeRequired', 'scene.anchorTypeInvalid').optional(),
  /** Name, MAC or code contains. */
  Keyword: text(64).optional(),
});
export const anchorListResponse = pageOf(anchorSchema);
export const monitorAnchorsRequest = z.object({ SceneId: id, FloorId: optionalId });
export const monitorAnchorsResponse = ok({ Items: z.array(anchorSchema) });
export const anchorIdResponse = ok({ BeaconId: z.number() });

export const calibrateRequest = z.object({
  FloorId: id,
  /** Observations of the last this many minutes are used. */
  Minutes: int(1, 24 * 60).default(30),
});
export const calibrationSchema = z.object({
  FloorId: z.number(),
  Exponent: z.number(),
  Anchors: z.array(z.object({ BeaconId: z.number(), Name: z.string(), Rssi1m: z.number(), Before: z.number(), Pairs: z.number() })),
  /** Pairs of anchors used, and the fit's RMS error in dB and in metres. */
  Pairs: z.number(),
  RmsDb: z.number(),
  RmsMetres: z.number(),
  /** The same errors with the values stored now, to compare. */
  BeforeRmsDb: z.number(),
  BeforeRmsMetres: z.number(),
});
export type Calibration = z.infer<typeof calibrationSchema>;
export const calibrateResponse = ok({ Item: calibrationSchema });
export const applyCalibrationRequest = z.object({
  FloorId: id,
  Exponent: num(1, 6),
  Anchors: z.array(z.object({ BeaconId: id, Rssi1m: num(-120, 0) })).max(MAX_ANCHORS_PER_FLOOR),
});

export const sceneSchemas = {
  '/Scene/SceneInfoList': { request: sceneListRequest, response: sceneListResponse },
  '/Scene/SceneInfoListByMonitor': { request: monitorScenesRequest, response: monitorScenesResponse },
  '/Scene/addSceneInfo': { request: addSceneRequest, response: sceneIdResponse },
  '/Scene/addSceneInfoByMonitor': { request: addSceneRequest, response: sceneIdResponse },
  '/Scene/editSceneInfo': { request: editSceneRequest, response: sceneIdResponse },
  '/Scene/editSceneInfoByMonitor': { request: editSceneRequest, response: sceneIdResponse },
  /** Failures name the scene id (in the batch result's Imei field). */
  '/Scene/DeleteSceneInfo': { request: deleteScenesRequest, response: batchResultResponse },
  '/Scene/DelSceneInfoByMonitor': { request: deleteScenesRequest, response: batchResultResponse },
  '/Scene/sceneInfoByMonitor': { request: sceneDetailRequest, response: sceneDetailResponse },
  '/Scene/sceneInfoByMonitorForServer': { request: sceneLiveRequest, response: sceneLiveResponse },
  '/Scene/sceneInfoByFoorId': { request: floorDetailRequest, response: floorDetailResponse },
  '/Scene/deviceHistoryForScene': { request: sceneHistoryRequest, response: sceneHistoryResponse },
  '/Scene/FoorsInfoList': { request: floorListRequest, response: floorListResponse },
  '/Scene/addFoorsInfo': { request: addFloorRequest, response: floorIdResponse },
  '/Scene/editFoorsInfo': { request: editFloorRequest, response: floorIdResponse },
  '/Scene/DeleteFoorsInfo': { request: deleteFloorsRequest, response: batchResultResponse },
  '/Scene/BeaconsInfoList': { request: anchorListRequest, response: anchorListResponse },
  '/Scene/BeaconsInfoByMonitor': { request: monitorAnchorsRequest, response: monitorAnchorsResponse },
  '/Scene/addBeaconsInfoByMonitor': { request: addAnchorRequest, response: anchorIdResponse },
  '/Scene/editBeaconsInfo': { request: editAnchorRequest, response: anchorIdResponse },
  '/Scene/editBeaconsBatchInfo': { request: editAnchorsBatchRequest, response: batchResultResponse },
  '/Scene/DeleteBeaconsInfo': { request: deleteAnchorsRequest, response: batchResultResponse },
  '/Scene/DelBeaconsInfoByMonitor': { request: deleteAnchorsRequest, response: batchResultResponse },
  '/Scene/ProjectMap': { request: projectMapRequest, response: projectMapResponse },
  '/Scene/Calibrate': { request: calibrateRequest, response: calibrateResponse },
  '/Scene/ApplyCalibration': { request: applyCalibrationRequest, response: ok({}) },
};

/** Published (cluster-wide) when scenes, floors or anchors change, so every positioning engine reloads them. */
export const SCENES_CHANGED_TOPIC = 'scenes.changed';
