// Where the login page may send the browser afterwards: only a same-site relative path ("/settings?tab=x").
// Anything else (absolute URLs, protocol-relative "//host", backslash tricks, the login page itself) → "/".
export function safeNextPath(next: string | null | undefined): string {
  if (typeof next !== "string" || next === "") return "/";
  if (!next.startsWith("/") || next.startsWith("//") || next.includes("\\")) return "/";
  if (/[\u0000-\u001f\u007f]/.test(next)) return "/";
  try {
    const base = "http://dsa.invalid";
    const url = new URL(next, base);
    if (url.origin !== base) return "/";
    if (url.pathname === "/login" || url.pathname.startsWith("/login/")) return "/";
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return "/";
  }
}

/** The login page address that comes back to `path` afterwards. */
export function loginHref(path: string): string {
  const next = safeNextPath(path);
  return next === "/" ? "/login" : `/login?next=${encodeURIComponent(next)}`;
}
