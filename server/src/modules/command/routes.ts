// The Command area's calls implemented here: one command, the batch upload interval, the history.
import { defineCall } from '../../calls.js';
import * as service from './service.js';

export const commandCalls = [
  defineCall('/Command/SendCommand', (ctx, body) => service.sendCommand(ctx, body)),
  defineCall('/Command/batchSendFrequencyByUser', (ctx, body) => service.batchSendFrequency(ctx, body)),
  defineCall('/Command/CommandList', (ctx, body) => service.commandList(ctx, body)),
];
