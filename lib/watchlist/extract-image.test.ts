import { APICallError } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it, vi } from "vitest";
import type { LlmChannel } from "@/lib/analysis/llm/channels";
import type { LlmModelFactory } from "@/lib/analysis/llm/generate-report";
import { channel } from "@/tests/kits/llm-fixtures";
import { ApiError } from "@/lib/errors/api-error";
import { extractFromImage } from "./extract-image";

vi.mock("@/lib/usage/record-usage", () => ({ recordLlmUsage: vi.fn(async () => true) }));

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
const png = (bytes: Uint8Array = PNG, type = "image/png") => new File([new Uint8Array(bytes)], "shot.png", { type });

function answer(text: string) {
  return {
    content: [{ type: "text" as const, text }],
    finishReason: { unified: "stop" as const, raw: "stop" },
    usage: {
      inputTokens: { total: 900, noCache: 900, cacheRead: 0, cacheWrite: 0 },
      outputTokens: { total: 40, text: 40, reasoning: 0 },
    },
    warnings: [],
  };
}

/** Models answering by name; each records the prompt it was sent. */
function factoryOf(behaviours: Record<string, string | Error>) {
  const prompts: unknown[] = [];
  const factory: LlmModelFactory = (ch: LlmChannel, model) =>
    new MockLanguageModelV3({
      provider: ch.name,
      modelId: model,
      doGenerate: async (options) => {
        prompts.push(options.prompt);
        const behaviour = behaviours[model];
        if (behaviour === undefined || behaviour instanceof Error)
          throw behaviour ?? new Error(`no behaviour for ${model}`);
        return answer(behaviour);
      },
    });
  return { factory, prompts };
}

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

const noRaw = { include_raw: false };

describe("12.7 extract-from-image", () => {
  it("sends the image to the model and resolves what it read; a code that does not resolve never reaches codes", async () => {
    const reply = JSON.stringify({
      stocks: [
        { code: "600519", name: "贵州茅台" },
        { code: "0700.HK", name: null },
        { code: null, name: "比亚迪" },
        { code: "999999", name: "幻觉公司" },
        { code: "XYZ123", name: null },
        { code: "sh600519", name: "贵州茅台" },
      ],
    });
    const { factory, prompts } = factoryOf({ vision: reply });
    const result = await extractFromImage(
      { file: png() },
      { include_raw: true },
      { channels: [channel("v", ["vision"])], modelFactory: factory },
    );
    expect(result.codes).toEqual(["600519", "00700", "002594"]);
    // A well-formed code the stock list does not know is only a guess from a picture; one that does not read is rejected.
    expect(result.items.find((i) => i.code === "999999")).toMatchObject({ confidence: "low", name: "幻觉公司" });
    expect(result.items.filter((i) => i.code === undefined).map((i) => i.raw)).toEqual(["XYZ123"]);
    expect(result.raw_text).toBe(reply);
    const sent = JSON.stringify(prompts[0]);
    expect(sent).toContain('"type":"file"');
    expect(sent).toContain("image/png");
  });

  it("raw_text only when asked for", async () => {
    const { factory } = factoryOf({ vision: '{"stocks":[{"code":"AAPL","name":"Apple"}]}' });
    const result = await extractFromImage({ file: png() }, noRaw, {
      channels: [channel("v", ["vision"])],
      modelFactory: factory,
    });
    expect(result).toEqual({
      codes: ["AAPL"],
      items: [{ code: "AAPL", name: "苹果", confidence: "high", raw: "AAPL Apple" }],
    });
  });

  it("without an LLM channel: 400 extract_failed saying no vision-capable model is configured, never a guess", async () => {
    const error = await failure(extractFromImage({ file: png() }, noRaw, { channels: [] }));
    expect(error).toMatchObject({ status: 400, code: "extract_failed" });
    expect(error.message).toMatch(/No vision-capable model is configured/);
    expect(error.message).not.toMatch(/OPENAI|LLM_CHANNELS/);
  });

  it("a failing model falls through to the next; when all fail: 400 extract_failed with the reason scrubbed of keys", async () => {
    const ch = channel("v", ["blind", "broken"], "openai-compatible", "sk-image-secret-0123456789");
    const noImages = new APICallError({
      message: "model does not support image input",
      url: "http://x",
      requestBodyValues: {},
      statusCode: 400,
      responseBody: "{}",
      isRetryable: false,
    });
    const leaky = new APICallError({
      message: "denied for sk-image-secret-0123456789",
      url: "http://x",
      requestBodyValues: {},
      statusCode: 401,
      responseBody: "{}",
      isRetryable: false,
    });
    const { factory } = factoryOf({ blind: noImages, broken: leaky });
    const error = await failure(extractFromImage({ file: png() }, noRaw, { channels: [ch], modelFactory: factory }));
    expect(error).toMatchObject({ status: 400, code: "extract_failed" });
    expect(error.message).toMatch(/2 tried/);
    expect(error.message).not.toContain("sk-image-secret-0123456789");
    expect(error.message).toContain("[redacted]");

    const { factory: second } = factoryOf({ blind: noImages, good: '{"stocks":[{"code":"NVDA","name":null}]}' });
    const ok = await extractFromImage({ file: png() }, noRaw, {
      channels: [channel("a", ["blind"]), channel("b", ["good"])],
      modelFactory: second,
    });
    expect(ok.codes).toEqual(["NVDA"]);
  });

  it("an answer that is not the JSON asked for is a failure, not an empty list", async () => {
    const { factory } = factoryOf({ chatty: "I can see Moutai and Tencent in the picture." });
    expect(
      (
        await failure(
          extractFromImage({ file: png() }, noRaw, { channels: [channel("v", ["chatty"])], modelFactory: factory }),
        )
      ).code,
    ).toBe("extract_failed");
  });

  it("the bytes decide the type: a text file named .png is 400 unsupported_type; no file or an empty one is bad_request", async () => {
    const fake = new TextEncoder().encode("600519,贵州茅台");
    expect((await failure(extractFromImage({ file: png(fake) }, noRaw, { channels: [] }))).code).toBe(
      "unsupported_type",
    );
    expect((await failure(extractFromImage({}, noRaw, { channels: [] }))).code).toBe("bad_request");
    expect((await failure(extractFromImage(undefined, noRaw, { channels: [] }))).code).toBe("bad_request");
    expect((await failure(extractFromImage({ file: png(new Uint8Array()) }, noRaw, { channels: [] }))).code).toBe(
      "bad_request",
    );
  });

  it("JPEG, WebP and GIF are accepted by their magic bytes, whatever type the upload declared", async () => {
    const { factory } = factoryOf({ vision: '{"stocks":[]}' });
    const opts = { channels: [channel("v", ["vision"])], modelFactory: factory };
    const jpeg = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16]);
    const webp = new TextEncoder().encode("RIFF\x10\x00\x00\x00WEBPVP8 ");
    const gif = new TextEncoder().encode("GIF89a\x01\x00\x01\x00");
    for (const bytes of [jpeg, webp, gif]) {
      expect(await extractFromImage({ file: png(bytes, "application/octet-stream") }, noRaw, opts)).toEqual({
        codes: [],
        items: [],
      });
    }
  });
});
