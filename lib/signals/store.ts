import type { DecisionSignal } from "@/generated/prisma/client";
import type { Tx } from "@/lib/db/client";
import { notFound } from "@/lib/http/api-error";
import { oppositeActions } from "./lifecycle";
import { parseMetadata } from "./serialize";
import type { TSignalAction } from "./schemas";

/**
 * Spec 4.5 rule 1 (lazy expiry): active signals whose expires_at is at or before `at` become expired. Every
 * read and write transaction of signals runs this first; being a write, it also takes SQLite's write lock at
 * the start of the transaction, so the dedup checks that follow see no concurrent writer.
 */
export async function expireOverdue(tx: Tx, at: Date): Promise<number> {
  const result = await tx.decisionSignal.updateMany({
    where: { status: "active", expiresAt: { lte: at } },
    data: { status: "expired", updatedAt: at },
  });
  return result.count;
}

export async function getSignalRowOrThrow(tx: Tx, id: number): Promise<DecisionSignal> {
  const row = await tx.decisionSignal.findUnique({ where: { id } });
  if (!row) throw notFound(`Decision signal ${id} not found`);
  return row;
}

/**
 * Spec 3.2: an active signal invalidates the active signals of the opposite direction for the same stock
 * (CONTRACT §4: {buy, add} vs {reduce, sell, avoid}); each keeps a note of why in its metadata.
 */
export async function invalidateOpposites(tx: Tx, signal: Pick<DecisionSignal, "id" | "targetKey" | "action">, at: Date): Promise<number> {
  const opposite = oppositeActions(signal.action as TSignalAction);
  if (opposite.length === 0) return 0;
  const victims = await tx.decisionSignal.findMany({
    where: { targetKey: signal.targetKey, status: "active", action: { in: [...opposite] }, id: { not: signal.id } },
    select: { id: true, metadata: true },
  });
  for (const victim of victims) {
    const metadata = {
      ...(parseMetadata(victim.metadata) ?? {}),
      invalidated_by_signal_id: signal.id,
      invalidated_reason: "opposite_signal",
      invalidated_at: at.toISOString(),
      previous_status: "active",
    };
    await tx.decisionSignal.update({ where: { id: victim.id }, data: { status: "invalidated", metadata: JSON.stringify(metadata), updatedAt: at } });
  }
  return victims.length;
}
