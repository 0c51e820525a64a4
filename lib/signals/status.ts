import { db } from "@/lib/db/client";
import { ApiError } from "@/lib/errors/api-error";
import { signalNow } from "./clock";
import { isTerminal } from "./lifecycle";
import { SIGNAL_STATUSES, type TDecisionSignalItem, type TSignalStatus } from "./schemas";
import { toSignalItem } from "./serialize";
import { expireOverdue, getSignalRowOrThrow } from "./store";

export interface StatusUpdate {
  status: string;
  metadata?: Record<string, unknown> | null;
}

function isStatus(value: string): value is TSignalStatus {
  return (SIGNAL_STATUSES as readonly string[]).includes(value);
}

/**
 * PATCH /api/v1/decision-signals/{signal_id}/status (spec 3.2): any legal status; from a terminal status back
 * to active → 400; metadata, when the key is sent, replaces the stored metadata whole (null clears it).
 * Overdue signals are expired first, so an expired-but-not-yet-read signal cannot be patched back to active.
 */
export async function updateSignalStatus(id: number, update: StatusUpdate): Promise<TDecisionSignalItem> {
  if (!isStatus(update.status)) {
    throw ApiError.of(
      "invalid_signal_status",
      `Illegal status "${update.status}": use one of ${SIGNAL_STATUSES.join(", ")}`,
    );
  }
  const status = update.status;
  return db().$transaction(async (tx) => {
    const at = signalNow();
    await expireOverdue(tx, at);
    const row = await getSignalRowOrThrow(tx, id);
    if (status === "active" && isTerminal(row.status as TSignalStatus)) {
      throw ApiError.of(
        "invalid_status_transition",
        `Signal ${id} is ${row.status}, a terminal status: it cannot become active again`,
      );
    }
    const data: { status: string; updatedAt: Date; metadata?: string | null } = { status, updatedAt: at };
    if ("metadata" in update) data.metadata = update.metadata == null ? null : JSON.stringify(update.metadata);
    return toSignalItem(await tx.decisionSignal.update({ where: { id }, data }));
  });
}
