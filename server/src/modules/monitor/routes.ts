// The Monitor area's calls: the map's device lists, the device card (address, live track) and the
// dashboard figures.
import { defineCall } from '../../calls.js';
import { reverseGeocode } from './geocoder.js';
import { mapSettings } from './map-settings.js';
import * as service from './service.js';

export const monitorCalls = [
  defineCall('/Device/monitorDevices', (ctx, b) => service.monitorDevices(ctx, { UserId: b.UserId, search: b.Search, status: b.Status })),
  defineCall('/device/devicesByUserIdPageColor', (ctx, b) =>
    service.pageColor(ctx, { UserId: b.UserId, search: b.Search, status: b.Status, PageNo: b.PageNo, PageCount: b.PageCount }),
  ),
  defineCall('/device/devicesByUserIdPageColorBigData', (ctx, b) => service.bigData(ctx, b)),
  defineCall('/device/reverse_Geocoding_gaode', async (ctx, b) => ({ State: 200 as const, ...(await reverseGeocode(ctx.deps, b.Lat, b.Lon, b.Language ?? ctx.locale)) })),
  defineCall('/Map/Settings', async (ctx) => mapSettings(ctx.deps.config)),
  defineCall('/device/deviceTracking', (ctx, b) => service.deviceTracking(ctx, b)),
  defineCall('/User/allAdminCount', (ctx, b) => service.adminCount(ctx, b)),
  defineCall('/User/adminPageAnalysis', (ctx, b) => service.pageAnalysis(ctx, b)),
];
