import { getBacktestSeriesOp } from "@/lib/backtest/operations";
import { getBacktestSeries } from "@/lib/backtest/read";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// GET /api/v1/backtests/{backtest_id}/series – bars and equity lines of the tested span
export const GET = route(getBacktestSeriesOp, ({ params }) => getBacktestSeries(params.backtest_id));
