import { route } from "@/lib/http/route";
import { reportBacktestStockPerformanceOp } from "@/lib/report-eval/operations";
import { reportBacktestPerformance } from "@/lib/report-eval/read";

export const dynamic = "force-dynamic";

// GET /api/v1/backtest/performance/{code} – how one stock's stored reports did
export const GET = route(reportBacktestStockPerformanceOp, ({ params, query }) =>
  reportBacktestPerformance(query, params.code),
);
