import { z } from "zod";

// The generation and agent backends as the reference's newer settings page reads them (CONTRACT §14.2). DSA has one
// backend type, the AI SDK: each configured LLM channel is a backend of that type, the first the primary and the
// next its fallback (an analysis falls through the channels in order).

export const ZDraftItems = {
  items: z
    .array(z.object({ key: z.string().trim().min(1).max(128), value: z.string().max(8192) }))
    .max(200)
    .default([])
    .describe("Unsaved values over the saved ones; a value equal to mask_token keeps the saved secret"),
  mask_token: z.string().max(32).default("******"),
};

export const ZBackendDraft = z.object(ZDraftItems).meta({ id: "BackendDraft" });
export type TBackendDraft = z.infer<typeof ZBackendDraft>;

export const ZGenerationBackend = z
  .object({
    backend_id: z.string().describe("The channel's name (ai_sdk when none is configured)"),
    backend_type: z.literal("ai_sdk").describe("DSA's one backend type: the AI SDK over OpenAI-compatible channels"),
    provider_id: z.string().describe("The channel's protocol as configured (openai, deepseek, ollama, …)"),
    available: z.boolean(),
    health_status: z.enum(["not_tested", "passed", "failed"]),
    supports_json: z.boolean(),
    supports_tools: z.boolean(),
    supports_stream: z.boolean(),
    supports_vision: z.boolean().describe("Not probed here: false (the channel test's vision check says)"),
    is_primary: z.boolean(),
    fallback_target: z.string().nullable(),
    max_concurrency: z.number().int().describe("Analyses run at once (MAX_WORKERS)"),
    usage_available: z.boolean().describe("Token usage is recorded (GET /usage/summary)"),
    last_error_code: z.string().nullable(),
    last_error_message: z.string().nullable(),
    models: z.array(z.string()),
  })
  .meta({ id: "GenerationBackend" });
export type TGenerationBackend = z.infer<typeof ZGenerationBackend>;

export const ZGenerationBackendsStatus = z
  .object({
    primary_backend_id: z.string(),
    fallback_backend_id: z.string().nullable(),
    primary: ZGenerationBackend,
    fallback: ZGenerationBackend.nullable(),
    backends: z.array(ZGenerationBackend),
  })
  .meta({ id: "GenerationBackendsStatus" });
export type TGenerationBackendsStatus = z.infer<typeof ZGenerationBackendsStatus>;

export const ZSmokeTestRequest = z
  .object({
    ...ZDraftItems,
    mode: z.enum(["text", "json"]).default("json"),
    backend_id: z.string().trim().min(1).max(64).optional().describe("A channel name; default the primary"),
    timeout_seconds: z.number().int().min(1).max(300).default(60),
  })
  .meta({ id: "GenerationSmokeTestRequest" });
export type TSmokeTestRequest = z.infer<typeof ZSmokeTestRequest>;

export const ZSmokeTestResponse = z
  .object({
    success: z.boolean(),
    mode: z.enum(["text", "json"]),
    message: z.string(),
    status: ZGenerationBackend,
  })
  .meta({ id: "GenerationSmokeTestResponse" });
export type TSmokeTestResponse = z.infer<typeof ZSmokeTestResponse>;

export const ZAgentBackendStatus = z
  .object({
    backend: z.literal("ai_sdk"),
    available: z.boolean(),
    experimental: z.boolean(),
    version: z.string().nullable().describe("The AI SDK's version"),
    error_code: z.string().nullable(),
    message: z.string(),
  })
  .meta({ id: "AgentBackendStatus" });
export type TAgentBackendStatus = z.infer<typeof ZAgentBackendStatus>;
