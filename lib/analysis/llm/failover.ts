import type { LlmChannel } from "./channels";

// Every LLM call of the service (a report, a market review, reading a watchlist image) asks the configured channels
// in order, each channel's models primary first, until one answers: this is that loop, once.

/** json_schema: the provider enforces the schema (OpenAI structured output); json_object: the prompt describes it. */
export type LlmOutputMode = "json_schema" | "json_object";

/** One model of one channel, with the key and output mode to call it with. */
export interface ChannelStep {
  channel: LlmChannel;
  model: string;
  /** json_schema for "openai" channels (structured output), json_object for the others. */
  mode: LlmOutputMode;
  apiKey: string;
}

/** What one step gave: its value, or a failure that may end the loop or ask for one retry in json_object mode. */
export type StepResult<T> = { ok: true; value: T } | { ok: false; aborted?: boolean; refusedJsonSchema?: boolean };

export type FailoverResult<T> = { ok: true; value: T; step: ChannelStep } | { ok: false; aborted: boolean };

// Round-robin over a channel's keys (LLM_<CH>_API_KEYS), one step per call, shared by every kind of call.
const keyTurn = new Map<string, number>();

export function nextKey(channel: LlmChannel): string {
  if (channel.apiKeys.length <= 1) return channel.apiKey;
  const turn = keyTurn.get(channel.name) ?? 0;
  keyTurn.set(channel.name, turn + 1);
  return channel.apiKeys[turn % channel.apiKeys.length] ?? channel.apiKey;
}

/**
 * Asks `ask` for each channel's models in order until one answers. A step that failed because an "openai" endpoint
 * refused json_schema is asked once more in json_object mode. Stops when the caller's signal is aborted, a step says
 * it was aborted, or the deadline (epoch ms) has passed.
 */
export async function firstAnswer<T>(
  channels: readonly LlmChannel[],
  ask: (step: ChannelStep) => Promise<StepResult<T>>,
  options: { signal?: AbortSignal; deadline?: number } = {},
): Promise<FailoverResult<T>> {
  const timeLeft = () => options.deadline === undefined || Date.now() < options.deadline;
  for (const channel of channels) {
    const apiKey = nextKey(channel);
    for (const model of channel.models) {
      if (options.signal?.aborted) return { ok: false, aborted: true };
      if (!timeLeft()) return { ok: false, aborted: false };
      let step: ChannelStep = {
        channel,
        model,
        mode: channel.protocol === "openai" ? "json_schema" : "json_object",
        apiKey,
      };
      let result = await ask(step);
      if (
        !result.ok &&
        result.refusedJsonSchema &&
        step.mode === "json_schema" &&
        !options.signal?.aborted &&
        timeLeft()
      ) {
        step = { ...step, mode: "json_object" };
        result = await ask(step);
      }
      if (result.ok) return { ok: true, value: result.value, step };
      if (result.aborted) return { ok: false, aborted: true };
    }
  }
  return { ok: false, aborted: false };
}
