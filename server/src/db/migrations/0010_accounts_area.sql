CREATE TABLE "operation_logs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"account_path" text NOT NULL,
	"login_name" text DEFAULT '' NOT NULL,
	"call" text NOT NULL,
	"action" text DEFAULT '' NOT NULL,
	"object" text DEFAULT '' NOT NULL,
	"state" integer DEFAULT 0 NOT NULL,
	"error_key" text DEFAULT '' NOT NULL,
	"detail" text DEFAULT '' NOT NULL,
	"ip" text DEFAULT '' NOT NULL,
	"ip_location" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "platform_brands" (
	"account_id" integer PRIMARY KEY NOT NULL,
	"key" text,
	"host_name" text,
	"title" text DEFAULT '' NOT NULL,
	"page_title" text DEFAULT '' NOT NULL,
	"icon" text DEFAULT '' NOT NULL,
	"company_name" text DEFAULT '' NOT NULL,
	"phone" text DEFAULT '' NOT NULL,
	"email" text DEFAULT '' NOT NULL,
	"address" text DEFAULT '' NOT NULL,
	"hidden_menus" text DEFAULT '' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "must_change_password" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "permission_sets" ADD COLUMN "actions" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "permission_sets" ADD COLUMN "built_in" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "permission_sets" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
CREATE INDEX "operation_logs_time_idx" ON "operation_logs" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "operation_logs_path_time_idx" ON "operation_logs" USING btree ("account_path" text_pattern_ops,"created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "platform_brands_key_uq" ON "platform_brands" USING btree ("key");--> statement-breakpoint
CREATE UNIQUE INDEX "platform_brands_host_uq" ON "platform_brands" USING btree (lower("host_name"));