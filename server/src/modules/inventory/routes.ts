// Inventory calls (administrators only, SPEC §6): dictionaries, stock-in batches, stock items, sales.
import { defineCall } from '../../calls.js';
import { dictionaryCalls as d, listModels, listOwners, listStores, listVersions } from './dictionaries.js';
import { deleteBatch, deleteItem, insertBatch, insertItem, listBatches, listItems, updateBatch, updateItem } from './stock.js';
import { insertSale, listSales, updateSale, voidSale } from './sales.js';

export const inventoryCalls = [
  defineCall('/Inventory/OwnerList', listOwners),
  defineCall('/Inventory/OwnerInsert', d.ownerInsert),
  defineCall('/Inventory/OwnerUpdate', d.ownerUpdate),
  defineCall('/Inventory/OwnerDelById', (ctx, b) => d.ownerDelete(ctx, b.Id)),
  defineCall('/Inventory/VersionList', listVersions),
  defineCall('/Inventory/VersionInsert', d.versionInsert),
  defineCall('/Inventory/VersionUpdate', d.versionUpdate),
  defineCall('/Inventory/VersionDelById', (ctx, b) => d.versionDelete(ctx, b.Id)),
  defineCall('/Inventory/ModelList', listModels),
  defineCall('/Inventory/ModelInsert', d.modelInsert),
  defineCall('/Inventory/ModelUpdate', d.modelUpdate),
  defineCall('/Inventory/ModelDelById', (ctx, b) => d.modelDelete(ctx, b.Id)),
  defineCall('/Inventory/StoreList', listStores),
  defineCall('/Inventory/StoreInsert', d.storeInsert),
  defineCall('/Inventory/StoreUpdate', d.storeUpdate),
  defineCall('/Inventory/StoreDelById', (ctx, b) => d.storeDelete(ctx, b.Id)),
  defineCall('/Inventory/InventoryBatchList', listBatches),
  defineCall('/Inventory/BatchInsert', insertBatch),
  defineCall('/Inventory/UpdateInfo', updateBatch),
  defineCall('/Inventory/DelById', (ctx, b) => deleteBatch(ctx, b.Id)),
  defineCall('/Inventory/DevicesList', listItems),
  defineCall('/Inventory/DevicesInsert', insertItem),
  defineCall('/Inventory/DevicesUpdate', updateItem),
  defineCall('/Inventory/DevicesDelById', (ctx, b) => deleteItem(ctx, b.Id)),
  defineCall('/Inventory/SalesList', listSales),
  defineCall('/Inventory/SalesInsert', insertSale),
  defineCall('/Inventory/SalesUpdate', updateSale),
  defineCall('/Inventory/SalesDelById', (ctx, b) => voidSale(ctx, b.Id)),
];
