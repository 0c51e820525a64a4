import { route } from "@/lib/http/route";
import { listReportBacktestResultsOp } from "@/lib/report-eval/operations";
import { listReportBacktestResults } from "@/lib/report-eval/read";

export const dynamic = "force-dynamic";

// GET /api/v1/backtest/results – evaluated reports, newest first
export const GET = route(listReportBacktestResultsOp, ({ query }) => listReportBacktestResults(query));
