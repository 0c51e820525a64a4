import { z } from "zod";

// docs/api.md §12.5.1: the setup checklist the reference's client shows as a banner while required steps
// are missing. `key` is the setting to edit (or a group name for checks that span settings).

export const SETUP_CATEGORIES = ["base", "ai_model", "agent", "notification", "system"] as const;
export const SETUP_CHECK_STATUSES = ["configured", "inherited", "optional", "needs_action"] as const;

export const ZSetupCheck = z
  .object({
    key: z.string(),
    title: z.string(),
    category: z.enum(SETUP_CATEGORIES),
    required: z.boolean(),
    status: z.enum(SETUP_CHECK_STATUSES).describe("inherited: a default or another setting covers it"),
    message: z.string(),
    next_step: z.string().nullable(),
  })
  .meta({ id: "SetupCheck" });

export const ZSetupStatusResponse = z
  .object({
    is_complete: z.boolean().describe("No required check needs action"),
    ready_for_smoke: z.boolean().describe("A first analysis can run now (a market data source is usable)"),
    required_missing_keys: z.array(z.string()),
    next_step_key: z.string().nullable().describe("The first check needing action, required ones first"),
    checks: z.array(ZSetupCheck),
  })
  .meta({ id: "SetupStatusResponse" });

export type TSetupCheck = z.infer<typeof ZSetupCheck>;
export type TSetupStatusResponse = z.infer<typeof ZSetupStatusResponse>;
