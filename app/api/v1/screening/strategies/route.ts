import { route } from "@/lib/http/route";
import { listStrategiesOp, saveStrategyOp } from "@/lib/screening/operations";
import { listStrategies, strategyItem } from "@/lib/screening/read";
import { saveStrategy } from "@/lib/screening/saved-strategies";

export const dynamic = "force-dynamic";

// GET /api/v1/screening/strategies – every strategy, built-in and saved, explained
export const GET = route(listStrategiesOp, ({ query }) => listStrategies(query.language));

// POST /api/v1/screening/strategies – save a strategy of your own
export const POST = route(saveStrategyOp, async ({ body, query }) =>
  strategyItem(await saveStrategy(body), false, query.language),
);
