// Master-slave bindings: the /Bluetooth/* binding calls.
import { defineCall } from '../../calls.js';
import * as service from './service.js';

export const masterSlaveCalls = [
  defineCall('/Bluetooth/addBTMasterSlaveInfo', (ctx, b) => service.add(ctx, b)),
  defineCall('/Bluetooth/updateMasterSlaveInfo', (ctx, b) => service.update(ctx, b)),
  defineCall('/Bluetooth/updateMasterSlaveDel', (ctx, b) => service.remove(ctx, b.BindingIds)),
  defineCall('/Bluetooth/allMasterSlaveList', (ctx, q) => service.list(ctx, q)),
  defineCall('/Bluetooth/searchMasterSlaveListById', (ctx, q) => service.search(ctx, q)),
  defineCall('/Bluetooth/bindDeviceListByUserId', (ctx, q) => service.candidates(ctx, q)),
];
