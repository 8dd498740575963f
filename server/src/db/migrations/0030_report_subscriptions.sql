CREATE TABLE "report_subscriptions" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"report" text NOT NULL,
	"frequency" text NOT NULL,
	"email" text NOT NULL,
	"subject_user_id" integer,
	"group_id" integer,
	"device_id" integer,
	"enabled" boolean DEFAULT true NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_at" timestamp with time zone NOT NULL,
	"locked_until" timestamp with time zone,
	"last_error" text DEFAULT '' NOT NULL,
	"last_sent_at" timestamp with time zone,
	"last_period" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "report_subscriptions_account_idx" ON "report_subscriptions" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "report_subscriptions_due_idx" ON "report_subscriptions" USING btree ("status","next_at");