import { route } from "@/lib/http/route";
import { portfolioRiskOp } from "@/lib/portfolio/operations";
import { portfolioRisk } from "@/lib/portfolio/risk";

export const dynamic = "force-dynamic";

// GET /api/v1/portfolio/risk – the risk report
export const GET = route(portfolioRiskOp, ({ query }) => portfolioRisk(query));
