import { changePassword } from "@/lib/auth/auth-service";
import { changePasswordOp } from "@/lib/auth/operations";
import { reply } from "@/lib/http/reply";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// POST /api/v1/auth/change-password – change the admin password (other sessions end)
export const POST = route(changePasswordOp, async ({ req, body }) => {
  await changePassword(req, body);
  return reply(204);
});
