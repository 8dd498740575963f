CREATE TABLE "inv_batches" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"batch_no" text NOT NULL,
	"model_id" integer NOT NULL,
	"version_id" integer,
	"store_id" integer NOT NULL,
	"owner_id" integer,
	"stock_in_date" date NOT NULL,
	"quantity" integer NOT NULL,
	"remark" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "inv_items" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"imei" text NOT NULL,
	"iccid" text DEFAULT '' NOT NULL,
	"model_id" integer NOT NULL,
	"version_id" integer,
	"store_id" integer NOT NULL,
	"owner_id" integer,
	"state" smallint DEFAULT 1 NOT NULL,
	"batch_id" integer,
	"sale_id" integer,
	"expires_at" timestamp with time zone,
	"device_id" integer,
	"prev_account_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "inv_models" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"name" text NOT NULL,
	"device_model_id" integer,
	"remark" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "inv_owners" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"name" text NOT NULL,
	"remark" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "inv_sales" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"sale_no" text NOT NULL,
	"customer_id" integer NOT NULL,
	"model_id" integer NOT NULL,
	"quantity" integer NOT NULL,
	"sold_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone,
	"remark" text DEFAULT '' NOT NULL,
	"voided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "inv_stores" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"name" text NOT NULL,
	"seeded" boolean DEFAULT false NOT NULL,
	"address" text DEFAULT '' NOT NULL,
	"remark" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "inv_versions" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"name" text NOT NULL,
	"kind" smallint DEFAULT 1 NOT NULL,
	"remark" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stock_balances" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"kind" text NOT NULL,
	"item_id" integer NOT NULL,
	"store_id" integer DEFAULT 0 NOT NULL,
	"quantity" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "stock_balances_not_negative" CHECK ("stock_balances"."quantity" >= 0)
);
--> statement-breakpoint
CREATE TABLE "stock_moves" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"kind" text NOT NULL,
	"item_id" integer NOT NULL,
	"store_id" integer DEFAULT 0 NOT NULL,
	"doc_type" text NOT NULL,
	"doc_id" integer NOT NULL,
	"quantity" integer NOT NULL,
	"balance" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "erp_invoices" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"order_id" integer NOT NULL,
	"company" text NOT NULL,
	"invoice_date" date NOT NULL,
	"amount_cents" bigint DEFAULT 0 NOT NULL,
	"number" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "erp_materials" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"name" text NOT NULL,
	"supplier" text DEFAULT '' NOT NULL,
	"remark" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "erp_products" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"model_name" text NOT NULL,
	"colour" smallint NOT NULL,
	"remark" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "erp_purchase_batches" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL,
	"batch_date" date NOT NULL,
	"quantity" integer NOT NULL,
	"unit_price_cents" bigint DEFAULT 0 NOT NULL,
	"paid_cents" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "erp_purchases" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"order_no" text NOT NULL,
	"po_no" text NOT NULL,
	"content" text NOT NULL,
	"purpose" smallint NOT NULL,
	"amount_cents" bigint DEFAULT 0 NOT NULL,
	"audit" smallint DEFAULT 1 NOT NULL,
	"audited_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "erp_sale_devices" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"sale_id" integer NOT NULL,
	"imei" text NOT NULL,
	"iccid" text DEFAULT '' NOT NULL,
	"expires_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "erp_sales" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"sales_no" text NOT NULL,
	"customer_company" text NOT NULL,
	"product_id" integer NOT NULL,
	"quantity" integer NOT NULL,
	"unit_price_cents" bigint DEFAULT 0 NOT NULL,
	"receivable_cents" bigint DEFAULT 0 NOT NULL,
	"actual_cents" bigint DEFAULT 0 NOT NULL,
	"pay_method" smallint NOT NULL,
	"pay_type" smallint NOT NULL,
	"invoicing" smallint DEFAULT 2 NOT NULL,
	"ship_date" date,
	"salesperson" text DEFAULT '' NOT NULL,
	"sold_at" timestamp with time zone NOT NULL,
	"version" text DEFAULT '' NOT NULL,
	"discarded" boolean DEFAULT false NOT NULL,
	"ship_state" smallint DEFAULT 1 NOT NULL,
	"tracking_no" text DEFAULT '' NOT NULL,
	"warehouse_id" integer,
	"recipient" text DEFAULT '' NOT NULL,
	"phone" text DEFAULT '' NOT NULL,
	"address" text DEFAULT '' NOT NULL,
	"outbound_no" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "erp_stock_records" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"kind" smallint NOT NULL,
	"item_id" integer NOT NULL,
	"quantity" integer NOT NULL,
	"balance" integer NOT NULL,
	"record_date" date NOT NULL,
	"remark" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "inv_batches_no_uq" ON "inv_batches" USING btree ("batch_no");--> statement-breakpoint
