import type { LanguageModelUsage } from "ai";
import type { Logger } from "pino";
import { recordLlmUsage, type LlmCallType } from "@/lib/usage/record-usage";
import type { LlmChannel } from "./channels";
import { redactSecretText } from "@/lib/log/sanitize";

// What every LLM call leaves behind, whichever kind it was (a report, a market review, a screening re-rank): one
// attempt record with its reason scrubbed of the configured keys, one log line, and one usage row.

const GENERIC_SECRETS = [/\bBearer\s+[A-Za-z0-9._~+/=-]+/gi, /\bsk-[A-Za-z0-9_-]{6,}/g];

/** Cuts a provider's error text and removes the configured keys and anything that looks like a key. */
export function scrub(text: string, secrets: readonly string[], max = 300): string {
  let out = redactSecretText(text, secrets, "[redacted]");
  for (const re of GENERIC_SECRETS) out = out.replace(re, "[redacted]");
  out = out.replace(/\s+/g, " ").trim();
  return out.length > max ? `${out.slice(0, max)}…` : out;
}

function usageTokens(usage: LanguageModelUsage | undefined) {
  const promptTokens = usage?.inputTokens ?? 0;
  const completionTokens = usage?.outputTokens ?? 0;
  return { promptTokens, completionTokens, totalTokens: usage?.totalTokens ?? promptTokens + completionTokens };
}

export interface SettledAttempt<C extends string> {
  channel: string;
  model: string;
  ok: boolean;
  /** "ok", or why the answer was not used (no secrets). */
  reason: string;
  code: "ok" | C;
  /** HTTP status when the provider answered with an error. */
  status?: number;
  ms: number;
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
}

export interface AttemptToSettle<C extends string> {
  channel: LlmChannel;
  model: string;
  /** performance.now() when the call started. */
  started: number;
  usage: LanguageModelUsage | undefined;
  failure: { code: C; reason: string; status?: number } | undefined;
  secrets: readonly string[];
  log: Logger;
  /** Extra fields of the log line (the output mode of a report call). */
  logFields?: Record<string, unknown>;
  /** The log line's message prefix: "<prefix> call failed" or "… succeeded". */
  logPrefix: string;
  /** The usage row, or null when the caller records none. */
  usageRow: { callType: LlmCallType; stockCode: string | null; queryId: string | null } | null;
}

export async function settleAttempt<C extends string>(a: AttemptToSettle<C>): Promise<SettledAttempt<C>> {
  const ms = Math.round(performance.now() - a.started);
  const t = usageTokens(a.usage);
  const reason = a.failure ? scrub(a.failure.reason, a.secrets) : "ok";
  const attempt: SettledAttempt<C> = {
    channel: a.channel.name,
    model: a.model,
    ok: !a.failure,
    reason,
    code: a.failure?.code ?? "ok",
    ...(a.failure?.status !== undefined ? { status: a.failure.status } : {}),
    ms,
    ...t,
  };
  (a.failure ? a.log.warn.bind(a.log) : a.log.info.bind(a.log))(
    {
      channel: a.channel.name,
      model: a.model,
      ...a.logFields,
      ok: attempt.ok,
      code: attempt.code,
      ms,
      reason: a.failure ? reason : undefined,
      total_tokens: t.totalTokens,
    },
    a.failure ? `${a.logPrefix} call failed` : `${a.logPrefix} call succeeded`,
  );
  if (a.usageRow) {
    await recordLlmUsage({
      ...a.usageRow,
      channel: a.channel.name,
      model: a.model,
      ...t,
      durationMs: ms,
      success: !a.failure,
      error: a.failure ? `${attempt.code}: ${reason}` : null,
    });
  }
  return attempt;
}
