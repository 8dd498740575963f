// Locations: the /Bluetooth/* location calls, deletion and the live detail.
import { defineCall } from '../../calls.js';
import * as service from './service.js';

export const locationCalls = [
  defineCall('/Bluetooth/AddBeaconLocationInfo', (ctx, b) => service.add(ctx, b)),
  defineCall('/Bluetooth/updateBeaconLocationInfo', (ctx, b) => service.update(ctx, b)),
  defineCall('/Bluetooth/allBeaconLocationList', (ctx, q) => service.list(ctx, q)),
  defineCall('/Bluetooth/updateBeaconLocationStatus', (ctx, b) => service.setStatus(ctx, b.LocationIds, b.Status)),
  defineCall('/BeaconLocation/Delete', (ctx, b) => service.remove(ctx, b.LocationIds)),
  defineCall('/BeaconLocation/Detail', (ctx, q) => service.detail(ctx, q.LocationId)),
];
