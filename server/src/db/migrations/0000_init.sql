CREATE TABLE "accounts" (
	"id" serial PRIMARY KEY NOT NULL,
	"parent_id" integer,
	"path" text NOT NULL,
	"login_name" text NOT NULL,
	"password_hash" text NOT NULL,
	"kind" text DEFAULT 'user' NOT NULL,
	"user_type" smallint DEFAULT 1 NOT NULL,
	"permission_set_id" integer,
	"username" text DEFAULT '' NOT NULL,
	"avatar" text DEFAULT '' NOT NULL,
	"page_name" text DEFAULT '' NOT NULL,
	"phone" text DEFAULT '' NOT NULL,
	"email" text DEFAULT '' NOT NULL,
	"address" text DEFAULT '' NOT NULL,
	"company_name" text DEFAULT '' NOT NULL,
	"contact" text DEFAULT '' NOT NULL,
	"introduction" text DEFAULT '' NOT NULL,
	"language" text DEFAULT 'zh-CN' NOT NULL,
	"time_zone_offset" integer DEFAULT 480 NOT NULL,
	"is_show_map_label" smallint DEFAULT 1 NOT NULL,
	"is_inner_door" smallint DEFAULT 1 NOT NULL,
	"is_data_show" smallint DEFAULT 1 NOT NULL,
	"is_health_data" smallint DEFAULT 1 NOT NULL,
	"is_show_monitor_fence" smallint DEFAULT 2 NOT NULL,
	"switch_animation" smallint DEFAULT 1 NOT NULL,
	"switch_function_send_cmd" smallint DEFAULT 2 NOT NULL,
	"is_weather_config" smallint DEFAULT 2 NOT NULL,
	"is_send_msg_by_role" smallint DEFAULT 2 NOT NULL,
	"is_send_message" smallint DEFAULT 2 NOT NULL,
	"setting_function" smallint DEFAULT 2 NOT NULL,
	"alarm_set" smallint DEFAULT 1 NOT NULL,
	"agent_authorized" boolean DEFAULT false NOT NULL,
	"disabled" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "login_logs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"login_name" text DEFAULT '' NOT NULL,
	"action_code" integer NOT NULL,
	"ip" text DEFAULT '' NOT NULL,
	"ip_location" text DEFAULT '' NOT NULL,
	"client_type" text DEFAULT '' NOT NULL,
	"client_code" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "password_resets" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "password_resets_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "permission_sets" (
	"id" serial PRIMARY KEY NOT NULL,
	"owner_id" integer,
	"key" text NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"routes" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"refresh_hash" text NOT NULL,
	"previous_hash" text,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"client" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "settings" (
	"key" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "accounts_login_name_uq" ON "accounts" USING btree (lower("login_name"));--> statement-breakpoint
CREATE INDEX "accounts_email_idx" ON "accounts" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "accounts_path_idx" ON "accounts" USING btree ("path" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "accounts_parent_idx" ON "accounts" USING btree ("parent_id");--> statement-breakpoint
CREATE INDEX "login_logs_account_time_idx" ON "login_logs" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE INDEX "sessions_account_idx" ON "sessions" USING btree ("account_id");--> statement-breakpoint
CREATE UNIQUE INDEX "sessions_refresh_uq" ON "sessions" USING btree ("refresh_hash");