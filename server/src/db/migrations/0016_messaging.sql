CREATE TABLE "app_versions" (
	"id" serial PRIMARY KEY NOT NULL,
	"platform" text NOT NULL,
	"old_version" text DEFAULT '' NOT NULL,
	"new_version" text NOT NULL,
	"version_code" integer NOT NULL,
	"min_version" text DEFAULT '' NOT NULL,
	"forced" smallint DEFAULT 2 NOT NULL,
	"file_key" text,
	"file_name" text DEFAULT '' NOT NULL,
	"file_size" integer,
	"sha256" text,
	"url" text DEFAULT '' NOT NULL,
	"content" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "message_send_commands" (
	"send_id" integer NOT NULL,
	"command_id" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "message_sends" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"kind" text DEFAULT 'message' NOT NULL,
	"sender_name" text DEFAULT '' NOT NULL,
	"name" text NOT NULL,
	"text" text NOT NULL,
	"role_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"group_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"account_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"total" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notice_outbox" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"channel" text NOT NULL,
	"account_id" integer NOT NULL,
	"alarm_id" bigint,
	"imei" text DEFAULT '' NOT NULL,
	"recipient" text NOT NULL,
	"subject" text DEFAULT '' NOT NULL,
	"body" text NOT NULL,
	"segments" integer DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp with time zone,
	"last_error" text DEFAULT '' NOT NULL,
	"provider_ref" text,
	"refunded" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"done_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "sms_balances" (
	"account_id" integer PRIMARY KEY NOT NULL,
	"enabled" smallint DEFAULT 1 NOT NULL,
	"recharged" integer DEFAULT 0 NOT NULL,
	"used" integer DEFAULT 0 NOT NULL,
	"remaining" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sms_changes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"kind" text NOT NULL,
	"amount" integer DEFAULT 0 NOT NULL,
	"remaining" integer DEFAULT 0 NOT NULL,
	"by_account_id" integer,
	"by_name" text DEFAULT '' NOT NULL,
	"remark" text DEFAULT '' NOT NULL,
	"notice_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "weather_pushes" (
	"account_id" integer PRIMARY KEY NOT NULL,
	"day" date NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "app_versions_platform_code_uq" ON "app_versions" USING btree ("platform","version_code");--> statement-breakpoint
CREATE UNIQUE INDEX "message_send_commands_pk" ON "message_send_commands" USING btree ("send_id","command_id");--> statement-breakpoint
CREATE INDEX "message_send_commands_command_idx" ON "message_send_commands" USING btree ("command_id");--> statement-breakpoint
CREATE INDEX "message_sends_account_idx" ON "message_sends" USING btree ("account_id","id");--> statement-breakpoint
CREATE INDEX "notice_outbox_due_idx" ON "notice_outbox" USING btree ("status","next_at");--> statement-breakpoint
CREATE INDEX "notice_outbox_account_idx" ON "notice_outbox" USING btree ("account_id","id");--> statement-breakpoint
CREATE INDEX "notice_outbox_ref_idx" ON "notice_outbox" USING btree ("provider_ref");--> statement-breakpoint
CREATE INDEX "sms_changes_account_idx" ON "sms_changes" USING btree ("account_id","id");