// Asset inventory: tagged assets where they are now, and stock-takes of a location.
import { defineCall } from '../../calls.js';
import * as service from './service.js';

export const assetCalls = [
  defineCall('/Asset/List', (ctx, q) => service.list(ctx, q)),
  defineCall('/Asset/Save', (ctx, b) => service.save(ctx, b)),
  defineCall('/Asset/Delete', (ctx, b) => service.remove(ctx, b.DeviceIds)),
  defineCall('/Asset/StockTake', (ctx, b) => service.stockTake(ctx, b.LocationId)),
  defineCall('/Asset/StockTakes', (ctx, q) => service.stockTakes(ctx, q)),
  defineCall('/Asset/StockTakeExport', (ctx, q) => service.exportStockTake(ctx, q.StockTakeId)),
];
