ALTER TABLE "health_thresholds" ADD COLUMN "speed_limit" real;--> statement-breakpoint
ALTER TABLE "beacon_locations" ADD COLUMN "max_stay_minutes" integer;