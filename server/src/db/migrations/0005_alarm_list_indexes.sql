DROP INDEX "alarms_account_created_idx";--> statement-breakpoint
DROP INDEX "alarms_device_created_idx";--> statement-breakpoint
DROP INDEX "alarms_created_idx";--> statement-breakpoint
CREATE INDEX "alarms_account_created_idx" ON "alarms" USING btree ("account_id","created_at","id");--> statement-breakpoint
CREATE INDEX "alarms_device_created_idx" ON "alarms" USING btree ("device_id","created_at","id");--> statement-breakpoint
CREATE INDEX "alarms_created_idx" ON "alarms" USING btree ("created_at","id");