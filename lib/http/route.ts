import type { z } from "zod";
import { guardRequest } from "@/lib/auth/guard";
import { acceptTraceId } from "@/lib/ids";
import { andThen, isThenable, type Soon } from "@/lib/soon";
import { accessLogOn, logAccess, requestLogger } from "@/lib/log/logger";
import { successStatus, type Operation } from "@/lib/operation/operation";
import { ApiError } from "@/lib/errors/api-error";
import { queryObject } from "./query";
import { isJsonBody } from "@/lib/operation/json-body";
import { jsonBytesResponse, jsonResponse, Reply } from "./reply";
import { isMultipartRequest, readFormBody, readJsonBody } from "./request-body";
import { parseInput } from "./validation";

type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface HandlerContext<P, Q, B> {
  params: Out<P>;
  query: Out<Q>;
  body: Out<B>;
  req: Request;
  traceId: string;
}

type NextContext = { params: Promise<Record<string, string | string[] | undefined>> };

export const TRACE_HEADER = "X-Trace-Id";

/**
 * Wraps every route handler: trace id, the admin-auth guard (spec 5, one place for all routes), input parsing with the operation's zod schemas, one place that
 * maps thrown errors to the flat envelope (docs/api.md §1), and an access log line.
 */
export function route<
  P extends z.ZodType | undefined,
  Q extends z.ZodType | undefined,
  B extends z.ZodType | undefined,
>(
  op: Operation<P, Q, B>,
  handler: (ctx: HandlerContext<P, Q, B>) => unknown,
): (req: Request, ctx: NextContext) => Promise<Response> {
  const okStatus = successStatus(op);
  return async (req, nextCtx) => {
    const started = performance.now();
    const traceId = acceptTraceId(req.headers.get(TRACE_HEADER));
    let response: Response;
    try {
      // Waits only where something is pending (lib/soon.ts): a GET whose checks are synchronous runs without a promise.
      const parsed = parseRequest(op, req, nextCtx, traceId);
      const result = handler(isThenable(parsed) ? await parsed : parsed);
      response = toResponse(isThenable(result) ? await result : result, okStatus, traceId);
    } catch (error) {
      response = errorResponse(error, requestLogger(traceId));
      response.headers.set(TRACE_HEADER, traceId);
    }
    if (accessLogOn()) {
      logAccess(traceId, {
        method: req.method,
        path: urlOf(req).pathname,
        status: response.status,
        ms: Math.round(performance.now() - started),
      });
    }
    return response;
  };
}

function parseRequest<
  P extends z.ZodType | undefined,
  Q extends z.ZodType | undefined,
  B extends z.ZodType | undefined,
>(
  op: Operation<P, Q, B>,
  req: Request,
  nextCtx: NextContext | undefined,
  traceId: string,
): Soon<HandlerContext<P, Q, B>> {
  return andThen(guardRequest(req, op), () =>
    andThen(op.params && nextCtx?.params ? nextCtx.params : {}, (rawParams) => {
      const params = op.params ? parseInput("path", op.params, rawParams) : undefined;
      const query = op.query ? parseInput("query", op.query, queryObject(urlOf(req).searchParams)) : undefined;
      const ctx = { params, query, body: undefined, req, traceId } as HandlerContext<P, Q, B>;
      const schema = op.body;
      if (!schema) return ctx;
      return readBody(op, req).then((raw) => {
        if (raw === undefined && op.bodyRequired !== false) {
          throw ApiError.of("invalid_request", "Request body is required");
        }
        const body =
          raw === undefined ? undefined : parseInput("body", schema, raw, { allowNul: op.bodyChecksControlCharacters });
        return { ...ctx, body } as HandlerContext<P, Q, B>;
      });
    }),
  );
}

function readBody(op: Operation, req: Request): Promise<unknown> {
  const multipart = op.bodyFormat === "multipart" || (op.bodyFormat === "json-or-multipart" && isMultipartRequest(req));
  return multipart ? readFormBody(req, op.maxBodyBytes) : readJsonBody(req, op.maxBodyBytes, op.invalidJsonCode);
}

// Next hands a route a NextRequest whose URL is already parsed; a plain Request (tests, other callers) is parsed here.
function urlOf(req: Request): Pick<URL, "pathname" | "searchParams"> {
  return (req as { nextUrl?: Pick<URL, "pathname" | "searchParams"> }).nextUrl ?? new URL(req.url);
}

// The trace id goes in with the answer's other headers: setting it afterwards on a made Response costs a second
// header validation and copy.
function toResponse(result: unknown, okStatus: number, traceId: string): Response {
  if (result instanceof Response) {
    result.headers.set(TRACE_HEADER, traceId);
    return result;
  }
  if (result instanceof Reply)
    return jsonResponse(result.status, result.body, { ...result.headers, [TRACE_HEADER]: traceId });
  if (isJsonBody(result)) return jsonBytesResponse(okStatus, result.bytes(), { [TRACE_HEADER]: traceId });
  return jsonResponse(okStatus, result, { [TRACE_HEADER]: traceId });
}

export function errorResponse(error: unknown, log: { error: (obj: object, msg: string) => void }): Response {
  if (error instanceof ApiError) {
    return jsonResponse(error.status, { error: error.code, message: error.message, ...error.extra }, error.headers);
  }
  log.error({ err: error }, "unhandled error");
  return jsonResponse(500, { error: "internal_error", message: "Internal server error", detail: null });
}
