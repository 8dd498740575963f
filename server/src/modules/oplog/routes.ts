// The operation log's calls: the search as a page, and as a spreadsheet.
import { defineCall } from '../../calls.js';
import * as service from './service.js';

export const oplogCalls = [
  defineCall('/OperationLog/List', (ctx, body) => service.list(ctx, body)),
  defineCall('/OperationLog/Export', (ctx, body) => service.exportSheet(ctx, body)),
];
