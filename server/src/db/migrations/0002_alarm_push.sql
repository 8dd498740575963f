CREATE TABLE "alarm_contacts" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"name" text NOT NULL,
	"phone" text DEFAULT '' NOT NULL,
	"email" text DEFAULT '' NOT NULL,
	"notify_sms" smallint DEFAULT 1 NOT NULL,
	"notify_email" smallint DEFAULT 1 NOT NULL,
	"types" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alarm_settings" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"alarm_type_id" integer NOT NULL,
	"new_state" smallint DEFAULT 1 NOT NULL,
	"ring_type" smallint DEFAULT 2 NOT NULL,
	"state" smallint DEFAULT 1 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alarm_types" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" integer NOT NULL,
	"name_zh" text NOT NULL,
	"name_en" text NOT NULL,
	"description_zh" text DEFAULT '' NOT NULL,
	"description_en" text DEFAULT '' NOT NULL,
	"category" text DEFAULT 'device' NOT NULL,
	"level" smallint DEFAULT 1 NOT NULL,
	"min_value" real,
	"max_value" real,
	"ring_type" smallint DEFAULT 2 NOT NULL,
	"page_push" smallint DEFAULT 1 NOT NULL,
	"enabled" smallint DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alarms" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"type" integer NOT NULL,
	"device_id" integer NOT NULL,
	"account_id" integer NOT NULL,
	"status" smallint DEFAULT 0 NOT NULL,
	"count" integer DEFAULT 1 NOT NULL,
	"message_key" text DEFAULT '' NOT NULL,
	"message_params" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"value" real,
	"lat" double precision,
	"lon" double precision,
	"remark" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_at" timestamp with time zone DEFAULT now() NOT NULL,
	"confirmed_at" timestamp with time zone,
	"confirmed_by" integer
);
--> statement-breakpoint
CREATE TABLE "health_thresholds" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer,
	"device_id" integer,
	"heart_rate_min" real,
	"heart_rate_max" real,
	"systolic_min" real,
	"systolic_max" real,
	"diastolic_min" real,
	"diastolic_max" real,
	"body_temp_max" real,
	"wrist_temp_max" real,
	"blood_oxygen_min" real,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "push_attempts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"outbox_id" bigint NOT NULL,
	"company_id" integer NOT NULL,
	"alarm_id" bigint,
	"imei" text DEFAULT '' NOT NULL,
	"url" text NOT NULL,
	"attempt" integer NOT NULL,
	"status_code" integer,
	"success" boolean NOT NULL,
	"error" text DEFAULT '' NOT NULL,
	"duration_ms" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "push_companies" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"name" text NOT NULL,
	"push_model" smallint DEFAULT 1 NOT NULL,
	"default_format" smallint DEFAULT 1 NOT NULL,
	"push_url" text NOT NULL,
	"effective" smallint DEFAULT 1 NOT NULL,
	"verification_code" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "push_outbox" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"alarm_id" bigint,
	"imei" text DEFAULT '' NOT NULL,
	"url" text NOT NULL,
	"body" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp with time zone,
	"last_error" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "alarm_contacts_account_idx" ON "alarm_contacts" USING btree ("account_id");--> statement-breakpoint
CREATE UNIQUE INDEX "alarm_settings_account_type_uq" ON "alarm_settings" USING btree ("account_id","alarm_type_id");--> statement-breakpoint
CREATE UNIQUE INDEX "alarm_types_code_uq" ON "alarm_types" USING btree ("code");--> statement-breakpoint
CREATE UNIQUE INDEX "alarms_open_uq" ON "alarms" USING btree ("device_id","type") WHERE status = 0;--> statement-breakpoint
CREATE INDEX "alarms_account_created_idx" ON "alarms" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE INDEX "alarms_device_created_idx" ON "alarms" USING btree ("device_id","created_at");--> statement-breakpoint
CREATE INDEX "alarms_created_idx" ON "alarms" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "health_thresholds_device_uq" ON "health_thresholds" USING btree ("device_id") WHERE device_id IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "health_thresholds_account_uq" ON "health_thresholds" USING btree ("account_id") WHERE device_id IS NULL;--> statement-breakpoint
CREATE INDEX "push_attempts_company_created_idx" ON "push_attempts" USING btree ("company_id","created_at");--> statement-breakpoint
CREATE INDEX "push_attempts_created_idx" ON "push_attempts" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "push_companies_account_idx" ON "push_companies" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "push_outbox_due_idx" ON "push_outbox" USING btree ("status","next_at");