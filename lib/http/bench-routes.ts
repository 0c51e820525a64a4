import { z } from "zod";
import { defineOperation } from "@/lib/operation/operation";
import { unknownApiPath } from "./not-found";
import { route } from "./route";

// Two routes that answer the same small JSON in the same server, one a bare Next.js route handler and
// one through our route wrapper (trace id, auth guard, zod parse of the query, error mapping, access log), so the
// request-overhead bench can put a number on the wrapper. The wrapped one is not public: with admin auth on it needs
// a session (or a token), as every API operation does, so the bench can also measure a signed-in request's cost. They exist only when the service is started with
// DSA_BENCH_ROUTES=1 (the bench does that); otherwise they answer exactly like any unknown /api path. Not API
// operations: the OpenAPI document does not list them (lib/openapi/route-paths.ts BENCH_ROUTES).

export function benchRoutesEnabled(): boolean {
  return process.env.DSA_BENCH_ROUTES === "1";
}

const ZBenchQuery = z.object({ n: z.coerce.number().int().min(0).max(1000).optional() });

export const benchWrappedOp = defineOperation({
  method: "GET",
  path: "/api/bench/wrapped",
  operationId: "benchWrapped",
  summary: "Request-overhead bench: the route wrapper around a constant answer",
  tags: ["Health"],
  query: ZBenchQuery,
  responses: {
    200: { description: "ok", schema: z.object({ status: z.string(), n: z.number(), timestamp: z.string() }) },
  },
});

const answer = (n: number) => ({ status: "ok", n, timestamp: new Date().toISOString() });

// `bytes` asks for a binary body of that size instead (the share-image bench's floor for a cached PNG): made once
// and kept, as a cached image is (only the last size asked).
const MAX_BENCH_BYTES = 16 * 1024 * 1024;
let kept: Uint8Array | null = null;

function bytesOf(size: number): Uint8Array {
  if (kept?.byteLength !== size) kept = new Uint8Array(size).map((_, i) => (i * 31) & 0xff);
  return kept;
}

/** GET /api/bench/bare: what Next.js costs on its own (the query read by hand). */
export async function bareBenchRoute(req: Request): Promise<Response> {
  if (!benchRoutesEnabled()) return unknownApiPath(req);
  const params = new URL(req.url).searchParams;
  const size = Number(params.get("bytes"));
  if (Number.isInteger(size) && size > 0 && size <= MAX_BENCH_BYTES) {
    return new Response(bytesOf(size) as Uint8Array<ArrayBuffer>, { headers: { "content-type": "image/png" } });
  }
  const n = Number(params.get("n") ?? 0);
  return Response.json(answer(n));
}

const wrapped = route(benchWrappedOp, ({ query }) => answer(query.n ?? 0));

/** GET /api/bench/wrapped: the same answer through route(). */
export async function wrappedBenchRoute(
  req: Request,
  ctx: { params: Promise<Record<string, string | string[] | undefined>> },
): Promise<Response> {
  if (!benchRoutesEnabled()) return unknownApiPath(req);
  return wrapped(req, ctx);
}
