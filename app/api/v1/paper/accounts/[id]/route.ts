import { route } from "@/lib/http/route";
import { deletePaperAccountOp, getPaperAccountOp } from "@/lib/paper/operations";
import { deletePaperAccount, paperRecord } from "@/lib/paper/store";

export const dynamic = "force-dynamic";

// GET /api/v1/paper/accounts/{id} – the account, its equity curve and its fills
export const GET = route(getPaperAccountOp, ({ params }) => paperRecord(params.id));

// DELETE /api/v1/paper/accounts/{id} – the account and its record
export const DELETE = route(deletePaperAccountOp, async ({ params }) => {
  await deletePaperAccount(params.id);
  return { deleted: 1 };
});
