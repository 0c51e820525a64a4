import { route } from "@/lib/http/route";
import { createAccountOp, listAccountsOp } from "@/lib/portfolio/operations";
import { createAccount, listAccounts } from "@/lib/portfolio/store";

export const dynamic = "force-dynamic";

// GET /api/v1/portfolio/accounts – active accounts ({accounts}); include_inactive lists all
export const GET = route(listAccountsOp, ({ query }) => listAccounts(query));

// POST /api/v1/portfolio/accounts – create an account
export const POST = route(createAccountOp, ({ body }) => createAccount(body));
