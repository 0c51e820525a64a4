import { wrappedBenchRoute } from "@/lib/http/bench-routes";

export const dynamic = "force-dynamic";

// GET /api/bench/wrapped – request-overhead bench only (DSA_BENCH_ROUTES=1), else 404 like any unknown path
export const GET = wrappedBenchRoute;
