// HTTP uplink integrations: the network servers and partner systems that POST device JSON to
// /api/ingest/<name> with their bearer token.
import { defineCall } from '../../calls.js';
import * as service from './service.js';

export const integrationCalls = [
  defineCall('/Integration/List', (ctx, q) => service.list(ctx, q)),
  defineCall('/Integration/Save', (ctx, b) => service.save(ctx, b)),
  defineCall('/Integration/RotateToken', (ctx, b) => service.rotateToken(ctx, b.IntegrationId)),
  defineCall('/Integration/Delete', (ctx, b) => service.remove(ctx, b.IntegrationIds)),
];
