// Schemas of the live-monitoring calls: the map's device lists, address lookup, live track,
// location history and its export, and the dashboard figures.
import { z } from 'zod';
import { ok, pageRequest } from '../envelope.js';
import { dateInput, int, languageTag, num, optionalId, text } from './common.js';

export const deviceStatusFilter = z.enum(['all', 'online', 'offline', 'sos']).default('all');

export const monitorDevice = z.object({
  DeviceId: z.number(),
  Imei: z.string(),
  Nickname: z.string(),
  AccountId: z.number(),
  Model: z.string(),
  Lat: z.number().nullable(),
  Lon: z.number().nullable(),
  Speed: z.number().nullable(),
  Course: z.number().nullable(),
  FixTime: z.string().nullable(),
  LastSeen: z.string().nullable(),
  Online: z.boolean(),
  /** An SOS alarm in the last 30 minutes. */
  Sos: z.boolean(),
  Battery: z.number().nullable(),
  Signal: z.number().nullable(),
  Steps: z.number().nullable(),
  /** 'long' or 'short' connection. */
  Mode: z.string().nullable(),
  role_color: z.string().nullable(),
  role_shape: z.string().nullable(),
});
export type MonitorDevice = z.infer<typeof monitorDevice>;

export const monitorDevicesRequest = z.object({
  UserId: optionalId,
  Search: text(64).optional(),
  Status: deviceStatusFilter,
});
export const statusCounts = z.object({ All: z.number(), Online: z.number(), Offline: z.number(), Sos: z.number() });
export const monitorDevicesResponse = ok({ Total: z.number(), Items: z.array(monitorDevice), Counts: statusCounts });

export const pageColorRequest = monitorDevicesRequest.extend(pageRequest);
export const pageColorResponse = monitorDevicesResponse;

/** Column order of the compact form. */
export const BIG_DATA_FIELDS = ['DeviceId', 'Imei', 'Nickname', 'Lat', 'Lon', 'Status', 'LastSeen', 'role_color', 'role_shape'] as const;
/** Status codes of the compact form. */
export const BIG_DATA_STATUS = { offline: 0, online: 1, sos: 2 } as const;
export const bigDataRequest = z.object({ UserId: optionalId });
export const bigDataResponse = ok({
  Total: z.number(),
  Fields: z.array(z.string()),
  /** One array per device in Fields order; LastSeen is epoch seconds. */
  Rows: z.array(z.array(z.union([z.string(), z.number(), z.null()]))),
});

export const personSummary = z.object({
  Name: z.string(),
  Gender: z.string(),
  Age: z.number().nullable(),
  Phone: z.string(),
  Address: z.string(),
});
export const deviceCardRequest = z.object({ DeviceId: optionalId, Imei: text(15).optional() });

export const reverseGeocodeRequest = z.object({
  Lat: num(-90, 90),
  Lon: num(-180, 180),
  Language: languageTag,
});
export const reverseGeocodeResponse = ok({
  Address: z.string(),
  /** Where the address came from: offline (the shipped boundaries), cache, amap, nominatim, or coordinates when nothing names the place. */
  Source: z.string(),
});

export const trackPoint = z.object({
  Lat: z.number(),
  Lon: z.number(),
  Time: z.string(),
  Speed: z.number().nullable(),
  Course: z.number().nullable(),
});
export type TrackPoint = z.infer<typeof trackPoint>;

export const deviceTrackingRequest = z.object({
  DeviceId: optionalId,
  Imei: text(15).optional(),
  /** Trail length in minutes. */
  Minutes: int(1, 24 * 60).default(60),
});
export const deviceTrackingResponse = ok({
  Device: monitorDevice,
  Person: personSummary.nullable(),
  Health: z
    .object({
      HeartRate: z.number().nullable(),
      Systolic: z.number().nullable(),
      Diastolic: z.number().nullable(),
      BodyTemp: z.number().nullable(),
      BloodOxygen: z.number().nullable(),
      Time: z.string().nullable(),
    })
    .nullable(),
  Trail: z.array(trackPoint),
  /** The newest point's fix: FIX_METHODS, and its accuracy in metres when known. */
  Fix: z.object({ Method: z.string(), Accuracy: z.number().nullable() }).nullable(),
});
/** How a position was fixed: satellites, cell towers/Wi-Fi, an indoor method, or at a registered beacon heard. */
export const FIX_METHODS = ['gnss', 'lbs', 'nearest', 'trilateration', 'uwb', 'aoa', 'beacon'] as const;

