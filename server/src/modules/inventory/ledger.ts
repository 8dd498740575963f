// The stock ledger: every change of stock is a move (its document, signed quantity and the balance
// after it) appended to stock_moves, with the balance of the thing changed in the same statement
// sequence of the caller's transaction. The balance row is updated in place (row lock: concurrent
// moves of one thing queue behind each other) and its CHECK (quantity >= 0) refuses any outbound
// move past the stock, whatever runs alongside. Cancelling a document writes compensating moves.
import { sql } from 'drizzle-orm';
import { State } from '@wt/contract';
import type { Tx } from '../../lib/crud.js';
import type { Db } from '../../db/client.js';
import { AppError } from '../../lib/errors.js';
import { rows } from '../../lib/sql.js';

export type StockKind = 'item' | 'material' | 'product';

export interface Move {
  accountId: number;
  kind: StockKind;
  itemId: number;
  storeId?: number;
  docType: string;
  docId: number;
  /** Signed: positive in, negative out. */
  quantity: number;
}

/** Postgres check violation (the balance would go below 0). */
function isCheckViolation(err: unknown): boolean {
  const e = err as { code?: string; cause?: { code?: string } };
  return e?.code === '23514' || e?.cause?.code === '23514';
}

/**
 * Applies moves in the caller's transaction; answers the balances after them. An outbound move
 * past the stock throws `refusal` (default inventory.outboundAboveStock) and the transaction rolls back.
 */
export async function applyMoves(tx: Tx | Db, moves: Move[], refusal = 'inventory.outboundAboveStock'): Promise<number[]> {
  const out: number[] = [];
  // One order of locking for every document, so two documents touching the same things never deadlock.
  const ordered = [...moves].filter((m) => m.quantity !== 0).sort((a, b) => a.kind.localeCompare(b.kind) || a.itemId - b.itemId || (a.storeId ?? 0) - (b.storeId ?? 0));
  for (const m of ordered) {
    const store = m.storeId ?? 0;
    let balance: number;
    try {
      // In: the balance row is made on first use. Out: only an existing row can give (the CHECK is
      // tested on an INSERT's row before any conflict, so outbound moves update in place).
      const [r] = await rows<{ quantity: number }>(
        tx as Db,
        m.quantity > 0
          ? sql`INSERT INTO stock_balances (account_id, kind, item_id, store_id, quantity)
                VALUES (${m.accountId}, ${m.kind}, ${m.itemId}, ${store}, ${m.quantity})
                ON CONFLICT (account_id, kind, item_id, store_id) DO UPDATE SET quantity = stock_balances.quantity + EXCLUDED.quantity
                RETURNING quantity`
          : sql`UPDATE stock_balances SET quantity = quantity + ${m.quantity}
                WHERE account_id = ${m.accountId} AND kind = ${m.kind} AND item_id = ${m.itemId} AND store_id = ${store}
                RETURNING quantity`,
      );
      if (!r) throw new AppError(State.CONFLICT, refusal);
      balance = Number(r.quantity);
    } catch (err) {
      if (isCheckViolation(err)) throw new AppError(State.CONFLICT, refusal);
      throw err;
    }
    // Stamped with the clock when written (after the balance row's lock), not the transaction's
    // start: the moves of one thing are in time order as they were applied, so the stock at any
    // instant is the balance of the last move before it.
    await (tx as Db).execute(
      sql`INSERT INTO stock_moves (account_id, kind, item_id, store_id, doc_type, doc_id, quantity, balance, created_at)
          VALUES (${m.accountId}, ${m.kind}, ${m.itemId}, ${store}, ${m.docType}, ${m.docId}, ${m.quantity}, ${balance}, clock_timestamp())`,
    );
    out.push(balance);
  }
  return out;
}

/** The balance of one thing (all stores, or one). */
export async function balanceOf(db: Db | Tx, accountId: number, kind: StockKind, itemId: number, storeId?: number): Promise<number> {
  const [r] = await rows<{ n: number }>(
    db as Db,
    sql`SELECT coalesce(sum(quantity), 0)::int AS n FROM stock_balances
        WHERE account_id = ${accountId} AND kind = ${kind} AND item_id = ${itemId} ${storeId === undefined ? sql`` : sql`AND store_id = ${storeId}`}`,
  );
  return Number(r?.n ?? 0);
}

/** Groups per-item moves (model and store of each item) into one move per model and store. */
export function groupMoves(base: Omit<Move, 'itemId' | 'storeId' | 'quantity'>, items: { modelId: number; storeId: number }[], sign: 1 | -1): Move[] {
  const by = new Map<string, Move>();
  for (const it of items) {
    const key = `${it.modelId}:${it.storeId}`;
    const m = by.get(key) ?? { ...base, itemId: it.modelId, storeId: it.storeId, quantity: 0 };
    m.quantity += sign;
    by.set(key, m);
  }
  return [...by.values()];
}
