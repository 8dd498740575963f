// The Command area's entries of the schema registry.
import * as command from './command.js';

export const commandSchemas = {
  '/Command/SendCommand': { request: command.sendCommandRequest, response: command.sendCommandResponse },
  '/Command/batchSendFrequencyByUser': { request: command.batchSendFrequencyRequest, response: command.batchSendFrequencyResponse },
  '/Command/CommandList': { request: command.commandListRequest, response: command.commandListResponse },
} as const;
