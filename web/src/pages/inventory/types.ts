// Row types of the inventory pages, from the contract's schemas.
import { inventory } from '@wt/contract';
import type { z } from 'zod';

export { inventory };
export type InventoryItemRow = z.infer<typeof inventory.itemSchema>;
export type InventoryBatchRow = z.infer<typeof inventory.batchSchema>;
export type InventorySaleRow = z.infer<typeof inventory.saleSchema>;
