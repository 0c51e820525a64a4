import { route } from "@/lib/http/route";
import { deleteStrategyOp, replaceStrategyOp } from "@/lib/screening/operations";
import { strategyItem } from "@/lib/screening/read";
import { deleteStrategy, replaceStrategy } from "@/lib/screening/saved-strategies";

export const dynamic = "force-dynamic";

// PUT /api/v1/screening/strategies/{strategy_id} – replace a saved strategy
export const PUT = route(replaceStrategyOp, async ({ params, body, query }) =>
  strategyItem(await replaceStrategy(params.strategy_id, body), false, query.language),
);

// DELETE /api/v1/screening/strategies/{strategy_id} – delete a saved strategy
export const DELETE = route(deleteStrategyOp, ({ params }) => deleteStrategy(params.strategy_id));
