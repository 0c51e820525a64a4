import { deleteHistoryByCode } from "@/lib/history/delete";
import { deleteHistoryByCodeOp } from "@/lib/history/operations";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// DELETE /api/v1/history/by-code/{stock_code} – delete every record of one stock, all code variants
export const DELETE = route(deleteHistoryByCodeOp, async ({ params }) => ({
  deleted: await deleteHistoryByCode(params.stock_code),
}));
