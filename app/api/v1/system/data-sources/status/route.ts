import { route } from "@/lib/http/route";
import { getDataSourcesStatusOp } from "@/lib/data-sources/operations";
import { dataSourcesStatus } from "@/lib/data-sources/status";

export const dynamic = "force-dynamic";

// GET /api/v1/system/data-sources/status – each provider, switched on or not, and its calls per market
export const GET = route(getDataSourcesStatusOp, () => dataSourcesStatus());
