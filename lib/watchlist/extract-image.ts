import { Output, generateText } from "ai";
import { channelSecrets, llmChannels, type LlmChannel } from "@/lib/analysis/llm/channels";
import { firstAnswer, type LlmOutputMode, type StepResult } from "@/lib/analysis/llm/failover";
import { classify, httpModelFactory, scrub, type LlmModelFactory } from "@/lib/analysis/llm/generate-report";
import { ApiError } from "@/lib/errors/api-error";
import { logger } from "@/lib/log/logger";
import { recordLlmUsage } from "@/lib/usage/record-usage";
import { resolveCandidates, type Candidate } from "./resolve";
import {
  MAX_IMAGE_BYTES,
  MAX_IMPORT_ENTRIES,
  ZImageExtraction,
  type TExtractImageForm,
  type TExtractImageQuery,
  type TExtractImageResult,
  type TImageExtraction,
} from "./schemas";

// POST /api/v1/stocks/extract-from-image (docs/api.md §12.7): the codes and names a model reads off a broker screenshot,
// each then resolved like any import entry, so the model can only propose; what does not resolve never reaches
// `codes`. The configured LLM channels are tried in order (a model that does not take images fails and the next one
// is tried) within one time budget under the client's 60 s timeout. Without a channel: 400 extract_failed, no guess.

/** All attempts together stay under the reference client's 60 s timeout. */
const BUDGET_MS = 55_000;

