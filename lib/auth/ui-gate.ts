import { getSettings } from "@/lib/settings/settings";
import { loginHref } from "./next-path";
import { sessionOf } from "./session";

// The web UI's login gate, run by proxy.ts before any UI page renders, on full loads and
// on client-side navigations and prefetches alike (a layout check would not re-run on navigation). The API
// has its own guard (guard.ts); this file only decides where a browser without a live session goes.

/** The UI's own requests for / (HTML or RSC); API clients' requests for / get RootResponse JSON instead. */
function isUiRequest(req: Request): boolean {
  return (req.headers.get("accept") ?? "").includes("text/html") || req.headers.has("rsc");
}

/** The path and query the browser asked for, without Next's internal _rsc cache-busting parameter. */
function requestedPath(url: URL): string {
  const params = new URLSearchParams(url.search);
  params.delete("_rsc");
  const query = params.toString();
  return `${url.pathname}${query ? `?${query}` : ""}`;
}

/** null when the request may go on; otherwise the /login?next=… address to send the browser to. */
export async function uiLoginRedirect(req: Request): Promise<string | null> {
  if (!getSettings().ADMIN_AUTH_ENABLED) return null;
  const url = new URL(req.url);
  if (url.pathname === "/" && !isUiRequest(req)) return null;
  if (await sessionOf(req)) return null;
  return loginHref(requestedPath(url));
}
