import { now } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { logger } from "@/lib/log/logger";

// One LlmUsage row per LLM call, successful or not, for the usage endpoints (reference-service.md §4).
// Recording is best effort: a failure is logged and never fails the analysis that made the call.

export type LlmCallType = "analysis" | "agent" | "market_review" | (string & {});

export interface LlmUsageInput {
  callType: LlmCallType;
  channel?: string | null;
  model: string;
  stockCode?: string | null;
  queryId?: string | null;
  promptTokens?: number | null;
  completionTokens?: number | null;
  /** Defaults to prompt + completion when the provider did not report a total. */
  totalTokens?: number | null;
  durationMs: number;
  success: boolean;
  /** Short failure reason; must already be free of secrets (it is stored and shown). */
  error?: string | null;
  calledAt?: Date;
}

const MAX_ERROR = 500;

function count(n: number | null | undefined): number {
  return typeof n === "number" && Number.isFinite(n) && n > 0 ? Math.round(n) : 0;
}

/** Writes the row; resolves true when stored, false (after logging) when not. Never rejects. */
export async function recordLlmUsage(input: LlmUsageInput): Promise<boolean> {
  const promptTokens = count(input.promptTokens);
  const completionTokens = count(input.completionTokens);
  const totalTokens = count(input.totalTokens) || promptTokens + completionTokens;
  try {
    await db().llmUsage.create({
      data: {
        calledAt: input.calledAt ?? now(),
        callType: input.callType,
        channel: input.channel ?? null,
        model: input.model.slice(0, 200),
        stockCode: input.stockCode ?? null,
        queryId: input.queryId ?? null,
        promptTokens,
        completionTokens,
        totalTokens,
        durationMs: Math.max(0, Math.round(input.durationMs)),
        success: input.success,
        error: input.error ? input.error.slice(0, MAX_ERROR) : null,
      },
    });
    return true;
  } catch (error) {
    logger.warn(
      {
        err_name: (error as Error)?.name,
        err: String((error as Error)?.message ?? error).slice(0, 300),
        model: input.model,
        call_type: input.callType,
      },
      "llm usage not recorded",
    );
    return false;
  }
}
