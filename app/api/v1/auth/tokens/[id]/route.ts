import { revokeApiToken } from "@/lib/auth/api-tokens";
import { revokeApiTokenOp } from "@/lib/auth/operations";
import { reply } from "@/lib/http/reply";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// DELETE /api/v1/auth/tokens/{id} – revoke a token at once
export const DELETE = route(revokeApiTokenOp, async ({ params }) => {
  await revokeApiToken(params.id);
  return reply(204);
});
