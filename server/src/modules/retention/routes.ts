// Retention of positions, health readings and device events: the platform default and the
// top-level accounts' overrides.
import { defineCall } from '../../calls.js';
import { info, save } from './service.js';

export const retentionCalls = [defineCall('/Retention/Info', (ctx, body) => info(ctx, body)), defineCall('/Retention/Save', (ctx, body) => save(ctx, body))];
