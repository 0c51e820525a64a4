import { route } from "@/lib/http/route";
import { createPaperAccountOp, listPaperAccountsOp } from "@/lib/paper/operations";
import { createPaperAccount, listPaperAccounts } from "@/lib/paper/store";

export const dynamic = "force-dynamic";

// GET /api/v1/paper/accounts – every paper account
export const GET = route(listPaperAccountsOp, () => listPaperAccounts());

// POST /api/v1/paper/accounts – start one
export const POST = route(createPaperAccountOp, ({ body }) => createPaperAccount(body));