const IMAGE_TYPES: readonly { mediaType: string; magic: (bytes: Uint8Array) => boolean }[] = [
  {
    mediaType: "image/png",
    magic: (b) => [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((x, i) => b[i] === x),
  },
  { mediaType: "image/jpeg", magic: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  { mediaType: "image/webp", magic: (b) => ascii(b, 0, 4) === "RIFF" && ascii(b, 8, 12) === "WEBP" },
  { mediaType: "image/gif", magic: (b) => /^GIF8[79]a$/.test(ascii(b, 0, 6)) },
];

function ascii(bytes: Uint8Array, from: number, to: number): string {
  return String.fromCharCode(...bytes.subarray(from, to));
}

// Said plainly, without setting names: the reference's client reads a message naming OpenAI variables as an
// upstream model's rejection of the image.
const NO_CHANNEL =
  "No vision-capable model is configured: reading a screenshot needs an AI model channel whose model reads images. " +
  "Add one in Settings → AI models, then try again";

const PROMPT =
  "The image is a screenshot of a broker app, a watchlist or a table of securities (China A-shares, Hong Kong or US " +
  "stocks, indices). List every security you can read in it, top to bottom: its code exactly as printed (digits or " +
  "letters, with any exchange prefix or suffix) and its name exactly as printed. Use null for a code or name that is " +
  "not visible. Do not complete a code you cannot read fully and do not add securities that are not in the image. " +
  'Answer with JSON only, in this shape: {"stocks": [{"code": "600519", "name": "贵州茅台"}]}; an image without ' +
  'securities is {"stocks": []}.';

interface Image {
  bytes: Uint8Array;
  mediaType: string;
}

async function readImage(file: File | undefined): Promise<Image> {
  if (!file) throw ApiError.of("bad_request", 'No image: send it as the multipart/form-data field "file"');
  if (file.size > MAX_IMAGE_BYTES)
    throw ApiError.of("payload_too_large", `The image is larger than ${MAX_IMAGE_BYTES / 1024 / 1024} MB`);
  if (file.size === 0) throw ApiError.of("bad_request", "The image file is empty");
  const bytes = new Uint8Array(await file.arrayBuffer());
  // The bytes decide, not the declared type: a renamed file is refused here rather than by the model.
  const type = IMAGE_TYPES.find((t) => t.magic(bytes));
  if (!type) {
    throw ApiError.of(
      "unsupported_type",
      `Unsupported image type (${file.type || "unknown"}): send a PNG, JPEG, WebP or GIF image`,
    );
  }
  return { bytes, mediaType: type.mediaType };
}

export interface ExtractOptions {
  signal?: AbortSignal;
  /** Tests: the channels and a model factory without HTTP. */
  channels?: readonly LlmChannel[];
  modelFactory?: LlmModelFactory;
}

interface Reading {
  extraction: TImageExtraction;
  text: string;
}

interface Failure {
  status?: number;
  reason: string;
  code: string;
}

const isFailure = (outcome: Reading | Failure): outcome is Failure => "reason" in outcome;

/** An "openai" endpoint that rejects response_format json_schema: the same model is asked again in JSON mode. */
function rejectsJsonSchema(status: number | undefined, reason: string): boolean {
  return (status === 400 || status === 422) && /response_format|json_schema|structured/i.test(reason);
}

async function readWithModels(image: Image, options: ExtractOptions): Promise<Reading> {
  const channels = options.channels ?? llmChannels();
  if (channels.length === 0) throw ApiError.of("extract_failed", NO_CHANNEL, { reason_code: "no_vision_channel" });
  const secrets = channelSecrets(channels);
  const factory = options.modelFactory ?? httpModelFactory;
  const deadline = Date.now() + BUDGET_MS;
  const log = logger.child({ component: "watchlist-image" });
  const failures: string[] = [];

  const attempt = async (
    channel: LlmChannel,
    model: string,
    mode: LlmOutputMode,
    apiKey: string,
  ): Promise<Reading | Failure> => {
    const timeoutMs = Math.max(1, deadline - Date.now());
    const timeout = AbortSignal.timeout(timeoutMs);
    const abortSignal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    const started = performance.now();
    let outcome: Reading | Failure;
    let usage: { inputTokens?: number; outputTokens?: number; totalTokens?: number } | undefined;
    try {
      const result = await generateText({
        model: factory(channel, model, mode, apiKey),
        system: PROMPT,
        messages: [
          {
            role: "user",
            content: [
              { type: "text", text: "Read the securities in this image." },
              { type: "image", image: image.bytes, mediaType: image.mediaType },
            ],
          },
        ],
        output: Output.object({ schema: ZImageExtraction }),
        temperature: 0,
        maxRetries: 0,
        abortSignal,
      });
      usage = result.usage;
      outcome = { extraction: result.output, text: result.text };
    } catch (error) {
      const failure = classify(error, {
        timedOut: timeout.aborted,
        callerAborted: options.signal?.aborted === true,
        timeoutMs,
      });
      usage = failure.usage;
      outcome = { status: failure.status, reason: scrub(failure.reason, secrets), code: failure.code };
    }
    const failure = isFailure(outcome) ? outcome : null;
    const durationMs = Math.round(performance.now() - started);
    log[failure ? "warn" : "info"](
      { channel: channel.name, model, mode, ms: durationMs, reason: failure?.reason },
      failure ? "image read failed" : "image read",
    );
    await recordLlmUsage({
      callType: "image_extract",
      channel: channel.name,
      model,
      promptTokens: usage?.inputTokens,
      completionTokens: usage?.outputTokens,
      totalTokens: usage?.totalTokens,
      durationMs,
      success: !failure,
      error: failure ? `${failure.code}: ${failure.reason}` : null,
    });
    return outcome;
  };

  const answer = await firstAnswer(
    channels,
    async ({ channel, model, mode, apiKey }): Promise<StepResult<Reading>> => {
      const outcome = await attempt(channel, model, mode, apiKey);
      if (!isFailure(outcome)) return { ok: true, value: outcome };
      const refusedJsonSchema = mode === "json_schema" && rejectsJsonSchema(outcome.status, outcome.reason);
      // A model asked again in JSON mode counts once, by its last answer.
      if (!refusedJsonSchema) failures.push(`${channel.name}/${model}: ${outcome.reason}`);
      return { ok: false, aborted: outcome.code === "aborted", refusedJsonSchema };
    },
    { signal: options.signal, deadline },
  );
  if (answer.ok) return answer.value;
  if (answer.aborted) throw ApiError.of("extract_failed", "The request was cancelled");
  const last = failures.at(-1) ?? `no answer within ${BUDGET_MS / 1000} s`;
  throw ApiError.of(
    "extract_failed",
    `No model could read the image (${failures.length} tried; last ${last}). A model that accepts images is needed`,
  );
}

// POST /api/v1/stocks/extract-from-image
export async function extractFromImage(
  form: TExtractImageForm | undefined,
  query: TExtractImageQuery,
  options: ExtractOptions = {},
): Promise<TExtractImageResult> {
  const image = await readImage(form?.file);
  const reading = await readWithModels(image, options);
  const candidates: Candidate[] = reading.extraction.stocks.slice(0, MAX_IMPORT_ENTRIES).flatMap((stock) => {
    const code = stock.code?.trim() || undefined;
    const name = stock.name?.trim() || undefined;
    return code || name ? [{ code, name, source: "image" as const }] : [];
  });
  const result = resolveCandidates(candidates);
  return query.include_raw ? { ...result, raw_text: reading.text } : result;
}
