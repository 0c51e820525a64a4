import type { z } from "zod";
import type { ErrorCode } from "@/lib/errors/error-codes";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface ResponseSpec {
  description: string;
  /** JSON body schema; omit for empty bodies or non-JSON content. */
  schema?: z.ZodType;
  /** Non-JSON responses (text/html, image/png, text/event-stream). */
  contentType?: string;
}

/**
 * One HTTP operation: the route handler parses with these schemas and /openapi.json documents them,
 * so the two cannot drift. `path` uses OpenAPI's {param} form.
 */
export interface Operation<
  P extends z.ZodType | undefined = z.ZodType | undefined,
  Q extends z.ZodType | undefined = z.ZodType | undefined,
  B extends z.ZodType | undefined = z.ZodType | undefined,
> {
  method: HttpMethod;
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  params?: P;
  query?: Q;
  body?: B;
  bodyRequired?: boolean;
  /**
   * "multipart": the body is multipart/form-data, its fields (text or File) parsed with `body`. "json-or-multipart":
   * multipart when the Content-Type says so, else JSON, both parsed with `body`. Default JSON.
   */
  bodyFormat?: "json" | "multipart" | "json-or-multipart";
  /** The code of a JSON body that does not parse (default invalid_request; the reference's parse-import says invalid_json). */
  invalidJsonCode?: ErrorCode;
  /** Bytes read at most before the request is refused with 413 (default 1 MiB). */
  maxBodyBytes?: number;
  /**
   * The body's strings may hold U+0000 because the domain refuses control characters itself with its own
   * answer (the config API's 400 with issues per key). Default: a NUL anywhere in the input is a 422.
   */
  bodyChecksControlCharacters?: boolean;
  responses: Record<number, ResponseSpec>;
  /** Reachable without the admin session when admin auth is on (spec 5: health, docs, login, status). */
  public?: boolean;
  /**
   * Needs an API token whatever the auth mode, and only a token: the domain checks it itself, since what the token
   * may do depends on more than the HTTP method (the MCP endpoint: a read token sees only read tools).
   */
  tokenOnly?: boolean;
  /** Needs the admin session cookie itself: an API token can never reach it (token management, config backup, auth settings). */
  adminSessionOnly?: boolean;
}

export function defineOperation<
  P extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
>(op: Operation<P, Q, B>): Operation<P, Q, B> {
  return op;
}

export function successStatus(op: Pick<Operation, "responses">): number {
  const codes = Object.keys(op.responses)
    .map(Number)
    .filter((c) => c >= 200 && c < 300);
  return codes.length > 0 ? Math.min(...codes) : 200;
}
