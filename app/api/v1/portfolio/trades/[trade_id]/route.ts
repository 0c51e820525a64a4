import { route } from "@/lib/http/route";
import { deleteTradeOp } from "@/lib/portfolio/operations";
import { deleteTrade } from "@/lib/portfolio/store";

export const dynamic = "force-dynamic";

// DELETE /api/v1/portfolio/trades/{trade_id} – delete a trade
export const DELETE = route(deleteTradeOp, ({ params }) => deleteTrade(params.trade_id));
