// What anchors heard of each other, per minute: the data the calibration fits the distance model
// from (RSSI at 1 m per anchor, the path-loss exponent per floor). Written by the positioning
// service from gateway reports of identities that are anchors, kept for a day.
import { doublePrecision, index, integer, pgTable, primaryKey, timestamp } from 'drizzle-orm/pg-core';

export const anchorHearings = pgTable(
  'anchor_hearings',
  {
    /** The anchor (a gateway) that heard. */
    fromId: integer('from_id').notNull(),
    /** The anchor it heard. */
    toId: integer('to_id').notNull(),
    floorId: integer('floor_id').notNull(),
    minute: timestamp('minute', { withTimezone: true }).notNull(),
    count: integer('count').notNull(),
    rssiSum: doublePrecision('rssi_sum').notNull(),
  },
  (t) => [primaryKey({ columns: [t.fromId, t.toId, t.minute] }), index('anchor_hearings_floor_idx').on(t.floorId, t.minute)],
);
