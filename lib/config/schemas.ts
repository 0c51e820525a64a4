import { z } from "zod";

// Wire records of the system configuration API (spec 4.4, docs/api.md §3). Field names follow the
// reference service so its clients keep working.

export const ZConfigValidationIssue = z
  .object({
    key: z.string(),
    code: z.string().describe("Stable issue code, e.g. invalid_enum, out_of_range, unknown_key, read_only"),
    message: z.string(),
    severity: z.enum(["error", "warning"]).describe("Errors block a save; warnings do not"),
    expected: z.string().optional(),
    actual: z.string().optional().describe("The offending value; never sent for sensitive keys"),
  })
  .meta({ id: "ConfigValidationIssue" });

export const ZSystemConfigOption = z
  .object({ label: z.string(), value: z.string() })
  .meta({ id: "SystemConfigOption" });

export const ZSystemConfigFieldSchema = z
  .object({
    key: z.string(),
    title: z.string().optional(),
    description: z.string().optional(),
    category: z.string().describe("base, ai_model, data_source, notification, system or uncategorized"),
    data_type: z.enum(["string", "integer", "number", "boolean", "array", "json", "time"]),
    ui_control: z.enum(["text", "password", "number", "select", "textarea", "switch", "time"]),
    is_sensitive: z.boolean(),
    is_required: z.boolean(),
    is_editable: z.boolean().describe("False: shown but not changed through this API (launch keys, the auth switch)"),
    default_value: z.string().nullable().optional(),
    options: z.array(z.union([z.string(), ZSystemConfigOption])),
    validation: z
      .record(z.string(), z.unknown())
      .describe("Rule hints: enum, min/max, pattern, format, multi_value/delimiter, allowed_values…"),
    display_order: z.number().int(),
    examples: z.array(z.string()),
    warning_codes: z.array(z.string()),
  })
  .meta({ id: "SystemConfigFieldSchema" });

export const ZSystemConfigItem = z
  .object({
    key: z.string(),
    value: z
      .string()
      .describe('The saved value; sensitive values that are set are replaced by the mask token "******"'),
    raw_value_exists: z.boolean().describe("The key is present in the saved env file"),
    is_masked: z.boolean().describe("value is the mask token, not the stored value"),
    schema: ZSystemConfigFieldSchema.optional().describe("Field metadata (when include_schema)"),
  })
  .meta({ id: "SystemConfigItem" });

export const ZSystemConfigResponse = z
  .object({
    config_version: z.string().describe("Version token of the env file; send it back with PUT and import"),
    mask_token: z.string(),
    items: z.array(ZSystemConfigItem),
    updated_at: z.string().optional().describe("Modification time of the env file"),
  })
  .meta({ id: "SystemConfigResponse" });

export const ZSystemConfigQuery = z.object({
  include_schema: z.stringbool().default(true).describe("true (default) or false: add field metadata to every item"),
});

export const ZSystemConfigCategorySchema = z
  .object({
    category: z.string(),
    title: z.string(),
    description: z.string().optional(),
    display_order: z.number().int(),
    fields: z.array(ZSystemConfigFieldSchema),
  })
  .meta({ id: "SystemConfigCategorySchema" });

export const ZSystemConfigKeyPattern = ZSystemConfigFieldSchema.extend({
  pattern: z
    .string()
    .describe("Regular expression of the keys in this family (the <CHANNEL> part is the channel name)"),
}).meta({ id: "SystemConfigKeyPattern" });

export const ZSystemConfigSchemaResponse = z
  .object({
    schema_version: z.string(),
    categories: z.array(ZSystemConfigCategorySchema),
    key_patterns: z.array(ZSystemConfigKeyPattern).describe("Key families such as LLM_<CHANNEL>_BASE_URL"),
  })
  .meta({ id: "SystemConfigSchemaResponse" });

export const ZSystemConfigUpdateItem = z
  .object({
    key: z.string().min(1).max(200),
    value: z.string().max(65_536),
  })
  .meta({ id: "SystemConfigUpdateItem" });

export const ZUpdateSystemConfigRequest = z
  .object({
    config_version: z.string().min(1).describe("config_version from the GET this edit is based on"),
    mask_token: z
      .string()
      .min(1)
      .default("******")
      .describe("A value equal to this keeps the stored value of a sensitive key"),
    reload_now: z.boolean().default(true),
    items: z.array(ZSystemConfigUpdateItem).min(1),
  })
  .meta({ id: "UpdateSystemConfigRequest" });

export const ZUpdateSystemConfigResponse = z
  .object({
    success: z.boolean(),
    config_version: z.string().describe("The new version token"),
    applied_count: z.number().int(),
    skipped_masked_count: z.number().int(),
    reload_triggered: z.boolean(),
    updated_keys: z.array(z.string()),
    warnings: z.array(z.string()),
  })
  .meta({ id: "UpdateSystemConfigResponse" });

export const ZValidateSystemConfigRequest = z
  .object({
    items: z.array(ZSystemConfigUpdateItem).min(1),
    mask_token: z.string().min(1).default("******"),
  })
  .meta({ id: "ValidateSystemConfigRequest" });

export const ZValidateSystemConfigResponse = z
  .object({
    valid: z.boolean().describe("No issue of severity error"),
    issues: z.array(ZConfigValidationIssue),
  })
  .meta({ id: "ValidateSystemConfigResponse" });

export const ZExportSystemConfigResponse = z
  .object({
    content: z.string().describe('The saved env file text ("" when there is none)'),
    config_version: z.string(),
    updated_at: z.string().optional(),
  })
  .meta({ id: "ExportSystemConfigResponse" });

export const ZImportSystemConfigRequest = z
  .object({
    config_version: z.string().min(1),
    content: z
      .string()
      .max(512 * 1024)
      .describe("Env file text; its keys are merged into the current file"),
    reload_now: z.boolean().default(true),
  })
  .meta({ id: "ImportSystemConfigRequest" });

export const ZSystemConfigConflictResponse = z
  .object({
    error: z.literal("config_version_conflict"),
    message: z.string(),
    current_config_version: z.string(),
  })
  .meta({ id: "SystemConfigConflictResponse" });

export const ZSystemConfigValidationErrorResponse = z
  .object({
    error: z.literal("validation_failed"),
    message: z.string(),
    issues: z.array(ZConfigValidationIssue),
  })
  .meta({ id: "SystemConfigValidationErrorResponse" });

export type TConfigValidationIssue = z.infer<typeof ZConfigValidationIssue>;
export type TSystemConfigItem = z.infer<typeof ZSystemConfigItem>;
export type TSystemConfigResponse = z.infer<typeof ZSystemConfigResponse>;
export type TSystemConfigSchemaResponse = z.infer<typeof ZSystemConfigSchemaResponse>;
export type TSystemConfigUpdateItem = z.infer<typeof ZSystemConfigUpdateItem>;
export type TUpdateSystemConfigRequest = z.infer<typeof ZUpdateSystemConfigRequest>;
export type TUpdateSystemConfigResponse = z.infer<typeof ZUpdateSystemConfigResponse>;
export type TValidateSystemConfigRequest = z.infer<typeof ZValidateSystemConfigRequest>;
export type TValidateSystemConfigResponse = z.infer<typeof ZValidateSystemConfigResponse>;
export type TExportSystemConfigResponse = z.infer<typeof ZExportSystemConfigResponse>;
export type TImportSystemConfigRequest = z.infer<typeof ZImportSystemConfigRequest>;
