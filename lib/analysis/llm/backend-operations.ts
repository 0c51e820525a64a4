import { defineOperation } from "@/lib/operation/operation";
import {
  ZAgentBackendStatus,
  ZBackendDraft,
  ZGenerationBackendsStatus,
  ZSmokeTestRequest,
  ZSmokeTestResponse,
} from "./backend-schemas";

const TAGS = ["System config"];
const BACKENDS =
  "DSA's one backend type is the AI SDK (backend_type ai_sdk): each configured LLM channel is a backend, the first " +
  "the primary and the next its fallback. Nothing is called: health_status is not_tested unless a channel is unusable.";

export const getGenerationBackendsOp = defineOperation({
  method: "GET",
  path: "/api/v1/system/config/generation-backends/status",
  operationId: "getGenerationBackendsStatus",
  summary: "The report-generation backends from the saved LLM channels",
  description: BACKENDS,
  tags: TAGS,
  responses: { 200: { description: "Primary, fallback and every backend", schema: ZGenerationBackendsStatus } },
});

export const previewGenerationBackendsOp = defineOperation({
  method: "POST",
  path: "/api/v1/system/config/generation-backends/status/preview",
  operationId: "previewGenerationBackendsStatus",
  summary: "The generation backends as an unsaved settings draft would make them",
  description: `${BACKENDS} items are the draft's values over the saved ones; a masked value keeps the saved one.`,
  tags: TAGS,
  body: ZBackendDraft,
  responses: { 200: { description: "Primary, fallback and every backend", schema: ZGenerationBackendsStatus } },
});

export const smokeTestGenerationBackendOp = defineOperation({
  method: "POST",
  path: "/api/v1/system/config/generation-backends/smoke-test",
  operationId: "smokeTestGenerationBackend",
  summary: "One call through a backend of the draft (text: any answer; json: a structured object)",
  description:
    "Runs the channel test (POST /system/config/llm/test-channel) with the backend's first model; the saved key is " +
    "sent only to the saved base URL. Recorded in the usage log as channel_test. A failure is 200 with success false.",
  tags: TAGS,
  body: ZSmokeTestRequest,
  responses: { 200: { description: "The outcome and the backend's status", schema: ZSmokeTestResponse } },
});

export const getAgentBackendOp = defineOperation({
  method: "GET",
  path: "/api/v1/system/config/agent-backends/status",
  operationId: "getAgentBackendStatus",
  summary: "The agent chat's backend: the AI SDK over the primary LLM channel",
  tags: TAGS,
  responses: { 200: { description: "The agent backend", schema: ZAgentBackendStatus } },
});

export const previewAgentBackendOp = defineOperation({
  method: "POST",
  path: "/api/v1/system/config/agent-backends/status/preview",
  operationId: "previewAgentBackendStatus",
  summary: "The agent chat's backend as an unsaved settings draft would make it",
  tags: TAGS,
  body: ZBackendDraft,
  responses: { 200: { description: "The agent backend", schema: ZAgentBackendStatus } },
});

export const BACKEND_OPERATIONS = [
  getGenerationBackendsOp,
  previewGenerationBackendsOp,
  smokeTestGenerationBackendOp,
  getAgentBackendOp,
  previewAgentBackendOp,
] as const;
