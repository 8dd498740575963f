ALTER TABLE "health_readings" ADD COLUMN "pho" real;--> statement-breakpoint
ALTER TABLE "health_readings" ADD COLUMN "ir" real;