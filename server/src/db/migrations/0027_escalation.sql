CREATE TABLE "escalation_outbox" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"alarm_id" bigint NOT NULL,
	"policy_id" integer NOT NULL,
	"step" integer NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp with time zone,
	"last_error" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "escalation_policies" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"alarm_type" integer NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"steps" jsonb NOT NULL,
	"repeat_minutes" integer DEFAULT 0 NOT NULL,
	"repeat_cap" smallint DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "escalation_sends" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"alarm_id" bigint NOT NULL,
	"step" integer NOT NULL,
	"channel" text NOT NULL,
	"recipient" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"ok" boolean NOT NULL,
	"error" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
ALTER TABLE "alarm_contacts" ADD COLUMN "quiet_from" smallint;--> statement-breakpoint
ALTER TABLE "alarm_contacts" ADD COLUMN "quiet_to" smallint;--> statement-breakpoint
CREATE INDEX "escalation_outbox_due_idx" ON "escalation_outbox" USING btree ("status","next_at");--> statement-breakpoint
CREATE UNIQUE INDEX "escalation_outbox_alarm_step_idx" ON "escalation_outbox" USING btree ("alarm_id","step");--> statement-breakpoint
CREATE UNIQUE INDEX "escalation_policies_account_type_idx" ON "escalation_policies" USING btree ("account_id","alarm_type");--> statement-breakpoint
CREATE INDEX "escalation_sends_alarm_idx" ON "escalation_sends" USING btree ("alarm_id","id");