CREATE TABLE "alarm_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"alarm_id" bigint NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"kind" text NOT NULL,
	"actor_id" integer,
	"params" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
DROP INDEX "alarms_open_uq";--> statement-breakpoint
ALTER TABLE "alarms" ADD COLUMN "resolved_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "alarms" ADD COLUMN "resolved_by" integer;--> statement-breakpoint
ALTER TABLE "alarms" ADD COLUMN "resolve_cause" text;--> statement-breakpoint
ALTER TABLE "alarms" ADD COLUMN "resolve_note" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "alarms" ADD COLUMN "cleared_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "alarms" ADD COLUMN "assignee_id" integer;--> statement-breakpoint
ALTER TABLE "alarms" ADD COLUMN "takes_repeats" boolean DEFAULT true NOT NULL;--> statement-breakpoint
-- Alarms confirmed before took no repeats already (the index was on status = 0).
UPDATE "alarms" SET "takes_repeats" = ("status" = 0);--> statement-breakpoint
CREATE INDEX "alarm_events_alarm_idx" ON "alarm_events" USING btree ("alarm_id","at","id");--> statement-breakpoint
CREATE INDEX "alarms_live_idx" ON "alarms" USING btree ("type","device_id") WHERE cleared_at IS NULL AND resolved_at IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "alarms_open_uq" ON "alarms" USING btree ("device_id","type") WHERE takes_repeats AND status = 0;