import { deleteHistoryRecords } from "@/lib/history/delete";
import { listHistoryBody } from "@/lib/history/list";
import { deleteHistoryOp, listHistoryOp } from "@/lib/history/operations";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// GET /api/v1/history – filtered, paginated history, newest first
export const GET = route(listHistoryOp, ({ query }) => listHistoryBody(query));

// DELETE /api/v1/history – delete records by id
export const DELETE = route(deleteHistoryOp, async ({ body }) => ({
  deleted: await deleteHistoryRecords(body.record_ids),
}));
