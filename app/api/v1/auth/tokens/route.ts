import { createApiToken, listApiTokens } from "@/lib/auth/api-tokens";
import { createApiTokenOp, listApiTokensOp } from "@/lib/auth/operations";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// POST /api/v1/auth/tokens – create an API token (its secret is shown once)
export const POST = route(createApiTokenOp, ({ body }) => createApiToken(body));

// GET /api/v1/auth/tokens – the live tokens, without secrets
export const GET = route(listApiTokensOp, async () => ({ items: await listApiTokens() }));
