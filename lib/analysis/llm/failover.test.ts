import { describe, expect, it } from "vitest";
import type { LlmChannel } from "./channels";
import { firstAnswer, type ChannelStep, type StepResult } from "./failover";

// The one loop every LLM call goes through: channels in order, each channel's models primary first.

function channel(
  name: string,
  models: string[],
  protocol: LlmChannel["protocol"] = "openai-compatible",
  apiKeys = ["k1"],
): LlmChannel {
  return {
    name,
    baseURL: `http://${name}.invalid/v1`,
    apiKey: apiKeys[0]!,
    apiKeys,
    models,
    protocol,
    configuredProtocol: protocol,
  };
}

/** An asker answering from a table of "channel/model/mode" → result; records every step it was asked. */
function asker(answers: Record<string, StepResult<string>>) {
  const asked: string[] = [];
  const ask = async (step: ChannelStep): Promise<StepResult<string>> => {
    const key = `${step.channel.name}/${step.model}/${step.mode}`;
    asked.push(`${key}/${step.apiKey}`);
    return answers[key] ?? { ok: false };
  };
  return { ask, asked };
}

describe("LLM channel failover", () => {
  it("asks each channel's models in order until one answers, and names the step that did", async () => {
    const { ask, asked } = asker({ "b/b1/json_object": { ok: true, value: "answer" } });
    const result = await firstAnswer([channel("a", ["a1", "a2"]), channel("b", ["b1", "b2"])], ask);
    expect(result).toMatchObject({ ok: true, value: "answer", step: { model: "b1" } });
    expect(asked).toEqual(["a/a1/json_object/k1", "a/a2/json_object/k1", "b/b1/json_object/k1"]);
  });

  it("an openai channel is asked with json_schema, and once more with json_object when it refuses the schema", async () => {
    const { ask, asked } = asker({
      "o/m/json_schema": { ok: false, refusedJsonSchema: true },
      "o/m/json_object": { ok: true, value: "json" },
    });
    expect(await firstAnswer([channel("o", ["m"], "openai")], ask)).toMatchObject({
      ok: true,
      value: "json",
      step: { mode: "json_object" },
    });
    expect(asked).toEqual(["o/m/json_schema/k1", "o/m/json_object/k1"]);
  });

  it("stops at an aborted step, an aborted signal or a passed deadline; all failing is not aborted", async () => {
    const aborted = asker({ "a/a1/json_object": { ok: false, aborted: true } });
    expect(await firstAnswer([channel("a", ["a1", "a2"])], aborted.ask)).toEqual({ ok: false, aborted: true });
    expect(aborted.asked).toHaveLength(1);
    const controller = new AbortController();
    controller.abort();
    expect(await firstAnswer([channel("a", ["a1"])], asker({}).ask, { signal: controller.signal })).toEqual({
      ok: false,
      aborted: true,
    });
    const late = asker({});
    expect(await firstAnswer([channel("a", ["a1"])], late.ask, { deadline: Date.now() - 1 })).toEqual({
      ok: false,
      aborted: false,
    });
    expect(late.asked).toEqual([]);
    expect(await firstAnswer([channel("a", ["a1", "a2"])], asker({}).ask)).toEqual({ ok: false, aborted: false });
  });

  it("a channel with several keys turns to the next key on each call", async () => {
    const keys = channel("rot", ["m"], "openai-compatible", ["k1", "k2", "k3"]);
    const used: string[] = [];
    for (let i = 0; i < 4; i++) {
      const { ask, asked } = asker({ "rot/m/json_object": { ok: true, value: "x" } });
      await firstAnswer([keys], ask);
      used.push(asked[0]!.split("/").at(-1)!);
    }
    expect(new Set(used.slice(0, 3)).size).toBe(3);
    expect(used[3]).toBe(used[0]);
  });
});
