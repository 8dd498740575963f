CREATE TABLE "commands" (
	"id" serial PRIMARY KEY NOT NULL,
	"device_id" integer NOT NULL,
	"account_id" integer NOT NULL,
	"code" text NOT NULL,
	"params" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"keyword" text DEFAULT '' NOT NULL,
	"encoded" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"error" text DEFAULT '' NOT NULL,
	"reply" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	"answered_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "device_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"device_id" integer NOT NULL,
	"time" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	"kind" text NOT NULL,
	"payload" jsonb
);
--> statement-breakpoint
CREATE TABLE "device_state" (
	"device_id" integer PRIMARY KEY NOT NULL,
	"fix_time" timestamp with time zone,
	"lat" double precision,
	"lon" double precision,
	"fix_valid" boolean,
	"speed" real,
	"course" real,
	"battery" smallint,
	"signal" smallint,
	"steps" integer,
	"heart_rate" real,
	"systolic" real,
	"diastolic" real,
	"body_temp" real,
	"wrist_temp" real,
	"blood_oxygen" real,
	"health_time" timestamp with time zone,
	"last_seen" timestamp with time zone,
	"online" boolean DEFAULT false NOT NULL,
	"connection_mode" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "devices" (
	"id" serial PRIMARY KEY NOT NULL,
	"imei" text NOT NULL,
	"short_id" text NOT NULL,
	"ext_id" text,
	"name" text DEFAULT '' NOT NULL,
	"model_id" integer,
	"model_name" text DEFAULT '' NOT NULL,
	"protocol" text DEFAULT 'watch' NOT NULL,
	"account_id" integer NOT NULL,
	"bound" boolean DEFAULT true NOT NULL,
	"iccid" text DEFAULT '' NOT NULL,
	"software_version" text DEFAULT '' NOT NULL,
	"stock_in_at" timestamp with time zone,
	"activated_at" timestamp with time zone,
	"group_id" integer,
	"role_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "health_readings" (
	"device_id" integer NOT NULL,
	"time" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	"heart_rate" real,
	"systolic" real,
	"diastolic" real,
	"body_temp" real,
	"wrist_temp" real,
	"blood_oxygen" real,
	"hrv" real,
	"steps" integer,
	"distance" real,
	"calories" real,
	"uv" real,
	"sleep" jsonb
);
--> statement-breakpoint
CREATE TABLE "integrations" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"account_id" integer NOT NULL,
	"token_hash" text NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "integrations_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "positions" (
	"device_id" integer NOT NULL,
	"time" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	"lat" double precision,
	"lon" double precision,
	"valid" boolean DEFAULT false NOT NULL,
	"speed" real,
	"course" real,
	"altitude" real,
	"accuracy" real,
	"satellites" smallint,
	"cells" jsonb,
	"wifi" jsonb,
	"attributes" jsonb
);
--> statement-breakpoint
CREATE INDEX "commands_device_status_idx" ON "commands" USING btree ("device_id","status","id");--> statement-breakpoint
CREATE INDEX "commands_created_idx" ON "commands" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "device_events_device_time_idx" ON "device_events" USING btree ("device_id","time");--> statement-breakpoint
CREATE UNIQUE INDEX "devices_imei_uq" ON "devices" USING btree ("imei");--> statement-breakpoint
CREATE INDEX "devices_short_id_idx" ON "devices" USING btree ("short_id");--> statement-breakpoint
CREATE UNIQUE INDEX "devices_ext_id_uq" ON "devices" USING btree ("ext_id");--> statement-breakpoint
CREATE INDEX "devices_account_idx" ON "devices" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "health_device_time_idx" ON "health_readings" USING btree ("device_id","time");--> statement-breakpoint
CREATE INDEX "positions_device_time_idx" ON "positions" USING btree ("device_id","time");