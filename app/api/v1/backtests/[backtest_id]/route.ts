import { deleteBacktestOp, getBacktestOp } from "@/lib/backtest/operations";
import { deleteBacktest, getBacktestOrThrow } from "@/lib/backtest/read";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// GET /api/v1/backtests/{backtest_id} – one run with its summary once completed
export const GET = route(getBacktestOp, ({ params }) => getBacktestOrThrow(params.backtest_id));

// DELETE /api/v1/backtests/{backtest_id} – the run and its calls
export const DELETE = route(deleteBacktestOp, ({ params }) => deleteBacktest(params.backtest_id));
