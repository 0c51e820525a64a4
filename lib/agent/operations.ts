import { ZErrorResponse } from "@/lib/errors/schemas";
import { defineOperation, type Operation } from "@/lib/operation/operation";
import {
  MAX_SKILLS_PER_TURN,
  ZAgentCancelParams,
  ZAgentCancelResponse,
  ZAgentChatRequest,
  ZAgentChatResponse,
  ZAgentDeleted,
  ZAgentModels,
  ZAgentSendRequest,
  ZAgentSendResponse,
  ZAgentSessionDetail,
  ZAgentSessionList,
  ZAgentSessionListQuery,
  ZAgentSessionParams,
  ZAgentSessionQuery,
  ZAgentSkillList,
  ZAgentStatus,
  ZAgentStrategyList,
} from "./schemas";

const TAGS = ["Agent"];
const TURN =
  "A message starting with / is a command answered from the service's data without an LLM (/analyze <code>, /quote <code>, " +
  "/market [cn|hk|us], /history <code>, /signals [code], /backtest <code>, /help). Anything else goes to the chat model " +
  "(AGENT_MODEL, else the LLM channels in order) with the tools; without an LLM channel the answer names the commands. " +
  `At most AGENT_MAX_STEPS tool steps, AGENT_TURN_TIMEOUT_SEC and AGENT_TOKEN_BUDGET per turn; skills: at most ${MAX_SKILLS_PER_TURN} strategy ids ` +
  "(alias strategies), kept for the session. Every figure of the answer is checked against the values the turn's tools returned " +
  "(checks); an answer whose key figures (price, stop, target, levels) are unverified is rewritten once with the tool data restated.";

export const chatStreamOp = defineOperation({
  method: "POST",
  path: "/api/v1/agent/chat/stream",
  operationId: "streamAgentChat",
  summary: "Ask DSA, streamed: Server-Sent Events of one chat turn",
  description:
    `${TURN} Events, each one line \`data: <json>\` with a type: accepted {request_id, session_id}; thinking {step, message}; ` +
    "tool_start {tool, display_name, step, input}; tool_done {tool, display_name, step, success, duration (s), error?}; generating " +
    "{message}; delta {content} (only with stream_deltas); done {success, content, session_id, request_id, total_steps, cancelled, " +
    "error, message, checks, model}; error {error, message}. `: heartbeat` comments after SSE_HEARTBEAT_SECONDS of silence. " +
    "A request_id still running is 409 request_conflict before the stream starts.",
  tags: TAGS,
  body: ZAgentChatRequest,
  maxBodyBytes: 64 * 1024,
  responses: {
    200: { description: "text/event-stream", contentType: "text/event-stream" },
    409: { description: "request_conflict: this request_id is running", schema: ZErrorResponse },
  },
});

export const cancelChatStreamOp = defineOperation({
  method: "POST",
  path: "/api/v1/agent/chat/stream/{request_id}/cancel",
  operationId: "cancelAgentChatStream",
  summary: "Stop a running turn: the model and its tools stop at once, the partial answer is kept (status cancelled)",
  tags: TAGS,
  params: ZAgentCancelParams,
  responses: {
    200: { description: "Cancel accepted; the stream ends with done {cancelled: true}", schema: ZAgentCancelResponse },
    404: { description: "request_not_active: no such turn is running in this process", schema: ZErrorResponse },
  },
});

export const chatOp = defineOperation({
  method: "POST",
  path: "/api/v1/agent/chat",
  operationId: "agentChat",
  summary: "Ask DSA without progress events: the whole turn, then its answer",
  description: TURN,
  tags: TAGS,
  body: ZAgentChatRequest,
  maxBodyBytes: 64 * 1024,
  responses: {
    200: {
      description: "The answer (success false with error and content when the model failed or the turn was cancelled)",
      schema: ZAgentChatResponse,
    },
    409: { description: "request_conflict", schema: ZErrorResponse },
  },
});

export const listChatSessionsOp = defineOperation({
  method: "GET",
  path: "/api/v1/agent/chat/sessions",
  operationId: "listAgentChatSessions",
  summary: "Chat sessions, latest activity first; title = the first message",
  tags: TAGS,
  query: ZAgentSessionListQuery,
  responses: { 200: { description: "Sessions", schema: ZAgentSessionList } },
});

export const getChatSessionOp = defineOperation({
  method: "GET",
  path: "/api/v1/agent/chat/sessions/{session_id}",
  operationId: "getAgentChatSession",
  summary: "One session's messages (oldest first, the last `limit`), with each answer's tool calls and checks",
  tags: TAGS,
  params: ZAgentSessionParams,
  query: ZAgentSessionQuery,
  responses: {
    200: { description: "Session", schema: ZAgentSessionDetail },
    404: { description: "not_found", schema: ZErrorResponse },
  },
});

export const deleteChatSessionOp = defineOperation({
  method: "DELETE",
  path: "/api/v1/agent/chat/sessions/{session_id}",
  operationId: "deleteAgentChatSession",
  summary: "Delete a session and its messages",
  tags: TAGS,
  params: ZAgentSessionParams,
  responses: {
    200: { description: "Deleted", schema: ZAgentDeleted },
    404: { description: "not_found", schema: ZErrorResponse },
  },
});

export const listSkillsOp = defineOperation({
  method: "GET",
  path: "/api/v1/agent/skills",
  operationId: "listAgentSkills",
  summary:
    "Chat strategies: the built-in ones and the user's files in SKILLS_DIR; malformed files are listed under problems",
  tags: TAGS,
  responses: { 200: { description: "Strategies", schema: ZAgentSkillList } },
});

export const listStrategiesOp = defineOperation({
  method: "GET",
  path: "/api/v1/agent/strategies",
  operationId: "listAgentStrategies",
  summary: "The reference's legacy name of GET /agent/skills",
  tags: TAGS,
  responses: { 200: { description: "Strategies", schema: ZAgentStrategyList } },
});

export const sendChatOp = defineOperation({
  method: "POST",
  path: "/api/v1/agent/chat/send",
  operationId: "sendAgentChat",
  summary: "Send a conversation (Markdown) to the report notification channels",
  description:
    "success false with error no_channels when no channel is configured, suppressed when the notification rules hold it, send_failed when every channel failed.",
  tags: TAGS,
  body: ZAgentSendRequest,
  maxBodyBytes: 256 * 1024,
  responses: { 200: { description: "Outcome", schema: ZAgentSendResponse } },
});

export const agentStatusOp = defineOperation({
  method: "GET",
  path: "/api/v1/agent/status",
  operationId: "getAgentStatus",
  summary: "Whether free questions can be answered (an LLM channel is configured); the commands always work",
  tags: TAGS,
  responses: { 200: { description: "Status", schema: ZAgentStatus } },
});

export const agentModelsOp = defineOperation({
  method: "GET",
  path: "/api/v1/agent/models",
  operationId: "listAgentModels",
  summary: "The chat's model deployments in the order they are tried (AGENT_MODEL first); never a key",
  tags: TAGS,
  responses: { 200: { description: "Models", schema: ZAgentModels } },
});

/** The agent operations, for lib/openapi/operations.ts. */
export const AGENT_OPERATIONS: readonly Operation[] = [
  chatStreamOp,
  cancelChatStreamOp,
  chatOp,
  listChatSessionsOp,
  getChatSessionOp,
  deleteChatSessionOp,
  listSkillsOp,
  listStrategiesOp,
  sendChatOp,
  agentStatusOp,
  agentModelsOp,
];
