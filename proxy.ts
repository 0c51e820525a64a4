import { NextResponse, type NextRequest } from "next/server";
import { uiLoginRedirect } from "@/lib/auth/ui-gate";

// With admin auth on, every web UI page needs a live admin session; without one the browser
// goes to /login?next=<path>. Runs before every UI request (full loads, client navigations, prefetches), so
// pages need no check of their own. API routes, the MCP endpoint, the chat platforms' webhooks, the login page, docs, health, Next's assets and the
// installed app's manifest, icons and service worker (a login redirect would fail the worker's registration) are not
// matched; the API enforces auth itself (lib/auth/guard.ts).
export async function proxy(req: NextRequest) {
  const target = await uiLoginRedirect(req);
  return target ? NextResponse.redirect(new URL(target, req.nextUrl)) : NextResponse.next();
}

export const config = {
  matcher: [
    "/((?!api(?:/|$)|mcp$|webhooks/|_next/|login(?:/|$)|docs(?:/|$)|openapi\\.json$|health(?:/|$)|favicon\\.ico$|icons/|manifest\\.webmanifest$|sw\\.js$).*)",
  ],
};
