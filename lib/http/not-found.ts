import { acceptTraceId } from "@/lib/ids";
import { ApiError } from "@/lib/errors/api-error";
import { TRACE_HEADER, errorResponse } from "./route";

/** API clients get the JSON envelope for unknown paths under /api, not the web UI's HTML 404 page. */
export async function unknownApiPath(req: Request): Promise<Response> {
  const traceId = acceptTraceId(req.headers.get(TRACE_HEADER));
  const path = new URL(req.url).pathname;
  const response = errorResponse(ApiError.of("not_found", `No API endpoint at ${req.method} ${path}`), console);
  response.headers.set(TRACE_HEADER, traceId);
  return response;
}