CREATE INDEX "inv_batches_account_idx" ON "inv_batches" USING btree ("account_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "inv_items_imei_uq" ON "inv_items" USING btree ("imei");--> statement-breakpoint
CREATE INDEX "inv_items_model_store_idx" ON "inv_items" USING btree ("model_id","store_id","state","id");--> statement-breakpoint
CREATE INDEX "inv_items_account_idx" ON "inv_items" USING btree ("account_id","id");--> statement-breakpoint
CREATE INDEX "inv_items_batch_idx" ON "inv_items" USING btree ("batch_id");--> statement-breakpoint
CREATE INDEX "inv_items_sale_idx" ON "inv_items" USING btree ("sale_id");--> statement-breakpoint
CREATE INDEX "inv_items_store_idx" ON "inv_items" USING btree ("store_id");--> statement-breakpoint
CREATE INDEX "inv_items_owner_idx" ON "inv_items" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "inv_items_version_idx" ON "inv_items" USING btree ("version_id");--> statement-breakpoint
CREATE UNIQUE INDEX "inv_models_name_uq" ON "inv_models" USING btree ("account_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "inv_owners_name_uq" ON "inv_owners" USING btree ("account_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "inv_sales_no_uq" ON "inv_sales" USING btree ("sale_no");--> statement-breakpoint
CREATE INDEX "inv_sales_account_idx" ON "inv_sales" USING btree ("account_id","id");--> statement-breakpoint
CREATE INDEX "inv_sales_customer_idx" ON "inv_sales" USING btree ("customer_id");--> statement-breakpoint
CREATE UNIQUE INDEX "inv_stores_name_uq" ON "inv_stores" USING btree ("account_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "inv_versions_name_uq" ON "inv_versions" USING btree ("account_id","kind","name");--> statement-breakpoint
CREATE UNIQUE INDEX "stock_balances_uq" ON "stock_balances" USING btree ("account_id","kind","item_id","store_id");--> statement-breakpoint
CREATE INDEX "stock_moves_item_idx" ON "stock_moves" USING btree ("account_id","kind","item_id","store_id","id");--> statement-breakpoint
CREATE INDEX "stock_moves_doc_idx" ON "stock_moves" USING btree ("doc_type","doc_id");--> statement-breakpoint
CREATE INDEX "erp_invoices_order_idx" ON "erp_invoices" USING btree ("order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "erp_invoices_number_uq" ON "erp_invoices" USING btree ("account_id","number");--> statement-breakpoint
CREATE UNIQUE INDEX "erp_materials_name_uq" ON "erp_materials" USING btree ("account_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "erp_products_model_uq" ON "erp_products" USING btree ("account_id","model_name");--> statement-breakpoint
CREATE INDEX "erp_purchase_batches_order_idx" ON "erp_purchase_batches" USING btree ("order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "erp_purchases_order_uq" ON "erp_purchases" USING btree ("account_id","order_no");--> statement-breakpoint
CREATE UNIQUE INDEX "erp_purchases_po_uq" ON "erp_purchases" USING btree ("account_id","po_no");--> statement-breakpoint
CREATE UNIQUE INDEX "erp_sale_devices_imei_uq" ON "erp_sale_devices" USING btree ("account_id","imei");--> statement-breakpoint
CREATE INDEX "erp_sale_devices_sale_idx" ON "erp_sale_devices" USING btree ("sale_id");--> statement-breakpoint
CREATE UNIQUE INDEX "erp_sales_no_uq" ON "erp_sales" USING btree ("account_id","sales_no");--> statement-breakpoint
CREATE INDEX "erp_sales_account_idx" ON "erp_sales" USING btree ("account_id","id");--> statement-breakpoint
CREATE INDEX "erp_stock_records_item_idx" ON "erp_stock_records" USING btree ("account_id","kind","item_id","id");