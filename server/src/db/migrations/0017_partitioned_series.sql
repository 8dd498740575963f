CREATE TABLE "data_retention" (
	"account_id" integer PRIMARY KEY NOT NULL,
	"positions_days" integer,
	"health_days" integer,
	"events_days" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- hand-written
-- positions, health_readings and device_events become partitioned by day on "time" (UTC days), with a
-- default partition for rows outside the daily partitions. Existing rows are kept: the daily
-- partitions from the oldest row's day (at most 31 days back; yesterday on a new installation) to 7
-- days ahead are created first, older rows go to the default partition (the retention job deletes
-- them from there in batches when their time comes).
-- wt_ensure_day_partition is also what the partition job (server/src/db/partitions.ts) calls: it
-- creates one day's partition, moving that day's rows out of the default partition when it has any.
CREATE OR REPLACE FUNCTION wt_ensure_day_partition(parent text, day date) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
  part text := parent || '_p' || to_char(day, 'YYYYMMDD');
  lo timestamptz := day::timestamp AT TIME ZONE 'UTC';
  hi timestamptz := (day + 1)::timestamp AT TIME ZONE 'UTC';
  waiting boolean;
BEGIN
  IF to_regclass(part) IS NOT NULL THEN
    RETURN false;
  END IF;
  EXECUTE format('SELECT EXISTS (SELECT 1 FROM %I WHERE time >= $1 AND time < $2)', parent || '_default') INTO waiting USING lo, hi;
  IF waiting THEN
    EXECUTE format('CREATE TABLE %I (LIKE %I INCLUDING DEFAULTS)', part, parent);
    EXECUTE format('WITH m AS (DELETE FROM %I WHERE time >= $1 AND time < $2 RETURNING *) INSERT INTO %I SELECT * FROM m', parent || '_default', part) USING lo, hi;
    EXECUTE format('ALTER TABLE %I ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)', parent, part, lo, hi);
  ELSE
    EXECUTE format('CREATE TABLE %I PARTITION OF %I FOR VALUES FROM (%L) TO (%L)', part, parent, lo, hi);
  END IF;
  RETURN true;
END $$;
--> statement-breakpoint
ALTER SEQUENCE device_events_id_seq OWNED BY NONE;
--> statement-breakpoint
ALTER TABLE "positions" RENAME TO "positions_unpartitioned";
--> statement-breakpoint
DROP INDEX "positions_device_time_idx";
--> statement-breakpoint
CREATE TABLE "positions" (LIKE "positions_unpartitioned" INCLUDING DEFAULTS) PARTITION BY RANGE ("time");
--> statement-breakpoint
CREATE INDEX "positions_device_time_idx" ON "positions" USING btree ("device_id","time");
--> statement-breakpoint
CREATE TABLE "positions_default" PARTITION OF "positions" DEFAULT;
--> statement-breakpoint
SELECT wt_ensure_day_partition('positions', d::date) FROM generate_series(greatest((now() AT TIME ZONE 'UTC')::date - 31, least((now() AT TIME ZONE 'UTC')::date - 1, (SELECT min(time AT TIME ZONE 'UTC')::date FROM "positions_unpartitioned"))), (now() AT TIME ZONE 'UTC')::date + 7, interval '1 day') AS d;
--> statement-breakpoint
INSERT INTO "positions" SELECT * FROM "positions_unpartitioned";
--> statement-breakpoint
DROP TABLE "positions_unpartitioned";
--> statement-breakpoint
ALTER TABLE "health_readings" RENAME TO "health_readings_unpartitioned";
--> statement-breakpoint
DROP INDEX "health_device_time_idx";
--> statement-breakpoint
DROP INDEX "health_readings_pending_idx";
--> statement-breakpoint
CREATE TABLE "health_readings" (LIKE "health_readings_unpartitioned" INCLUDING DEFAULTS) PARTITION BY RANGE ("time");
--> statement-breakpoint
CREATE INDEX "health_device_time_idx" ON "health_readings" USING btree ("device_id","time");
--> statement-breakpoint
CREATE INDEX "health_readings_pending_idx" ON "health_readings" USING btree ("device_id","time") WHERE pending;
--> statement-breakpoint
CREATE TABLE "health_readings_default" PARTITION OF "health_readings" DEFAULT;
--> statement-breakpoint
SELECT wt_ensure_day_partition('health_readings', d::date) FROM generate_series(greatest((now() AT TIME ZONE 'UTC')::date - 31, least((now() AT TIME ZONE 'UTC')::date - 1, (SELECT min(time AT TIME ZONE 'UTC')::date FROM "health_readings_unpartitioned"))), (now() AT TIME ZONE 'UTC')::date + 7, interval '1 day') AS d;
--> statement-breakpoint
INSERT INTO "health_readings" SELECT * FROM "health_readings_unpartitioned";
--> statement-breakpoint
DROP TABLE "health_readings_unpartitioned";
--> statement-breakpoint
ALTER TABLE "device_events" RENAME TO "device_events_unpartitioned";
--> statement-breakpoint
DROP INDEX "device_events_device_time_idx";
--> statement-breakpoint
DROP INDEX "device_events_pending_idx";
--> statement-breakpoint
ALTER TABLE "device_events_unpartitioned" DROP CONSTRAINT "device_events_pkey";
--> statement-breakpoint
CREATE TABLE "device_events" (LIKE "device_events_unpartitioned" INCLUDING DEFAULTS) PARTITION BY RANGE ("time");
--> statement-breakpoint
ALTER TABLE "device_events" ADD CONSTRAINT "device_events_pkey" PRIMARY KEY ("id","time");
--> statement-breakpoint
CREATE INDEX "device_events_device_time_idx" ON "device_events" USING btree ("device_id","time");
--> statement-breakpoint
CREATE INDEX "device_events_pending_idx" ON "device_events" USING btree ("id") WHERE pending;
--> statement-breakpoint
CREATE TABLE "device_events_default" PARTITION OF "device_events" DEFAULT;
--> statement-breakpoint
SELECT wt_ensure_day_partition('device_events', d::date) FROM generate_series(greatest((now() AT TIME ZONE 'UTC')::date - 31, least((now() AT TIME ZONE 'UTC')::date - 1, (SELECT min(time AT TIME ZONE 'UTC')::date FROM "device_events_unpartitioned"))), (now() AT TIME ZONE 'UTC')::date + 7, interval '1 day') AS d;
--> statement-breakpoint
INSERT INTO "device_events" SELECT * FROM "device_events_unpartitioned";
--> statement-breakpoint
DROP TABLE "device_events_unpartitioned";
--> statement-breakpoint
ALTER SEQUENCE device_events_id_seq OWNED BY device_events.id;
