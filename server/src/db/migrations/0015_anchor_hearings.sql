CREATE TABLE "anchor_hearings" (
	"from_id" integer NOT NULL,
	"to_id" integer NOT NULL,
	"floor_id" integer NOT NULL,
	"minute" timestamp with time zone NOT NULL,
	"count" integer NOT NULL,
	"rssi_sum" double precision NOT NULL,
	CONSTRAINT "anchor_hearings_from_id_to_id_minute_pk" PRIMARY KEY("from_id","to_id","minute")
);
--> statement-breakpoint
CREATE INDEX "anchor_hearings_floor_idx" ON "anchor_hearings" USING btree ("floor_id","minute");