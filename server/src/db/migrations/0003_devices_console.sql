CREATE TABLE "command_dictionary" (
	"id" serial PRIMARY KEY NOT NULL,
	"protocol_id" integer NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"details" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "device_models" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"type" text DEFAULT '' NOT NULL,
	"protocol_id" integer NOT NULL,
	"commands" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"functions" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"health_items" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"app_show_params" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"app_home_fx" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "device_protocols" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "device_fence_state" (
	"device_id" integer NOT NULL,
	"fence_id" integer NOT NULL,
	"inside" boolean NOT NULL,
	"time" timestamp with time zone NOT NULL,
	CONSTRAINT "device_fence_state_device_id_fence_id_pk" PRIMARY KEY("device_id","fence_id")
);
--> statement-breakpoint
CREATE TABLE "device_fences" (
	"id" serial PRIMARY KEY NOT NULL,
	"device_id" integer NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"kind" text NOT NULL,
	"lat" double precision,
	"lon" double precision,
	"radius" double precision,
	"points" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "device_groups" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "device_persons" (
	"device_id" integer PRIMARY KEY NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"gender" text,
	"age" smallint,
	"phone" text DEFAULT '' NOT NULL,
	"email" text DEFAULT '' NOT NULL,
	"address" text DEFAULT '' NOT NULL,
	"remark" text DEFAULT '' NOT NULL,
	"blood_type" text,
	"height" real,
	"weight" real,
	"avatar" text DEFAULT '' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "device_roles" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"color" text NOT NULL,
	"shape" text DEFAULT 'circle' NOT NULL,
	"icon" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "command_dictionary_protocol_code_uq" ON "command_dictionary" USING btree ("protocol_id","code");--> statement-breakpoint
CREATE UNIQUE INDEX "device_models_name_uq" ON "device_models" USING btree (lower("name"));--> statement-breakpoint
CREATE INDEX "device_models_protocol_idx" ON "device_models" USING btree ("protocol_id");--> statement-breakpoint
CREATE UNIQUE INDEX "device_protocols_code_uq" ON "device_protocols" USING btree (lower("code"));--> statement-breakpoint
CREATE INDEX "device_fence_state_fence_idx" ON "device_fence_state" USING btree ("fence_id");--> statement-breakpoint
CREATE INDEX "device_fences_device_idx" ON "device_fences" USING btree ("device_id");--> statement-breakpoint
CREATE UNIQUE INDEX "device_groups_account_name_uq" ON "device_groups" USING btree ("account_id",lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "device_roles_account_name_uq" ON "device_roles" USING btree ("account_id",lower("name"));--> statement-breakpoint
CREATE INDEX "devices_account_id_idx" ON "devices" USING btree ("account_id","id");--> statement-breakpoint
CREATE INDEX "devices_model_idx" ON "devices" USING btree ("model_id");