import { logout } from "@/lib/auth/auth-service";
import { logoutOp } from "@/lib/auth/operations";
import { clearedSessionCookieHeader } from "@/lib/auth/session";
import { reply } from "@/lib/http/reply";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// POST /api/v1/auth/logout – revoke this session and clear its cookie
export const POST = route(logoutOp, async ({ req }) => {
  await logout(req);
  return reply(204, undefined, { "Set-Cookie": clearedSessionCookieHeader(req) });
});
