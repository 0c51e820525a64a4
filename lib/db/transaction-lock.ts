import type { Tx } from "./client";
import { activeDatabaseKind } from "./raw-sql";

/**
 * Serialises transactions that touch one logical thing (an account's positions, a stock's open signal):
 * read-check-write sequences that are safe on SQLite, whose single writer lock already orders them, but
 * not on PostgreSQL under READ COMMITTED. There a transaction-scoped advisory lock on the key makes the
 * next transaction wait; its later reads then see what the first committed. Released at commit/rollback.
 */
export async function lockInTransaction(tx: Tx, key: string): Promise<void> {
  if (activeDatabaseKind() !== "postgres") return;
  await tx.$executeRawUnsafe("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", key);
}
