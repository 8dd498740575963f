import { z } from 'zod';

/** Ids arrive as numbers or numeric strings from older clients. */
export const id = z.coerce.number().int().positive();
export const optionalId = z.coerce.number().int().positive().optional();
/** Toggle values used by the spec's user flags (1 on, 2 off). */
export const flag12 = z.coerce.number().int().pipe(z.union([z.literal(1), z.literal(2)]));
/** ISO date-time or epoch (10 digits = seconds, 13 = milliseconds). */
export const dateInput = z.union([z.string(), z.number()]);
export const nullableString = z.string().nullable();
