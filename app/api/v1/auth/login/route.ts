import { login } from "@/lib/auth/auth-service";
import { loginOp } from "@/lib/auth/operations";
import { sessionCookieHeader } from "@/lib/auth/session";
import { reply } from "@/lib/http/reply";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// POST /api/v1/auth/login – log in (or set the first password) and receive the session cookie
export const POST = route(loginOp, async ({ req, body }) => {
  const session = await login(req, body);
  return reply(200, { ok: true }, { "Set-Cookie": sessionCookieHeader(req, session.cookieValue, session.maxAge) });
});
