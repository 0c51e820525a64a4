import type { DecisionSignal, Prisma } from "@/generated/prisma/client";
import type { Tx } from "@/lib/db/client";
import { notFound } from "@/lib/errors/api-error";
import { oppositeActions } from "./lifecycle";
import { parseMetadata } from "./serialize";
import type { TSignalAction } from "./schemas";

/**
 * Spec 4.5 rule 1 (lazy expiry): active signals whose expires_at is at or before `at` become expired. Every
 * read and status change of signals runs this first in its transaction; a create runs it in a transaction of its own
 * just before (see create.ts), so it never holds expired rows locked while it waits its turn.
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

type SignalSide = Pick<DecisionSignal, "id" | "targetKey" | "action">;

/** The active signals of the opposite direction for the same stock (docs/api.md §4: {buy, add} vs {reduce, sell, avoid}). */
export function oppositesWhere(signal: SignalSide): Prisma.DecisionSignalWhereInput | null {
  const opposite = oppositeActions(signal.action as TSignalAction);
  if (opposite.length === 0) return null;
  return { targetKey: signal.targetKey, status: "active", action: { in: [...opposite] }, id: { not: signal.id } };
}

/** Marks the given opposite signals invalidated by `signal`; each keeps a note of why in its metadata. */
export async function invalidateVictims(
  tx: Tx,
  victims: Pick<DecisionSignal, "id" | "metadata">[],
  signal: SignalSide,
  at: Date,
): Promise<number> {
  for (const victim of victims) {
    const metadata = {
      ...(parseMetadata(victim.metadata) ?? {}),
      invalidated_by_signal_id: signal.id,
      invalidated_reason: "opposite_signal",
      invalidated_at: at.toISOString(),
      previous_status: "active",
    };
    await tx.decisionSignal.update({
      where: { id: victim.id },
      data: { status: "invalidated", metadata: JSON.stringify(metadata), updatedAt: at },
    });
  }
  return victims.length;
}

/** Spec 3.2: an active signal invalidates the active signals of the opposite direction for the same stock. */
export async function invalidateOpposites(tx: Tx, signal: SignalSide, at: Date): Promise<number> {
  const where = oppositesWhere(signal);
  if (!where) return 0;
  const victims = await tx.decisionSignal.findMany({ where, select: { id: true, metadata: true } });
  return invalidateVictims(tx, victims, signal, at);
}
