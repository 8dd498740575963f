ALTER TABLE "scene_anchors" ALTER COLUMN "scene_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "scene_anchors" ALTER COLUMN "floor_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "scene_anchors" ALTER COLUMN "mac" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "scene_anchors" ALTER COLUMN "code" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "scene_anchors" ALTER COLUMN "major" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "scene_anchors" ALTER COLUMN "minor" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "scene_anchors" ALTER COLUMN "x" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "scene_anchors" ALTER COLUMN "y" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "scene_anchors" ADD COLUMN "owner_id" integer;--> statement-breakpoint
ALTER TABLE "scene_anchors" ADD COLUMN "model" smallint DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "scene_anchors" ADD COLUMN "address" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "scene_anchors" ADD COLUMN "lat" double precision;--> statement-breakpoint
ALTER TABLE "scene_anchors" ADD COLUMN "lon" double precision;--> statement-breakpoint
CREATE INDEX "scene_anchors_owner_idx" ON "scene_anchors" USING btree ("owner_id");--> statement-breakpoint
-- hand-written
UPDATE "scene_anchors" an SET "owner_id" = s."owner_id" FROM "scenes" s WHERE s."id" = an."scene_id";--> statement-breakpoint
ALTER TABLE "scene_anchors" ALTER COLUMN "owner_id" SET NOT NULL;
