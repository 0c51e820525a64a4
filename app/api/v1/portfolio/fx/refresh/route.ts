import { route } from "@/lib/http/route";
import { refreshFxRates } from "@/lib/portfolio/fx-refresh";
import { refreshFxOp } from "@/lib/portfolio/operations";

export const dynamic = "force-dynamic";

// POST /api/v1/portfolio/fx/refresh – fetch and store the FX rates the accounts use
export const POST = route(refreshFxOp, ({ query }) => refreshFxRates(query));
