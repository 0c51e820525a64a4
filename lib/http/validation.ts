import type { z } from "zod";
import { ApiError } from "@/lib/errors/api-error";
import type { TValidationIssue } from "@/lib/errors/schemas";

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

// PostgreSQL text cannot hold U+0000 (SQLite can): a NUL anywhere in the input would pass validation and then fail
// in the database as a 500. No field of this API has a use for it, so it is refused up front on both databases.
function nulPath(value: unknown, path: (string | number)[] = [], depth = 0): (string | number)[] | null {
  if (typeof value === "string") return value.includes("\u0000") ? path : null;
  if (value === null || typeof value !== "object" || depth > 32) return null;
  const entries = Array.isArray(value) ? value.map((v, i) => [i, v] as const) : Object.entries(value);
  for (const [key, child] of entries) {
    if (typeof key === "string" && key.includes("\u0000")) return [...path, key];
    const found = nulPath(child, [...path, key], depth + 1);
    if (found) return found;
  }
  return null;
}

export function parseInput<S extends z.ZodType>(
  part: InputPart,
  schema: S,
  input: unknown,
  options: { allowNul?: boolean } = {},
): z.output<S> {
  const nul = options.allowNul ? null : nulPath(input);
  if (nul) {
    const entry: TValidationIssue = {
      type: "invalid_string",
      loc: [part, ...nul],
      msg: "NUL characters (U+0000) are not accepted",
    };
    throw validationError([entry]);
  }
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw validationError(toValidationIssues(part, result.error, input));
}
