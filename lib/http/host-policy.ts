import net from "node:net";
import os from "node:os";
import type { TSettings } from "@/lib/settings/settings-schema";

// DNS rebinding: a page on a name its owner re-resolves to this machine is "same origin" to the browser, so the
// Origin check alone lets it read and write the whole API while admin auth is off. Only names that cannot be
// pointed here from outside are served: IP literals, localhost, this machine's own name, the host of
// PUBLIC_BASE_URL and those listed in ALLOWED_HOSTS.

type HostSettings = Pick<TSettings, "ALLOWED_HOSTS" | "PUBLIC_BASE_URL" | "HOSTNAME" | "TRUST_X_FORWARDED_FOR">;

/** The host name of a Host header value (port and IPv6 brackets removed, lower case, one trailing dot dropped). */
export function hostNameOf(hostHeader: string): string | null {
  const value = hostHeader.trim().toLowerCase();
  if (value === "" || /[\s/\\@?#]/.test(value)) return null; // userinfo, a path: not a host
  try {
    const { hostname } = new URL(`http://${value}`);
    const bare = hostname.startsWith("[") ? hostname.slice(1, -1) : hostname;
    return bare.endsWith(".") ? bare.slice(0, -1) : bare;
  } catch {
    return null;
  }
}

function hostOfUrl(url: string): string | null {
  try {
    return url === "" ? null : hostNameOf(new URL(url).host);
  } catch {
    return null;
  }
}

/** Whether one listed pattern names the host: an exact name, `.example.com` for it and every subdomain, or `*`. */
function matches(pattern: string, host: string): boolean {
  if (pattern === "*") return true;
  if (pattern.startsWith(".")) return host === pattern.slice(1) || host.endsWith(pattern);
  return host === pattern;
}

export function hostAllowed(host: string, settings: HostSettings): boolean {
  if (net.isIP(host) !== 0 || host === "localhost" || host.endsWith(".localhost")) return true;
  const machine = os.hostname().toLowerCase();
  if (host === machine || host === `${machine}.local`) return true;
  if (host === hostNameOf(settings.HOSTNAME)) return true;
  if (host === hostOfUrl(settings.PUBLIC_BASE_URL)) return true;
  return settings.ALLOWED_HOSTS.some((pattern) => matches(pattern, host));
}

/**
 * Why the request's host is not served, or null when it is. The host is the proxy's X-Forwarded-Host when proxy
 * headers are trusted, else Host; a request without either (HTTP/1.0 tools) names no host a page could rebind.
 */
export function refuseHost(
  headers: Record<string, string | string[] | undefined>,
  settings: HostSettings,
): string | null {
  const forwarded = settings.TRUST_X_FORWARDED_FOR ? first(headers["x-forwarded-host"]) : undefined;
  const raw = forwarded ?? first(headers.host);
  if (raw === undefined || raw.trim() === "") return null;
  const host = hostNameOf(raw);
  if (host !== null && hostAllowed(host, settings)) return null;
  const shown = raw.slice(0, 100);
  return `The host ${JSON.stringify(shown)} is not served here: open the service by its IP address or localhost, or add the name to ALLOWED_HOSTS (or set PUBLIC_BASE_URL to the address users open)`;
}

function first(value: string | string[] | undefined): string | undefined {
  const one = Array.isArray(value) ? value[0] : value;
  return one?.split(",")[0]?.trim();
}
