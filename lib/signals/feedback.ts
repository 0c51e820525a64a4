import { db } from "@/lib/db/client";
import { signalNow } from "./clock";
import type { TFeedbackItem, TFeedbackRequest } from "./schemas";
import { toFeedbackItem } from "./serialize";
import { getSignalRowOrThrow } from "./store";

// GET /api/v1/decision-signals/{signal_id}/feedback – the stored feedback, feedback_value null when none (spec 3.4)
export async function getFeedback(signalId: number): Promise<TFeedbackItem> {
  return db().$transaction(async (tx) => {
    await getSignalRowOrThrow(tx, signalId);
    return toFeedbackItem(signalId, await tx.decisionSignalFeedback.findUnique({ where: { signalId } }));
  });
}

// PUT /api/v1/decision-signals/{signal_id}/feedback – one feedback per signal, replaced whole on each PUT
export async function putFeedback(signalId: number, request: TFeedbackRequest): Promise<TFeedbackItem> {
  return db().$transaction(async (tx) => {
    await getSignalRowOrThrow(tx, signalId);
    const at = signalNow();
    const fields = {
      feedbackValue: request.feedback_value,
      reasonCode: request.reason_code ?? null,
      note: request.note ?? null,
      source: request.source,
      updatedAt: at,
    };
    const row = await tx.decisionSignalFeedback.upsert({
      where: { signalId },
      create: { signalId, ...fields, createdAt: at },
      update: fields,
    });
    return toFeedbackItem(signalId, row);
  });
}
