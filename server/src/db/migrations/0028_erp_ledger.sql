CREATE TABLE "erp_customers" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"name" text NOT NULL,
	"contact" text DEFAULT '' NOT NULL,
	"phone" text DEFAULT '' NOT NULL,
	"address" text DEFAULT '' NOT NULL,
	"tax_no" text DEFAULT '' NOT NULL,
	"payment_days" integer DEFAULT 0 NOT NULL,
	"platform_account_id" integer,
	"remark" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "erp_purchase_lines" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL,
	"kind" smallint NOT NULL,
	"item_id" integer NOT NULL,
	"quantity" integer NOT NULL,
	"unit_price_cents" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "erp_receipt_lines" (
	"id" serial PRIMARY KEY NOT NULL,
	"receipt_id" integer NOT NULL,
	"line_id" integer NOT NULL,
	"quantity" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "erp_receipts" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"order_id" integer NOT NULL,
	"warehouse_id" integer NOT NULL,
	"received_on" date NOT NULL,
	"remark" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "erp_suppliers" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"name" text NOT NULL,
	"contact" text DEFAULT '' NOT NULL,
	"phone" text DEFAULT '' NOT NULL,
	"address" text DEFAULT '' NOT NULL,
	"tax_no" text DEFAULT '' NOT NULL,
	"payment_days" integer DEFAULT 0 NOT NULL,
	"remark" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "erp_transfers" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"kind" smallint NOT NULL,
	"item_id" integer NOT NULL,
	"from_warehouse_id" integer NOT NULL,
	"to_warehouse_id" integer NOT NULL,
	"quantity" integer NOT NULL,
	"remark" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "erp_purchases" ADD COLUMN "supplier_id" integer;--> statement-breakpoint
ALTER TABLE "erp_sales" ADD COLUMN "customer_id" integer;--> statement-breakpoint
CREATE UNIQUE INDEX "erp_customers_name_uq" ON "erp_customers" USING btree ("account_id","name");--> statement-breakpoint
CREATE INDEX "erp_purchase_lines_order_idx" ON "erp_purchase_lines" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "erp_purchase_lines_item_idx" ON "erp_purchase_lines" USING btree ("kind","item_id");--> statement-breakpoint
CREATE INDEX "erp_receipt_lines_receipt_idx" ON "erp_receipt_lines" USING btree ("receipt_id");--> statement-breakpoint
CREATE INDEX "erp_receipt_lines_line_idx" ON "erp_receipt_lines" USING btree ("line_id");--> statement-breakpoint
CREATE INDEX "erp_receipts_order_idx" ON "erp_receipts" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "erp_receipts_warehouse_idx" ON "erp_receipts" USING btree ("warehouse_id");--> statement-breakpoint
CREATE UNIQUE INDEX "erp_suppliers_name_uq" ON "erp_suppliers" USING btree ("account_id","name");--> statement-breakpoint
CREATE INDEX "erp_transfers_account_idx" ON "erp_transfers" USING btree ("account_id","id");--> statement-breakpoint
CREATE INDEX "erp_transfers_from_idx" ON "erp_transfers" USING btree ("from_warehouse_id");--> statement-breakpoint
CREATE INDEX "erp_transfers_to_idx" ON "erp_transfers" USING btree ("to_warehouse_id");--> statement-breakpoint
CREATE INDEX "stock_moves_at_idx" ON "stock_moves" USING btree ("account_id","kind","item_id","store_id","created_at","id");--> statement-breakpoint
CREATE INDEX "erp_purchases_supplier_idx" ON "erp_purchases" USING btree ("supplier_id");--> statement-breakpoint
CREATE INDEX "erp_sales_customer_idx" ON "erp_sales" USING btree ("customer_id");--> statement-breakpoint
-- Today's free-text names become master records of the account that keeps them, and the sales
-- records naming a customer exactly are linked to it (the free text stays for the old rows).
INSERT INTO "erp_customers" ("account_id", "name")
  SELECT DISTINCT "account_id", "customer_company" FROM "erp_sales" WHERE "customer_company" <> ''
  ON CONFLICT DO NOTHING;--> statement-breakpoint
UPDATE "erp_sales" s SET "customer_id" = c."id" FROM "erp_customers" c
  WHERE c."account_id" = s."account_id" AND c."name" = s."customer_company" AND s."customer_id" IS NULL;--> statement-breakpoint
INSERT INTO "erp_suppliers" ("account_id", "name")
  SELECT DISTINCT "account_id", "supplier" FROM "erp_materials" WHERE "supplier" <> ''
  ON CONFLICT DO NOTHING;
