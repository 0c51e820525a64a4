import type { DecisionSignal, Prisma } from "@/generated/prisma/client";
import type { Tx } from "@/lib/db/client";
import { notFound } from "@/lib/errors/api-error";
import { oppositeActions, sameSideActions } from "./lifecycle";
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

/**
 * The active signals a new active signal displaces for the same stock: the opposite direction (spec 3.2:
 * {buy, add} vs {reduce, sell, avoid}) and, so that a stock has one active signal per side, the older ones of its
 * own side (superseded: kept, with a note, as history).
 */
export function displacedWhere(signal: SignalSide): Prisma.DecisionSignalWhereInput {
  const action = signal.action as TSignalAction;
  return {
    targetKey: signal.targetKey,
    status: "active",
    action: { in: [...oppositeActions(action), ...sameSideActions(action)] },
    id: { not: signal.id },
  };
}

/** Marks the given signals invalidated by `signal`; each keeps a note of why (opposite or superseded) in its metadata. */
export async function invalidateVictims(
  tx: Tx,
  victims: Pick<DecisionSignal, "id" | "metadata" | "action">[],
  signal: SignalSide,
  at: Date,
): Promise<number> {
  const ownSide = sameSideActions(signal.action as TSignalAction);
  for (const victim of victims) {
    const metadata = {
      ...(parseMetadata(victim.metadata) ?? {}),
      invalidated_by_signal_id: signal.id,
      invalidated_reason: ownSide.includes(victim.action as TSignalAction) ? "superseded" : "opposite_signal",
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
  const opposite = oppositeActions(signal.action as TSignalAction);
  if (opposite.length === 0) return 0;
  const victims = await tx.decisionSignal.findMany({
    where: { targetKey: signal.targetKey, status: "active", action: { in: [...opposite] }, id: { not: signal.id } },
    select: { id: true, metadata: true, action: true },
  });
  return invalidateVictims(tx, victims, signal, at);
}

/** A new activation (a create, a renewal) also supersedes the older active signals of its own side. */
export async function invalidateDisplaced(tx: Tx, signal: SignalSide, at: Date): Promise<number> {
  const victims = await tx.decisionSignal.findMany({
    where: displacedWhere(signal),
    select: { id: true, metadata: true, action: true },
  });
  return invalidateVictims(tx, victims, signal, at);
}
