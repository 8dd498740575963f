CREATE TABLE "report_settings" (
	"account_id" integer PRIMARY KEY NOT NULL,
	"stop_minutes" double precision,
	"stop_radius" double precision,
	"stop_speed" double precision,
	"gap_minutes" double precision,
	"min_trip_meters" double precision,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
