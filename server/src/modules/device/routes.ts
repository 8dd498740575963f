// The Devices area's calls, and the GET routes of its files (import template, wearer avatars).
import { createReadStream, existsSync } from 'node:fs';
import path from 'node:path';
import type { FastifyPluginAsync } from 'fastify';
import { defineCall } from '../../calls.js';
import type { AppDeps } from '../../deps.js';
import * as service from './service.js';
import { closeSheetReader, importExcel, importTemplate } from './excel.js';
import { requestLocale } from '../../plugins/calls.js';
import { AVATAR_DIR, AVATAR_NAME, avatarMime } from '../person/avatar.js';

export const deviceCalls = [
  defineCall('/Device/devicesByUserId', (ctx, body) => service.list(ctx, body)),
  defineCall('/Device/DeviceDetail', (ctx, body) => service.detail(ctx, body)),
  defineCall('/Device/EditDevice', (ctx, body) => service.edit(ctx, body)),
  defineCall('/Device/addDevices', (ctx, body) => service.add(ctx, body)),
  defineCall('/Device/batchDevices', (ctx, body) => service.batchAdd(ctx, body)),
  defineCall('/Device/bindDeviceListAdd', (ctx, body) => service.bind(ctx, body)),
  defineCall('/Device/unbindById', (ctx, body) => service.unbindOne(ctx, body)),
  defineCall('/Device/unBandByImeis', (ctx, body) => service.unbindMany(ctx, body)),
  defineCall('/Device/BatchDeleteByDeviceId', (ctx, body) => service.deleteByIds(ctx, body)),
  defineCall('/Device/BatchDelDevices', (ctx, body) => service.deleteByImeis(ctx, body)),
  defineCall('/Device/batchMoveDeviceToAccount', (ctx, body) => service.move(ctx, body)),
  defineCall('/Device/batchDevicesCreateUser', (ctx, body) => service.createUserWithDevices(ctx, body)),
  defineCall('/Device/batchDevicesCreateUserByExcel', (ctx, body) => importExcel(ctx, body)),
  defineCall('/Device/allDictionary', (ctx, body) => service.dictionary(ctx, body)),
];

/**
 * GET /api/device/import-template.xlsx: the sheet the import reads (open: it holds no tenant data
 * beyond the catalogue's model names, and a browser download carries no bearer token).
 * GET /api/uploads/avatars/<name>: wearer avatars; names are random, unguessable file names.
 */
export const deviceFileRoutes: FastifyPluginAsync<{ deps: AppDeps }> = async (app, { deps }) => {
  // The import's workbook reader thread ends with the app.
  app.addHook('onClose', closeSheetReader);
  app.get('/api/device/import-template.xlsx', async (req, reply) => {
    const buf = await importTemplate(deps.database.db, requestLocale(req));
    return reply
      .type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
      .header('content-disposition', 'attachment; filename="device-import-template.xlsx"')
      .send(buf);
  });
  app.get<{ Params: { name: string } }>('/api/uploads/avatars/:name', async (req, reply) => {
    const { name } = req.params;
    const file = path.join(AVATAR_DIR(deps.config.DATA_DIR), name);
    if (!AVATAR_NAME.test(name) || !existsSync(file)) return reply.code(404).type('text/plain').send('Not found');
    return reply.type(avatarMime(name)).header('cache-control', 'public, max-age=86400, immutable').send(createReadStream(file));
  });
};
