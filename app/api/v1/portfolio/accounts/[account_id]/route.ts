import { route } from "@/lib/http/route";
import { deleteAccountOp, updateAccountOp } from "@/lib/portfolio/operations";
import { deactivateAccount, updateAccount } from "@/lib/portfolio/store";

export const dynamic = "force-dynamic";

// PUT /api/v1/portfolio/accounts/{account_id} – change an account
export const PUT = route(updateAccountOp, ({ params, body }) => updateAccount(params.account_id, body));

// DELETE /api/v1/portfolio/accounts/{account_id} – deactivate it (soft)
export const DELETE = route(deleteAccountOp, ({ params }) => deactivateAccount(params.account_id));
