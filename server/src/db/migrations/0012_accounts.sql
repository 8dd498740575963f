-- Account search (login name, company, contact, display name, anywhere in the text) through a
-- trigram index: the same expression the search query matches with ILIKE.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "accounts_search_trgm_idx" ON "accounts" USING gin ((login_name || chr(9) || company_name || chr(9) || contact || chr(9) || username) gin_trgm_ops);
