import type { z } from "zod";
import { guardRequest } from "@/lib/auth/guard";
import { acceptTraceId } from "@/lib/ids";
import { requestLogger } from "@/lib/log/logger";
import { successStatus, type Operation } from "@/lib/openapi/operation";
import { ApiError } from "./api-error";
import { queryObject } from "./query";
import { isJsonBody, jsonBytesResponse, jsonResponse, Reply } from "./reply";
import { isMultipartRequest, readFormBody, readJsonBody } from "./request-body";
import { parseInput } from "./validation";

type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface HandlerContext<P, Q, B> {
  params: Out<P>;
  query: Out<Q>;
  body: Out<B>;
  req: Request;
  traceId: string;
  log: ReturnType<typeof requestLogger>;
}

type NextContext = { params: Promise<Record<string, string | string[] | undefined>> };

export const TRACE_HEADER = "X-Trace-Id";

/**
 * Wraps every route handler: trace id, the admin-auth guard (spec 5, one place for all routes), input parsing with the operation's zod schemas, one place that
 * maps thrown errors to the flat envelope (CONTRACT.md §1), and an access log line.
 */
export function route<P extends z.ZodType | undefined, Q extends z.ZodType | undefined, B extends z.ZodType | undefined>(
  op: Operation<P, Q, B>,
  handler: (ctx: HandlerContext<P, Q, B>) => unknown,
): (req: Request, ctx: NextContext) => Promise<Response> {
  const okStatus = successStatus(op);
  return async (req, nextCtx) => {
    const started = performance.now();
    const traceId = acceptTraceId(req.headers.get(TRACE_HEADER));
    const log = requestLogger(traceId);
    let response: Response;
    try {
      const ctx = await parseRequest(op, req, nextCtx, traceId, log);
      response = toResponse(await handler(ctx), okStatus);
    } catch (error) {
      response = errorResponse(error, log);
    }
    response.headers.set(TRACE_HEADER, traceId);
    const path = new URL(req.url).pathname;
    log.info({ method: req.method, path, status: response.status, ms: Math.round(performance.now() - started) }, "request");
    return response;
  };
}

async function parseRequest<P extends z.ZodType | undefined, Q extends z.ZodType | undefined, B extends z.ZodType | undefined>(
  op: Operation<P, Q, B>,
  req: Request,
  nextCtx: NextContext | undefined,
  traceId: string,
  log: HandlerContext<P, Q, B>["log"],
): Promise<HandlerContext<P, Q, B>> {
  await guardRequest(req, op);
  const rawParams = nextCtx?.params ? await nextCtx.params : {};
  const params = op.params ? parseInput("path", op.params, rawParams) : undefined;
  const query = op.query ? parseInput("query", op.query, queryObject(new URL(req.url).searchParams)) : undefined;
  let body: unknown;
  if (op.body) {
    const raw = await readBody(op, req);
    if (raw === undefined && op.bodyRequired !== false) {
      throw ApiError.of("invalid_request", "Request body is required");
    }
    body = raw === undefined ? undefined : parseInput("body", op.body, raw, { allowNul: op.bodyChecksControlCharacters });
  }
  return { params, query, body, req, traceId, log } as HandlerContext<P, Q, B>;
}

function readBody(op: Operation, req: Request): Promise<unknown> {
  const multipart = op.bodyFormat === "multipart" || (op.bodyFormat === "json-or-multipart" && isMultipartRequest(req));
  return multipart ? readFormBody(req, op.maxBodyBytes) : readJsonBody(req, op.maxBodyBytes, op.invalidJsonCode);
}

function toResponse(result: unknown, okStatus: number): Response {
  if (result instanceof Response) return result;
  if (result instanceof Reply) return jsonResponse(result.status, result.body, result.headers);
  if (isJsonBody(result)) return jsonBytesResponse(okStatus, result.bytes());
  return jsonResponse(okStatus, result);
}

export function errorResponse(error: unknown, log: { error: (obj: object, msg: string) => void }): Response {
  if (error instanceof ApiError) {
    return jsonResponse(error.status, { error: error.code, message: error.message, ...error.extra }, error.headers);
  }
  log.error({ err: error }, "unhandled error");
  return jsonResponse(500, { error: "internal_error", message: "Internal server error", detail: null });
}
