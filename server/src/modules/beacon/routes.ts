// The beacon registry: the /Bluetooth/* registry calls of both identity models, placement on a
// floor plan, and the Excel import and export.
import { defineCall } from '../../calls.js';
import * as excel from './excel.js';
import * as service from './service.js';

const { UUID_MODEL, MAC_MODEL } = service.MODELS;

export const beaconCalls = [
  defineCall('/Bluetooth/addBTDeviceInfo', (ctx, b) => service.add(ctx, UUID_MODEL, b)),
  defineCall('/Bluetooth/updateBeaconInfo', (ctx, b) => service.update(ctx, UUID_MODEL, b)),
  defineCall('/Bluetooth/removeBT', (ctx, b) => service.remove(ctx, b.BeaconIds, UUID_MODEL)),
  defineCall('/Bluetooth/addBTDeviceInfoMac', (ctx, b) => service.add(ctx, MAC_MODEL, b)),
  defineCall('/Bluetooth/updateBeaconInfoMac', (ctx, b) => service.update(ctx, MAC_MODEL, b)),
  defineCall('/Bluetooth/removeBTMac', (ctx, b) => service.remove(ctx, b.BeaconIds, MAC_MODEL)),
  defineCall('/Bluetooth/btDeviceListByUserId', (ctx, q) => service.list(ctx, q, UUID_MODEL)),
  defineCall('/Bluetooth/btMacDevicesByUserId', (ctx, q) => service.list(ctx, q, MAC_MODEL)),
  defineCall('/Bluetooth/allBTDeviceInfo', (ctx, q) => service.list(ctx, q)),
  defineCall('/Bluetooth/searchBTByIdentifier', (ctx, q) => service.search(ctx, q.Identifier)),
  defineCall('/Bluetooth/updateBTBindStatus', (ctx, b) => service.setState(ctx, b.BeaconIds, b.State)),
  defineCall('/Bluetooth/batchDelBTBindStatus', (ctx, b) => service.remove(ctx, b.BeaconIds)),
  defineCall('/Bluetooth/removeInnerBT', (ctx, b) => service.unplace(ctx, b.BeaconIds)),
  defineCall('/Beacon/Place', (ctx, b) => service.place(ctx, b)),
  defineCall('/Beacon/Import', (ctx, b) => excel.importBeacons(ctx, b)),
  defineCall('/Beacon/Export', (ctx, q) => excel.exportBeacons(ctx, q)),
  defineCall('/Beacon/ImportTemplate', (ctx) => excel.importTemplate(ctx.locale)),
];
