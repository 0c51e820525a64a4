import { z } from "zod";
import { defineOperation } from "@/lib/operation/operation";

// docs/api.md §12.6: DSA has no stock screener (the reference's optional AlphaSift plug-in). The status
// endpoint answers the clean "not available" state, so the reference's client shows its disabled page
// instead of an error banner on every page.

export const ZScreeningStatusResponse = z
  .object({
    enabled: z.boolean(),
    available: z.boolean(),
    install_spec_is_default: z.boolean(),
    contract_version: z.string().nullable(),
    version: z.string().nullable(),
    strategy_count: z.number().int().nonnegative(),
    diagnostics: z.record(z.string(), z.string()),
  })
  .meta({ id: "ScreeningStatusResponse" });

export type TScreeningStatusResponse = z.infer<typeof ZScreeningStatusResponse>;

export const getScreeningStatusOp = defineOperation({
  method: "GET",
  path: "/api/v1/alphasift/status",
  operationId: "getScreeningStatus",
  summary: "Stock screening status (not built into DSA)",
  tags: ["System config"],
  responses: { 200: { description: "Always the disabled, not-installed state", schema: ZScreeningStatusResponse } },
});

export function screeningStatus(): TScreeningStatusResponse {
  return {
    enabled: false,
    available: false,
    install_spec_is_default: true,
    contract_version: null,
    version: null,
    strategy_count: 0,
    diagnostics: {
      reason:
        "Stock screening (AlphaSift) is not part of DSA; the watchlist, alerts and backtests cover its daily use.",
    },
  };
}
