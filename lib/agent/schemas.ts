import { z } from "zod";
import { DB_ID_MAX } from "@/lib/db/id-range";

// Wire records of the Ask DSA chat (docs/api.md §12.8: the reference's web client reads these raw, snake_case,
// without camel conversion). Fields beyond §12.8 are ours and come on top.

const ID_PATTERN = /^[A-Za-z0-9_.:-]+$/;
export const ZAgentSessionId = z.string().trim().min(1).max(128).regex(ID_PATTERN, "letters, digits and _ . : - only");
export const ZAgentRequestId = z.string().trim().min(1).max(64).regex(ID_PATTERN, "letters, digits and _ . : - only");

export const MAX_MESSAGE_CHARS = 8000;
export const MAX_SKILLS_PER_TURN = 3;

/** The stock a conversation is about (the reference client sends it from a report; ours adds the record id). */
export const ZAgentContext = z
  .looseObject({
    stock_code: z.string().trim().max(32).nullish(),
    stock_name: z.string().trim().max(64).nullish(),
    previous_analysis_summary: z.unknown().optional(),
    previous_strategy: z.unknown().optional(),
    previous_price: z.number().finite().nullish(),
    previous_change_pct: z.number().finite().nullish(),
    record_id: z
      .number()
      .int()
      .positive()
      .max(DB_ID_MAX)
      .nullish()
      .describe("Ours: the history record the chat was opened from"),
    report_language: z.string().max(16).nullish(),
  })
  .meta({ id: "AgentContext" });
export type TAgentContext = z.infer<typeof ZAgentContext>;

// The reference accepts `strategies` as the legacy name of `skills`.
function withAliases(input: unknown): unknown {
  if (!input || typeof input !== "object" || Array.isArray(input)) return input;
  const body = { ...(input as Record<string, unknown>) };
  if (body.skills === undefined && body.strategies !== undefined) body.skills = body.strategies;
  delete body.strategies;
  return body;
}

export const ZAgentChatRequest = z
  .preprocess(
    withAliases,
    z.object({
      message: z.string().trim().min(1, "message is empty").max(MAX_MESSAGE_CHARS),
      session_id: ZAgentSessionId.nullish().describe("Client-chosen id (a UUID); a new session when absent or unknown"),
      request_id: ZAgentRequestId.nullish().describe(
        "Id of this turn, for POST /agent/chat/stream/{request_id}/cancel; generated when absent",
      ),
      skills: z
        .array(z.string().trim().min(1).max(64))
        .max(MAX_SKILLS_PER_TURN)
        .nullish()
        .describe("Strategy ids (alias: strategies); null keeps the session's choice"),
      context: ZAgentContext.nullish(),
      language: z
        .enum(["zh", "en"])
        .nullish()
        .describe("Ours: language of command answers and of the answer; default REPORT_LANGUAGE"),
      stream_deltas: z
        .boolean()
        .default(false)
        .describe("Ours: also send `delta` events with the answer's text as it is written"),
    }),
  )
  .meta({ id: "AgentChatRequest" });
export type TAgentChatRequest = z.infer<typeof ZAgentChatRequest>;

export const ZFigureCheck = z.object({
  text: z.string().describe("The figure as written in the answer"),
  value: z.number(),
  key: z.boolean().describe("A price, stop, target or level (a key figure)"),
  verified: z.boolean(),
  source: z.string().nullish().describe("Tool whose result holds the value, when verified"),
});

export const ZAnswerChecks = z
  .object({
    status: z.enum(["ok", "warning", "skipped"]).describe("skipped: a command answer built from the data itself"),
    figures: z.array(ZFigureCheck),
    unverified: z.array(z.string()).describe("Figures of the answer no tool of the turn returned"),
    key_unverified: z.boolean(),
    regenerated: z.boolean().describe("The first answer had unverified key figures and was written again once"),
  })
  .meta({ id: "AgentAnswerChecks" });
export type TAnswerChecks = z.infer<typeof ZAnswerChecks>;

export const ZAgentToolCall = z.object({
  tool: z.string(),
  display_name: z.string(),
  input: z.unknown(),
  output: z.unknown(),
  success: z.boolean(),
  duration: z.number().describe("Seconds"),
});
export type TAgentToolCall = z.infer<typeof ZAgentToolCall>;

export const ZAgentChatResponse = z
  .object({
    success: z.boolean(),
    content: z.string(),
    session_id: z.string(),
    error: z.string().nullish(),
    request_id: z.string(),
    checks: ZAnswerChecks.nullish(),
    tool_calls: z.array(ZAgentToolCall),
  })
  .meta({ id: "AgentChatResponse" });
export type TAgentChatResponse = z.infer<typeof ZAgentChatResponse>;

