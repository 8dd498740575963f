ALTER TABLE "accounts" ADD COLUMN "origin" text DEFAULT 'created' NOT NULL;--> statement-breakpoint
-- Accounts that registered themselves are known by the log of their registration (action 1007).
UPDATE "accounts" SET "origin" = 'registered' WHERE "id" IN (SELECT "account_id" FROM "login_logs" WHERE "action_code" = 1007);--> statement-breakpoint
-- SOS and fall are always on: a type closed before that rule opens again.
UPDATE "alarm_types" SET "enabled" = 1 WHERE "code" IN (5, 150);