export const historyRequest = z.object({
  DeviceId: optionalId,
  Imei: text(15).optional(),
  Start: dateInput,
  End: dateInput,
  /** Most points answered; longer paths are simplified. */
  MaxPoints: int(10, 20_000).default(2000),
  /** A stop is a dwell of at least StopMinutes within StopRadius metres. */
  StopMinutes: num(1, 24 * 60).default(5),
  StopRadius: num(5, 5000).default(50),
});
export const stopSchema = z.object({
  Lat: z.number(),
  Lon: z.number(),
  Start: z.string(),
  End: z.string(),
  Minutes: z.number(),
});
export const historyResponse = ok({
  Device: z.object({ DeviceId: z.number(), Imei: z.string(), Nickname: z.string() }),
  /** Points stored in the range. */
  Total: z.number(),
  /** True when every stored point is answered, false when the path was simplified. */
  Exact: z.boolean(),
  Points: z.array(trackPoint),
  Stops: z.array(stopSchema),
  /** Length of the full path in metres. */
  Distance: z.number(),
});

export const exportHistoryRequest = z.object({
  /** Devices to export; one for a single device's track. */
  Imeis: z.array(text(15)).min(1, { error: 'validation.imeiRequired' }).max(5000),
  Start: dateInput,
  End: dateInput,
  Language: languageTag,
});
export const exportHistoryResponse = ok({
  FileName: z.string(),
  /** The xlsx workbook, base64. */
  Data: z.string(),
  Rows: z.number(),
  /** Exports of this date selection left in the 24 hours. */
  Remaining: z.number(),
});

export const adminCountRequest = z.object({ UserId: optionalId });
export const adminCountResponse = ok({
  Total: z.number(),
  Online: z.number(),
  Offline: z.number(),
  Sos: z.number(),
  Accounts: z.number(),
  AlarmsToday: z.number(),
});

export const analysisRequest = z.object({ UserId: optionalId, Days: int(1, 90).default(7) });
export const analysisResponse = ok({
  AlarmsByType: z.array(z.object({ Type: z.string(), Count: z.number() })),
  Health: z.object({
    Readings: z.number(),
    HeartRate: z.number().nullable(),
    Systolic: z.number().nullable(),
    Diastolic: z.number().nullable(),
    BodyTemp: z.number().nullable(),
    BloodOxygen: z.number().nullable(),
    Abnormal: z.number(),
  }),
  Activity: z.array(z.object({ Day: z.string(), Positions: z.number(), ActiveDevices: z.number(), Alarms: z.number() })),
  /** Device locations binned on a 0.5° grid: [lon, lat, count]. */
  Locations: z.array(z.tuple([z.number(), z.number(), z.number()])),
});

export const mapSettingsRequest = z.object({});
const tileLayer = z.object({
  /** Tile URL templates ({z}/{x}/{y}), one per host. */
  Tiles: z.array(z.string()),
  /** Tiles drawn over them (the place names of a source that serves them apart), or none. */
  Labels: z.array(z.string()),
});
export const mapSource = z.object({
  Id: z.enum(['offline', 'osm', 'amap', 'tianditu']),
  /** The tiles are drawn in GCJ-02 (AMap): positions are shifted to match. */
  Gcj02: z.boolean(),
  Attribution: z.string(),
  Normal: tileLayer.nullable(),
  Satellite: tileLayer.nullable(),
});
/** The map sources this platform offers (MAP_SOURCES, MAP_TILE_*), and the one a browser starts with. */
export const mapSettingsResponse = ok({ Default: mapSource.shape.Id, Sources: z.array(mapSource) });

export const monitorSchemas = {
  '/Map/Settings': { request: mapSettingsRequest, response: mapSettingsResponse },
  '/Device/monitorDevices': { request: monitorDevicesRequest, response: monitorDevicesResponse },
  '/device/devicesByUserIdPageColor': { request: pageColorRequest, response: pageColorResponse },
  '/device/devicesByUserIdPageColorBigData': { request: bigDataRequest, response: bigDataResponse },
  '/device/reverse_Geocoding_gaode': { request: reverseGeocodeRequest, response: reverseGeocodeResponse },
  '/device/deviceTracking': { request: deviceTrackingRequest, response: deviceTrackingResponse },
  '/device/devicesHistory': { request: historyRequest, response: historyResponse },
  '/device/BatchExportHistoryDataByUserId': { request: exportHistoryRequest, response: exportHistoryResponse },
  '/User/allAdminCount': { request: adminCountRequest, response: adminCountResponse },
  '/User/adminPageAnalysis': { request: analysisRequest, response: analysisResponse },
};