export const ZAgentSessionItem = z.object({
  session_id: z.string(),
  title: z.string(),
  message_count: z.number().int(),
  created_at: z.string().nullish(),
  last_active: z.string().nullish(),
});
export const ZAgentSessionList = z.object({ sessions: z.array(ZAgentSessionItem) }).meta({ id: "AgentSessionList" });
export type TAgentSessionList = z.infer<typeof ZAgentSessionList>;
export const ZAgentSessionListQuery = z.object({ limit: z.coerce.number().int().min(1).max(200).default(50) });

export const ZAgentMessage = z.object({
  id: z.number().int(),
  role: z.enum(["user", "assistant"]),
  content: z.string(),
  created_at: z.string(),
  status: z.enum(["complete", "cancelled", "error"]),
  request_id: z.string().nullish(),
  tool_calls: z.array(ZAgentToolCall).nullish(),
  checks: ZAnswerChecks.nullish(),
  skills: z.array(z.string()).nullish(),
  model: z.string().nullish(),
});
export type TAgentMessage = z.infer<typeof ZAgentMessage>;

export const ZAgentSessionDetail = z
  .object({
    session_id: z.string(),
    title: z.string(),
    messages: z.array(ZAgentMessage),
    session_state: z.object({ selected_skill_ids: z.array(z.string()).nullable() }),
    context: ZAgentContext.nullish(),
  })
  .meta({ id: "AgentSessionDetail" });
export type TAgentSessionDetail = z.infer<typeof ZAgentSessionDetail>;
export const ZAgentSessionParams = z.object({ session_id: ZAgentSessionId });
export const ZAgentSessionQuery = z.object({ limit: z.coerce.number().int().min(1).max(500).default(100) });
export const ZAgentDeleted = z.object({ deleted: z.number().int() }).meta({ id: "AgentDeleted" });

export const ZAgentSkill = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  name_en: z.string().optional().describe("The English name (the file's name_en, else its name)"),
  description_en: z.string().optional().describe("The English description (description_en, else description)"),
  tools: z.array(z.string()).describe("Tools the strategy leans on"),
  source: z.enum(["builtin", "user"]),
});
export type TAgentSkill = z.infer<typeof ZAgentSkill>;
export const ZSkillProblem = z.object({ file: z.string(), error: z.string() });
export const ZAgentSkillList = z
  .object({ skills: z.array(ZAgentSkill), default_skill_id: z.string(), problems: z.array(ZSkillProblem) })
  .meta({ id: "AgentSkillList" });
export const ZAgentStrategyList = z
  .object({ strategies: z.array(ZAgentSkill), default_strategy_id: z.string(), problems: z.array(ZSkillProblem) })
  .meta({ id: "AgentStrategyList" });

export const ZAgentSendRequest = z
  .object({ content: z.string().min(1).max(50_000), title: z.string().trim().max(200).nullish() })
  .meta({ id: "AgentSendRequest" });
export const ZAgentSendResponse = z
  .object({
    success: z.boolean(),
    error: z.string().nullish(),
    message: z.string().nullish(),
    channels: z.array(z.object({ channel: z.string(), status: z.string() })).optional(),
  })
  .meta({ id: "AgentSendResponse" });

export const ZAgentStatus = z
  .object({
    backend: z.string(),
    available: z.boolean(),
    experimental: z.boolean(),
    version: z.string().nullish(),
    error_code: z.string().nullish(),
    message: z.string().nullish(),
    commands: z.array(z.string()).describe("Ours: slash commands answered without an LLM"),
  })
  .meta({ id: "AgentStatus" });

export const ZAgentModel = z.object({
  deployment_id: z.string(),
  model: z.string(),
  provider: z.string(),
  source: z.string(),
  api_base: z.string().nullish(),
  deployment_name: z.string().nullish(),
  is_primary: z.boolean(),
  is_fallback: z.boolean(),
});
export const ZAgentModels = z.object({ models: z.array(ZAgentModel) }).meta({ id: "AgentModels" });

export const ZAgentCancelParams = z.object({ request_id: ZAgentRequestId });
export const ZAgentCancelResponse = z
  .object({ accepted: z.boolean(), request_id: z.string() })
  .meta({ id: "AgentCancelAccepted" });

/**
 * Stream events (`data: <json>` lines; `: heartbeat` comments while idle). §12.8's types plus ours:
 * accepted (first), delta (only with stream_deltas).
 */
export type AgentStreamEvent =
  | { type: "accepted"; request_id: string; session_id: string; backend: string }
  | { type: "thinking"; step: number; message: string }
  | { type: "tool_start"; tool: string; display_name: string; step: number; input: unknown }
  | {
      type: "tool_done";
      tool: string;
      display_name: string;
      step: number;
      success: boolean;
      duration: number;
      error?: string;
    }
  | { type: "generating"; message: string }
  | { type: "delta"; content: string }
  | {
      type: "done";
      success: boolean;
      content: string;
      session_id: string;
      request_id: string;
      total_steps: number;
      cancelled: boolean;
      error?: string | null;
      message?: string | null;
      checks: TAnswerChecks | null;
      model?: string | null;
    }
  | { type: "error"; error: string; message: string; request_id: string };
