import type { z } from "zod";
import { ApiError } from "./api-error";
import type { TValidationIssue } from "./schemas";

export type InputPart = "path" | "query" | "body";

// Body inputs are never echoed back: they may hold passwords or API keys.
export function toValidationIssues(part: InputPart, error: z.ZodError, input: unknown): TValidationIssue[] {
  return error.issues.map((issue) => {
    const loc = [part, ...issue.path.map((p) => (typeof p === "number" ? p : String(p)))];
    const entry: TValidationIssue = { type: issue.code, loc, msg: issue.message };
    if (part !== "body") entry.input = valueAt(input, issue.path);
    return entry;
  });
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let value: unknown = root;
  for (const key of path) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

export function validationError(issues: TValidationIssue[]): ApiError {
  const first = issues[0];
  const where = first ? `${first.loc.join(".")}: ${first.msg}` : "invalid input";
  return new ApiError(422, "validation_error", `Request validation failed (${where})`, { detail: issues });
}

export function parseInput<S extends z.ZodType>(part: InputPart, schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw validationError(toValidationIssues(part, result.error, input));
}
