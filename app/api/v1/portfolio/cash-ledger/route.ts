import { route } from "@/lib/http/route";
import { createCashEntry, listCashEntries } from "@/lib/portfolio/events";
import { createCashEntryOp, listCashLedgerOp } from "@/lib/portfolio/operations";

export const dynamic = "force-dynamic";

// GET /api/v1/portfolio/cash-ledger – cash ledger entries, newest first
export const GET = route(listCashLedgerOp, ({ query }) => listCashEntries(query));

// POST /api/v1/portfolio/cash-ledger – record a deposit or withdrawal
export const POST = route(createCashEntryOp, ({ body }) => createCashEntry(body));
