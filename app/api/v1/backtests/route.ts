import { createBacktestOp, listBacktestsOp } from "@/lib/backtest/operations";
import { listBacktests } from "@/lib/backtest/read";
import { submitBacktest } from "@/lib/backtest/submit";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// POST /api/v1/backtests – queue a backtest run (202)
export const POST = route(createBacktestOp, ({ body, traceId }) => submitBacktest(body, traceId));

// GET /api/v1/backtests – runs, newest first
export const GET = route(listBacktestsOp, ({ query }) => listBacktests(query));
