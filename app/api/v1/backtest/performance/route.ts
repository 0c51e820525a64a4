import { route } from "@/lib/http/route";
import { reportBacktestPerformanceOp } from "@/lib/report-eval/operations";
import { reportBacktestPerformance } from "@/lib/report-eval/read";

export const dynamic = "force-dynamic";

// GET /api/v1/backtest/performance – how the stored reports did, overall
export const GET = route(reportBacktestPerformanceOp, ({ query }) => reportBacktestPerformance(query));
