import { route } from "@/lib/http/route";
import { portfolioSnapshotOp } from "@/lib/portfolio/operations";
import { portfolioSnapshot } from "@/lib/portfolio/snapshot";

export const dynamic = "force-dynamic";

// GET /api/v1/portfolio/snapshot – accounts, cash, positions and P&L at as_of
export const GET = route(portfolioSnapshotOp, ({ query }) => portfolioSnapshot(query));
