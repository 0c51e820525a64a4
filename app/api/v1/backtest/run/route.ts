import { route } from "@/lib/http/route";
import { runReportBacktestOp } from "@/lib/report-eval/operations";
import { runReportBacktest } from "@/lib/report-eval/run";

export const dynamic = "force-dynamic";

// POST /api/v1/backtest/run – evaluate stored reports against the bars that followed them
export const POST = route(runReportBacktestOp, ({ body }) => runReportBacktest(body));
