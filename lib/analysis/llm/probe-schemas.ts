import { z } from "zod";

// docs/api.md §12.5.2/§12.5.3: the settings page's "discover models" and "test channel" buttons. The body
// describes a channel as the form holds it (maybe unsaved); an empty or masked api_key means "the saved key
// of the channel with this name". Results are probe outcomes: a remote failure is 200 with success=false.

const ZProbeBase = {
  name: z.string().trim().min(1).max(64).describe("Channel name as in LLM_CHANNELS"),
  protocol: z.string().trim().max(32).default("openai").describe("openai, deepseek, ollama, gemini, anthropic, …"),
  base_url: z
    .string()
    .trim()
    .max(2048)
    .default("")
    .describe("Empty: the saved base URL of the channel, else the protocol's default"),
  api_key: z.string().max(4096).default("").describe('Empty or the mask token "******": the saved key of the channel'),
  timeout_seconds: z.number().min(1).max(120).default(20),
};

export const ZDiscoverModelsRequest = z
  .object({ ...ZProbeBase, models: z.array(z.string().max(200)).max(200).optional() })
  .meta({ id: "DiscoverModelsRequest" });

export const CAPABILITY_CHECKS = ["json", "tools", "vision", "stream"] as const;
export const API_SURFACES = ["chat_completions", "responses"] as const;

export const ZTestChannelRequest = z
  .object({
    ...ZProbeBase,
    models: z.array(z.string().trim().min(1).max(200)).max(50).default([]),
    enabled: z.boolean().default(true),
    capability_checks: z.array(z.enum(CAPABILITY_CHECKS)).max(4).optional(),
    api_surface: z
      .enum(API_SURFACES)
      .optional()
      .describe("The API the reference's client asks for; DSA calls chat completions (resolved_api_surface says)"),
  })
  .meta({ id: "TestChannelRequest" });

/** Where a probe stopped: the policy/address check, the connection, the credentials, or reading the answer. */
export const PROBE_STAGES = ["validate", "connect", "auth", "request", "response"] as const;

const ZProbeOutcome = {
  success: z.boolean(),
  message: z.string(),
  error: z.string().nullable().describe("Short reason (a status line, never the remote body)"),
  error_code: z.string().nullable(),
  stage: z.enum(PROBE_STAGES).nullable(),
  retryable: z.boolean().nullable(),
  details: z.record(z.string(), z.unknown()),
  resolved_protocol: z.string(),
  latency_ms: z.number().int().nonnegative().nullable(),
};

export const ZDiscoverModelsResponse = z
  .object({ ...ZProbeOutcome, models: z.array(z.string()) })
  .meta({ id: "DiscoverModelsResponse" });

export const ZCapabilityResult = z
  .object({
    status: z.enum(["passed", "failed", "skipped"]),
    message: z.string(),
    error_code: z.string().nullable(),
    stage: z.enum(PROBE_STAGES).nullable(),
    retryable: z.boolean().nullable(),
    latency_ms: z.number().int().nonnegative().nullable(),
    details: z.record(z.string(), z.unknown()),
  })
  .meta({ id: "CapabilityResult" });

export const ZTestChannelResponse = z
  .object({
    ...ZProbeOutcome,
    resolved_model: z.string().nullable(),
    resolved_api_surface: z.enum(API_SURFACES).describe("The API the test called: always chat completions"),
    capability_results: z.record(z.string(), ZCapabilityResult),
  })
  .meta({ id: "TestChannelResponse" });

export type TDiscoverModelsRequest = z.infer<typeof ZDiscoverModelsRequest>;
export type TTestChannelRequest = z.infer<typeof ZTestChannelRequest>;
export type TDiscoverModelsResponse = z.infer<typeof ZDiscoverModelsResponse>;
export type TTestChannelResponse = z.infer<typeof ZTestChannelResponse>;
export type TCapabilityResult = z.infer<typeof ZCapabilityResult>;
