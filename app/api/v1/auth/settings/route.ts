import { updateAuthSettings } from "@/lib/auth/auth-service";
import { updateAuthSettingsOp } from "@/lib/auth/operations";
import { sessionCookieHeader } from "@/lib/auth/session";
import { reply } from "@/lib/http/reply";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// POST /api/v1/auth/settings – turn admin auth on or off
export const POST = route(updateAuthSettingsOp, async ({ req, body }) => {
  const { status, session } = await updateAuthSettings(req, body);
  const headers: Record<string, string> = session
    ? { "Set-Cookie": sessionCookieHeader(req, session.cookieValue, session.maxAge) }
    : {};
  return reply(200, status, headers);
});
