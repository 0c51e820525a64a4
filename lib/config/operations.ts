import { ZErrorResponse } from "@/lib/errors/schemas";
import { defineOperation } from "@/lib/operation/operation";
import { z } from "zod";
import {
  ZDiscoverModelsRequest,
  ZDiscoverModelsResponse,
  ZTestChannelRequest,
  ZTestChannelResponse,
} from "@/lib/analysis/llm/probe-schemas";
import { ZSetupStatusResponse } from "./setup-status-schemas";
import {
  ZExportSystemConfigResponse,
  ZImportSystemConfigRequest,
  ZSystemConfigConflictResponse,
  ZSystemConfigQuery,
  ZSystemConfigResponse,
  ZSystemConfigSchemaResponse,
  ZSystemConfigValidationErrorResponse,
  ZUpdateSystemConfigRequest,
  ZUpdateSystemConfigResponse,
  ZValidateSystemConfigRequest,
  ZValidateSystemConfigResponse,
} from "./schemas";

const TAGS = ["System config"];
const CONFLICT = {
  description: "config_version is stale: the file changed since it was read",
  schema: ZSystemConfigConflictResponse,
};
const FORBIDDEN = { description: "env_backup_access_denied: admin authentication is disabled", schema: ZErrorResponse };

export const getSystemConfigOp = defineOperation({
  method: "GET",
  path: "/api/v1/system/config",
  operationId: "getSystemConfig",
  summary: "Read the configuration (sensitive values masked)",
  description:
    'Every known setting plus the env file\'s other keys. Sensitive values that are set come back as the mask token "******" with is_masked=true; raw_value_exists says whether the key is in the saved file.',
  tags: TAGS,
  query: ZSystemConfigQuery,
  responses: { 200: { description: "Configuration values and version", schema: ZSystemConfigResponse } },
});

export const updateSystemConfigOp = defineOperation({
  method: "PUT",
  path: "/api/v1/system/config",
  operationId: "updateSystemConfig",
  summary: "Update settings by key",
  description:
    "All or nothing: any error-severity issue answers 400 and writes nothing. A value equal to the mask keeps the stored value of a sensitive key. Comments, order and unknown keys of the env file are kept.",
  tags: TAGS,
  body: ZUpdateSystemConfigRequest,
  bodyChecksControlCharacters: true,
  responses: {
    200: { description: "Saved; the new config_version", schema: ZUpdateSystemConfigResponse },
    400: {
      description: "validation_failed: per-key issues, nothing written",
      schema: ZSystemConfigValidationErrorResponse,
    },
    409: CONFLICT,
  },
});

export const validateSystemConfigOp = defineOperation({
  method: "POST",
  path: "/api/v1/system/config/validate",
  operationId: "validateSystemConfig",
  summary: "Validate settings without saving",
  tags: TAGS,
  body: ZValidateSystemConfigRequest,
  bodyChecksControlCharacters: true,
  responses: { 200: { description: "Issues found; nothing is written", schema: ZValidateSystemConfigResponse } },
});

export const getSystemConfigSchemaOp = defineOperation({
  method: "GET",
  path: "/api/v1/system/config/schema",
  operationId: "getSystemConfigSchema",
  summary: "Categories, field types, validation rules and UI hints",
  tags: TAGS,
  responses: { 200: { description: "The config schema", schema: ZSystemConfigSchemaResponse } },
});

export const exportSystemConfigOp = defineOperation({
  method: "GET",
  path: "/api/v1/system/config/export",
  operationId: "exportSystemConfig",
  adminSessionOnly: true,
  summary: "Export the saved env file for backup",
  tags: TAGS,
  responses: {
    200: { description: "The env file text and its version", schema: ZExportSystemConfigResponse },
    403: FORBIDDEN,
  },
});

export const importSystemConfigOp = defineOperation({
  method: "POST",
  path: "/api/v1/system/config/import",
  operationId: "importSystemConfig",
  adminSessionOnly: true,
  summary: "Merge an env file backup into the current file, key by key",
  description:
    "Same version protection and validation as PUT. Read-only keys in the backup are skipped with a warning.",
  tags: TAGS,
  body: ZImportSystemConfigRequest,
  bodyChecksControlCharacters: true,
  responses: {
    200: { description: "Merged; the new config_version", schema: ZUpdateSystemConfigResponse },
    400: {
      description: "invalid_import_file (no KEY=VALUE line) or validation_failed (per-key issues); nothing written",
      schema: z.union([ZSystemConfigValidationErrorResponse, ZErrorResponse]),
    },
    403: FORBIDDEN,
    409: CONFLICT,
  },
});

/** The config operations, for lib/openapi/operations.ts. */
export const getSetupStatusOp = defineOperation({
  method: "GET",
  path: "/api/v1/system/config/setup/status",
  operationId: "getSetupStatus",
  summary: "What a new install still needs",
  description:
    "Required checks (a market data source, the watchlist) and optional ones (model, notifications, admin login, schedule), each with its status and next step.",
  tags: TAGS,
  responses: { 200: { description: "The setup checklist", schema: ZSetupStatusResponse } },
});

export const discoverLlmModelsOp = defineOperation({
  method: "POST",
  path: "/api/v1/system/config/llm/discover-models",
  operationId: "discoverLlmModels",
  summary: "List the models an OpenAI-compatible channel offers",
  description:
    "GET <base_url>/models with the channel's key, under the outbound policy. An empty or masked api_key uses the saved key, but only with the saved base URL. A remote failure is 200 with success=false, a stage and an error_code; remote bodies are never echoed.",
  tags: TAGS,
  body: ZDiscoverModelsRequest,
  responses: { 200: { description: "The probe's outcome and the model ids", schema: ZDiscoverModelsResponse } },
});

export const testLlmChannelOp = defineOperation({
  method: "POST",
  path: "/api/v1/system/config/llm/test-channel",
  operationId: "testLlmChannel",
  summary: "Send a short chat call through a channel, then the capability checks asked for",
  description:
    "One chat completion with the first model; then json (structured output), stream, tools and vision (a 1×1 PNG) checks when listed. DSA calls chat completions whatever api_surface asks (resolved_api_surface). The calls are recorded in the usage log as call_type channel_test.",
  tags: TAGS,
  body: ZTestChannelRequest,
  responses: { 200: { description: "The probe's outcome per check", schema: ZTestChannelResponse } },
});

export const SYSTEM_CONFIG_OPERATIONS = [
  getSetupStatusOp,
  discoverLlmModelsOp,
  testLlmChannelOp,
  getSystemConfigOp,
  updateSystemConfigOp,
  validateSystemConfigOp,
  getSystemConfigSchemaOp,
  exportSystemConfigOp,
  importSystemConfigOp,
] as const;
