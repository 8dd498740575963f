// Uplink integrations: a LoRa network server or a partner system that POSTs device JSON to
// POST /api/ingest/<Name> with its bearer token. The registry has no integration calls, so these
// are extra calls:
// - /Integration/List         the integrations of the caller's subtree, paged, searchable by name.
// - /Integration/Save         create (answers the token, once) or update when IntegrationId is given
//                             (rename, enable or disable, change the owner; never the token).
// - /Integration/RotateToken  a new token, answered once; the old one stops working at once.
// - /Integration/Delete       delete integrations by id (all or none).
import { z } from 'zod';
import { ok, pageOf, pageRequest } from '../envelope.js';
import { id, optionalId, text } from './common.js';

/** The `:integration` of the ingest URL: 3 to 64 lower-case letters, digits, `-` and `_`. */
export const INTEGRATION_NAME = /^[a-z0-9_-]{3,64}$/;

export const integrationSchema = z.object({
  IntegrationId: z.number(),
  Name: z.string(),
  /** The owner: the integration writes only devices of this account's subtree. */
  AccountId: z.number(),
  AccountName: z.string(),
  Enabled: z.boolean(),
  CreatedAt: z.string(),
  /** The last accepted uplink (to the minute), null when never used. */
  LastUsedAt: z.string().nullable(),
});
export type Integration = z.infer<typeof integrationSchema>;

export const integrationListRequest = z.object({
  ...pageRequest,
  Name: text(64).optional(),
});
export const integrationListResponse = pageOf(integrationSchema);

export const saveIntegrationRequest = z.object({
  IntegrationId: optionalId,
  Name: z
    .string({ error: 'integration.nameRequired' })
    .trim()
    .min(1, { error: 'integration.nameRequired', abort: true })
    .regex(INTEGRATION_NAME, { error: 'integration.nameInvalid' }),
  /** The owner; the caller when creating without one, unchanged when updating without one. */
  AccountId: optionalId,
  /** On when creating without it, unchanged when updating without it. */
  Enabled: z.boolean().optional(),
});
/** `Token` only when an integration was created: it is never shown again. */
export const saveIntegrationResponse = ok({ Item: integrationSchema, Token: z.string().optional() });

export const rotateIntegrationTokenRequest = z.object({ IntegrationId: id });
export const rotateIntegrationTokenResponse = ok({ Item: integrationSchema, Token: z.string() });

export const deleteIntegrationsRequest = z.object({
  IntegrationIds: z.array(id).min(1, { error: 'validation.required' }).max(1000),
});
export const deleteIntegrationsResponse = ok({ Deleted: z.number() });

export const integrationSchemas = {
  '/Integration/List': { request: integrationListRequest, response: integrationListResponse },
  '/Integration/Save': { request: saveIntegrationRequest, response: saveIntegrationResponse },
  '/Integration/RotateToken': {
    request: rotateIntegrationTokenRequest,
    response: rotateIntegrationTokenResponse,
  },
  '/Integration/Delete': { request: deleteIntegrationsRequest, response: deleteIntegrationsResponse },
} as const;
