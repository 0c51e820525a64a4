import { listBacktestCallsOp } from "@/lib/backtest/operations";
import { listBacktestCalls } from "@/lib/backtest/read";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// GET /api/v1/backtests/{backtest_id}/calls – the calls, oldest first
export const GET = route(listBacktestCallsOp, ({ params, query }) => listBacktestCalls(params.backtest_id, query));
