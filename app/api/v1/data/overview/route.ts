import { route } from "@/lib/http/route";
import { getDataOverviewOp } from "@/lib/data-sources/operations";
import { dataOverview } from "@/lib/data-sources/overview";

export const dynamic = "force-dynamic";

// GET /api/v1/data/overview – per market and dataset: route, state, current source, stored bars
export const GET = route(getDataOverviewOp, () => dataOverview());
