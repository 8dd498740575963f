ALTER TABLE "health_thresholds" ADD COLUMN "speed_limit" real;--> statement-breakpoint
ALTER TABLE "health_thresholds" ADD COLUMN "no_motion_minutes" integer;--> statement-breakpoint
ALTER TABLE "health_thresholds" ADD COLUMN "no_motion_schedule" jsonb;--> statement-breakpoint
ALTER TABLE "beacon_locations" ADD COLUMN "max_stay_minutes" integer;