// Plausible request bodies built from a call's request schema: every required field gets a valid
// sample value, so a body gets past validation and reaches the handler (or the check before it).
import type { z } from 'zod';
import { SCHEMAS, dateInput, pipeInput, schemaLeaves, schemaType, unionOptions } from '@wt/contract';
import { CLEAN_SVG, pngBase64, svgBase64 } from './images.js';

/** A plausible valid value for a leaf, so the rest of the body gets past validation. */
export function sample(leaf: z.ZodType, key: string, imei: string): unknown {
  if (leaf === (dateInput as z.ZodType)) return /end/i.test(key) ? new Date().toISOString() : '2024-01-01T00:00:00.000Z';
  const t = schemaType(leaf);
  if (t === 'pipe') return sample(pipeInput(leaf)!, key, imei);
  const candidates: unknown[] =
    t === 'string'
      ? [
          ...(/imei/i.test(key) ? [imei] : []),
          ...(/mail/i.test(key) ? ['someone@example.com'] : []),
          ...(/url/i.test(key) ? ['https://example.com/hook'] : []),
          ...(/phone/i.test(key) ? ['13800000000'] : []),
          // Days of a range (YYYY-MM-DD).
          ...(/^(from|to|day)$/i.test(key) ? ['2024-01-01'] : []),
          'Sample1234',
          'sample-name',
          imei,
          'someone@example.com',
          '08:00',
          // Amounts (decimal text).
          '12.50',
          'x',
        ]
      : t === 'number'
        ? [1, 2, 10, 60, 0, 100, 1000]
        : t === 'boolean'
          ? [true]
          : t === 'enum'
            ? [Object.values((leaf as z.ZodEnum).enum)[0]]
            : t === 'literal'
              ? [(leaf as z.ZodLiteral).value]
              : t === 'union'
                ? unionOptions(leaf).map((o) => sample(o, key, imei))
                : t === 'object' || t === 'record'
                  ? [{}]
                  : [undefined];
  return candidates.find((c) => leaf.safeParse(c).success) ?? candidates[0];
}

export function setAt(body: Record<string, unknown>, path: (string | number)[], value: unknown) {
  let node: Record<string | number, unknown> = body;
  path.forEach((k, i) => {
    if (i === path.length - 1) node[k] = value;
    else {
      if (typeof node[k] !== 'object' || node[k] === null) node[k] = typeof path[i + 1] === 'number' ? [] : {};
      node = node[k] as Record<string | number, unknown>;
    }
  });
}

/**
 * What the leaves alone cannot make valid: fields required together by a refinement (a fence's
 * shape) or lists behind a transform (watched accounts), per request schema.
 */
const CIRCLE = { Type: 'circle', Lat: 22.54, Lon: 113.93, Radius: 200 };
const WATCHED = { UserIds: [1] };
/** Indoor scenes: files checked by content, a MAC and an iBeacon code of the right forms. */
const SCENE = { MapSvg: svgBase64(CLEAN_SVG), BeaconType: 1, Method: 1 };
const FLOOR = { Plan: pngBase64(4, 3), Type: 1 };
const ANCHOR = { Mac: 'AC:23:3F:A0:00:01', Code: 'FDA50693A4E24FB1AFCFC6EB07647825', Type: 1 };
const COMPLETIONS = new Map<z.ZodType, Record<string, unknown>>(
  (
    [
      ['/Geofence/CreateGeofence', { ...WATCHED, ...CIRCLE }],
      ['/Geofence/EditGeofence', { ...WATCHED, ...CIRCLE }],
      ['/Geofence/addGeofenceMonitor', { ...WATCHED, ...CIRCLE }],
      ['/Geofence/updateGeofenceMonitorCustom', { ...WATCHED, ...CIRCLE }],
      ['/Geofence/addGeofenceMonitorXingzheng', { ...WATCHED, DistrictCode: '440305' }],
      ['/Geofence/updateMonitorGeofence', WATCHED],
      ['/Geofence/addMonitorFences', WATCHED],
      ['/Scene/addSceneInfo', SCENE],
      ['/Scene/addSceneInfoByMonitor', SCENE],
      ['/Scene/editSceneInfo', SCENE],
      ['/Scene/editSceneInfoByMonitor', SCENE],
      ['/Scene/addFoorsInfo', FLOOR],
      ['/Scene/editFoorsInfo', FLOOR],
      ['/Scene/addBeaconsInfoByMonitor', ANCHOR],
      ['/Scene/editBeaconsInfo', ANCHOR],
      ['/Scene/editBeaconsBatchInfo', { State: 1 }],
      ['/Bluetooth/addBTDeviceInfoMac', { Mac: 'AC:23:3F:A0:00:02' }],
      ['/Bluetooth/updateBeaconInfoMac', { Mac: 'AC:23:3F:A0:00:02' }],
      ['/Bluetooth/addBTMasterSlaveInfo', { Slaves: [{ Mac: 'AC:23:3F:A0:00:03' }] }],
      ['/Bluetooth/updateMasterSlaveInfo', { Slaves: [{ Mac: 'AC:23:3F:A0:00:03' }] }],
      ['/Command/sendMessageByRoles', { RoleIds: [1] }],
      ['/Message/Preview', { RoleIds: [1] }],
      ['/Command/sendIPInfoByUserId', { Host: 'example.com' }],
      ['/APPInfo/Save', { Url: 'https://example.com/app.apk', Content: { 'zh-CN': '修复', 'zh-TW': '', en: '' } }],
      ['/APPInfo/UpdateAppVersionByID', { Url: 'https://example.com/app.apk', Content: { 'zh-CN': '修复', 'zh-TW': '', en: '' } }],
    ] as const
  ).map(([path, extra]) => [SCHEMAS[path].request as z.ZodType, extra]),
);

export function baseBody(schema: z.ZodType, imei: string): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const leaf of schemaLeaves(schema)) {
    if (leaf.optional) continue;
    const v = sample(leaf.schema, String(leaf.path.at(-1) === 0 ? leaf.path.at(-2) : leaf.path.at(-1)), imei);
    if (v !== undefined) setAt(body, leaf.path, v);
  }
  return { ...body, ...structuredClone(COMPLETIONS.get(schema) ?? {}) };
}
