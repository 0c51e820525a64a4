import { generateText, type LanguageModelUsage } from "ai";
import { logger } from "@/lib/log/logger";
import type { LlmCallType } from "@/lib/usage/record-usage";
import { settleAttempt, type SettledAttempt } from "./attempt-record";
import { channelSecrets, llmChannels, type LlmChannel } from "./channels";
import { firstAnswer, type StepResult } from "./failover";
import {
  classify,
  DEFAULT_LLM_TEMPERATURE,
  httpModelFactory,
  numberSetting,
  settingsTimeoutMs,
  type LlmFailureCode,
  type LlmModelFactory,
} from "./generate-report";

// One plain chat completion over the configured channels and their models, in order, until one answer passes the
// caller's check: the market review's narrative and the screening re-rank. Every call is recorded in LlmUsage under
// the caller's call type, and error texts are scrubbed of the configured keys. No JSON mode is sent: a caller that
// wants JSON parses the text in its check.

export type TextLlmFailureCode = LlmFailureCode | "empty_answer";

export type TextLlmAttempt = SettledAttempt<TextLlmFailureCode>;

export type TextLlmResult<T> =
  | { ok: true; value: T; channel: string; model: string; attempts: TextLlmAttempt[] }
  | { ok: false; reason: string; attempts: TextLlmAttempt[] };

export interface TextLlmOptions {
  signal?: AbortSignal;
  queryId?: string | null;
  channels?: readonly LlmChannel[];
  timeoutMs?: number;
  modelFactory?: LlmModelFactory;
  recordUsage?: boolean;
}

/** What the caller makes of an answer: its value, or why it cannot be used. */
export type TextCheck<T> = (text: string) => { ok: true; value: T } | { ok: false; reason: string };

export interface TextLlmRequest<T> {
  callType: LlmCallType;
  /** The code the usage row names (MARKET for a review, SCREEN for a screening run). */
  stockCode: string;
  /** The log lines' component and message prefix. */
  component: string;
  system: string;
  user: string;
  check: TextCheck<T>;
}

interface Failure {
  code: TextLlmFailureCode;
  reason: string;
  status?: number;
}

export async function callForText<T>(
  request: TextLlmRequest<T>,
  options: TextLlmOptions = {},
): Promise<TextLlmResult<T>> {
  const channels = options.channels ?? llmChannels();
  const attempts: TextLlmAttempt[] = [];
  if (channels.length === 0) return { ok: false, reason: "no LLM channel configured", attempts };

  const secrets = channelSecrets(channels);
  const factory = options.modelFactory ?? httpModelFactory;
  const timeoutMs = options.timeoutMs ?? settingsTimeoutMs();
  const temperature = numberSetting("LLM_TEMPERATURE", 0, 2) ?? DEFAULT_LLM_TEMPERATURE;
  const maxOutputTokens = numberSetting("LLM_MAX_TOKENS", 256, 200_000);
  const log = logger.child({ component: request.component, query_id: options.queryId ?? undefined });

  const answer = await firstAnswer(
    channels,
    async ({ channel, model, mode, apiKey }): Promise<StepResult<T>> => {
      const timeout = AbortSignal.timeout(timeoutMs);
      const abortSignal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
      const started = performance.now();
      let failure: Failure | undefined;
      let usage: LanguageModelUsage | undefined;
      let value: T | undefined;
      try {
        // The factory's mode only picks the provider class; no response_format is sent for plain text.
        const result = await generateText({
          model: factory(channel, model, mode, apiKey),
          system: request.system,
          messages: [{ role: "user", content: request.user }],
          temperature,
          maxOutputTokens,
          maxRetries: 0,
          abortSignal,
        });
        usage = result.usage;
        if (result.text.trim() === "") failure = { code: "empty_answer", reason: "the answer is empty" };
        else {
          const checked = request.check(result.text);
          if (checked.ok) value = checked.value;
          else failure = { code: "data_check", reason: `unusable answer: ${checked.reason}` };
        }
      } catch (error) {
        const classified = classify(error, {
          timedOut: timeout.aborted,
          callerAborted: options.signal?.aborted === true,
          timeoutMs,
        });
        failure = { code: classified.code, reason: classified.reason, status: classified.status };
      }
      attempts.push(
        await settleAttempt({
          channel,
          model,
          started,
          usage,
          failure,
          secrets,
          log,
          logPrefix: request.component,
          usageRow:
            options.recordUsage === false
              ? null
              : { callType: request.callType, stockCode: request.stockCode, queryId: options.queryId ?? null },
        }),
      );
      return failure ? { ok: false, aborted: failure.code === "aborted" } : { ok: true, value: value as T };
    },
    { signal: options.signal },
  );
  if (answer.ok)
    return { ok: true, value: answer.value, channel: answer.step.channel.name, model: answer.step.model, attempts };
  if (answer.aborted) return { ok: false, reason: "aborted by the caller", attempts };
  const last = attempts.at(-1);
  return {
    ok: false,
    reason: `all ${attempts.length} LLM attempt(s) failed; last (${last?.channel}/${last?.model}): ${last?.reason}`,
    attempts,
  };
}
