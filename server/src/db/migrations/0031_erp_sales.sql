CREATE TABLE "erp_deliveries" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"sale_id" integer NOT NULL,
	"warehouse_id" integer NOT NULL,
	"quantity" integer NOT NULL,
	"delivered_on" date NOT NULL,
	"inv_sale_id" integer,
	"remark" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "erp_returns" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"direction" smallint NOT NULL,
	"delivery_id" integer,
	"line_id" integer,
	"warehouse_id" integer NOT NULL,
	"quantity" integer NOT NULL,
	"imeis" text[] DEFAULT '{}'::text[] NOT NULL,
	"returned_on" date NOT NULL,
	"remark" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "erp_sale_invoices" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"sale_id" integer NOT NULL,
	"number" text NOT NULL,
	"invoice_date" date NOT NULL,
	"amount_cents" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "erp_sale_payments" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"sale_id" integer NOT NULL,
	"paid_on" date NOT NULL,
	"amount_cents" bigint DEFAULT 0 NOT NULL,
	"remark" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "erp_stock_take_lines" (
	"id" serial PRIMARY KEY NOT NULL,
	"take_id" integer NOT NULL,
	"kind" smallint NOT NULL,
	"item_id" integer NOT NULL,
	"expected" integer NOT NULL,
	"counted" integer
);
--> statement-breakpoint
CREATE TABLE "erp_stock_takes" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"warehouse_id" integer NOT NULL,
	"state" smallint DEFAULT 1 NOT NULL,
	"remark" text DEFAULT '' NOT NULL,
	"confirmed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "erp_products" ADD COLUMN "inv_model_id" integer;--> statement-breakpoint
CREATE INDEX "erp_deliveries_sale_idx" ON "erp_deliveries" USING btree ("sale_id");--> statement-breakpoint
CREATE INDEX "erp_deliveries_inv_sale_idx" ON "erp_deliveries" USING btree ("inv_sale_id");--> statement-breakpoint
CREATE INDEX "erp_returns_delivery_idx" ON "erp_returns" USING btree ("delivery_id");--> statement-breakpoint
CREATE INDEX "erp_returns_line_idx" ON "erp_returns" USING btree ("line_id");--> statement-breakpoint
CREATE INDEX "erp_returns_account_idx" ON "erp_returns" USING btree ("account_id","id");--> statement-breakpoint
CREATE INDEX "erp_sale_invoices_sale_idx" ON "erp_sale_invoices" USING btree ("sale_id");--> statement-breakpoint
CREATE UNIQUE INDEX "erp_sale_invoices_number_uq" ON "erp_sale_invoices" USING btree ("account_id","number");--> statement-breakpoint
CREATE INDEX "erp_sale_payments_sale_idx" ON "erp_sale_payments" USING btree ("sale_id");--> statement-breakpoint
CREATE INDEX "erp_stock_take_lines_take_idx" ON "erp_stock_take_lines" USING btree ("take_id");--> statement-breakpoint
CREATE INDEX "erp_stock_takes_account_idx" ON "erp_stock_takes" USING btree ("account_id","id");