ALTER TABLE "device_events" ADD COLUMN "pending" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "health_readings" ADD COLUMN "pending" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "device_events_pending_idx" ON "device_events" USING btree ("id") WHERE pending;--> statement-breakpoint
CREATE INDEX "health_readings_pending_idx" ON "health_readings" USING btree ("device_id","time") WHERE pending;--> statement-breakpoint
-- Alarms of devices deleted before deletion took them along: lists never showed them, totals and
-- the dashboard still counted them. Their undelivered pushes go with them.
DELETE FROM "push_outbox" o WHERE o."status" = 'pending' AND o."alarm_id" IN (SELECT al."id" FROM "alarms" al WHERE NOT EXISTS (SELECT 1 FROM "devices" d WHERE d."id" = al."device_id"));--> statement-breakpoint
DELETE FROM "alarms" al WHERE NOT EXISTS (SELECT 1 FROM "devices" d WHERE d."id" = al."device_id");
