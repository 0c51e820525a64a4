import { route } from "@/lib/http/route";
import { deleteCashEntry } from "@/lib/portfolio/events";
import { deleteCashEntryOp } from "@/lib/portfolio/operations";

export const dynamic = "force-dynamic";

// DELETE /api/v1/portfolio/cash-ledger/{entry_id} – delete a cash ledger entry
export const DELETE = route(deleteCashEntryOp, ({ params }) => deleteCashEntry(params.entry_id));
