import { z } from "zod";

// docs/api.md §1: application errors are flat, with optional extra keys a record names.
export const ZErrorResponse = z
  .looseObject({
    error: z.string().describe("Machine-readable error code"),
    message: z.string().describe("Human-readable explanation"),
    detail: z.unknown().optional(),
  })
  .meta({ id: "ErrorResponse" });

export const ZValidationIssue = z
  .object({
    type: z.string(),
    loc: z.array(z.union([z.string(), z.number()])),
    msg: z.string(),
    input: z.unknown().optional(),
  })
  .meta({ id: "ValidationIssue" });

export const ZValidationErrorResponse = z
  .object({
    error: z.literal("validation_error"),
    message: z.string(),
    detail: z.array(ZValidationIssue),
  })
  .meta({ id: "HTTPValidationError" });

export type TErrorResponse = z.infer<typeof ZErrorResponse>;
export type TValidationIssue = z.infer<typeof ZValidationIssue>;
