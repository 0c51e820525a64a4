import { route } from "@/lib/http/route";
import { deleteAccountOp, updateAccountOp } from "@/lib/portfolio/operations";
import { deleteAccount, updateAccount } from "@/lib/portfolio/store";

export const dynamic = "force-dynamic";

// PATCH /api/v1/portfolio/accounts/{account_id} – change an account
export const PATCH = route(updateAccountOp, ({ params, body }) => updateAccount(params.account_id, body));

// DELETE /api/v1/portfolio/accounts/{account_id} – delete it with its trades and positions
export const DELETE = route(deleteAccountOp, ({ params }) => deleteAccount(params.account_id));
