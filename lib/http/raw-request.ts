import { ERROR_STATUS } from "@/lib/errors/error-codes";
import { refuseHost } from "./host-policy";

// Checks on the raw request that Next itself answers with a bare text 500 or an empty body (a malformed
// percent-escape in the path, an unknown method, a method the matched route file does not export, a request
// line or headers Node's parser refuses): the start-up server runs them first and answers in our own shapes.

export const ALLOWED_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;

type RefusalCode =
  | "forbidden"
  | "invalid_request"
  | "method_not_allowed"
  | "request_header_too_large"
  | "request_timeout"
  | "uri_too_long";

/**
 * Longest request target served. Next echoes the target in redirects (a normalised `..` segment, a trailing
 * slash), so a target near Node's 16 KiB header limit came back in a `Location` no client could read.
 */
export const MAX_URL_LENGTH = 8192;

export interface RawRefusal {
  status: number;
  code: RefusalCode;
  message: string;
  headers: Record<string, string>;
}

function refusal(code: RefusalCode, message: string, headers: Record<string, string> = {}): RawRefusal {
  return { status: ERROR_STATUS[code], code, message, headers };
}

/** The API's routes as a tree of path segments ({param} segments match any one segment), with their methods. */
export interface RouteNode {
  fixed: Map<string, RouteNode>;
  param?: RouteNode;
  methods: Set<string>;
}

export function routeTable(routes: readonly { method: string; path: string }[]): RouteNode {
  const root: RouteNode = { fixed: new Map(), methods: new Set() };
  for (const { method, path } of routes) {
    let node = root;
    for (const segment of path.split("/").filter(Boolean)) {
      if (/^\{.+\}$/.test(segment)) node = node.param ??= { fixed: new Map(), methods: new Set() };
      else {
        const child = node.fixed.get(segment) ?? { fixed: new Map(), methods: new Set() };
        node.fixed.set(segment, child);
        node = child;
      }
    }
    node.methods.add(method);
  }
  return root;
}

/** The methods of the route Next would pick for these segments (a fixed segment before a parameter), or null. */
function methodsAt(node: RouteNode, segments: string[]): Set<string> | null {
  if (segments.length === 0) return node.methods.size > 0 ? node.methods : null;
  const [head, ...rest] = segments;
  const fixed = node.fixed.get(head!);
  const viaFixed = fixed ? methodsAt(fixed, rest) : null;
  if (viaFixed) return viaFixed;
  return node.param ? methodsAt(node.param, rest) : null;
}

/** Why the request line cannot be served, or null when Next may take it. `routes`: the API's route table. */
export function refuseRawRequest(
  method: string | undefined,
  rawUrl: string | undefined,
  routes?: RouteNode,
): RawRefusal | null {
  if (!(ALLOWED_METHODS as readonly string[]).includes(method ?? "")) {
    return refusal("method_not_allowed", `Method ${method ?? ""} is not allowed`, {
      Allow: ALLOWED_METHODS.join(", "),
    });
  }
  const url = rawUrl ?? "/";
  // The asterisk form (`GET * HTTP/1.1`) names no resource: Next answered it with a bare 500 and no log line.
  if (url === "*") return refusal("invalid_request", "The request target * (asterisk form) names no resource");
  if (url.length > MAX_URL_LENGTH)
    return refusal("uri_too_long", `The request target is longer than ${MAX_URL_LENGTH} characters`);
  const cut = url.search(/[?#]/);
  const pathPart = cut === -1 ? url : url.slice(0, cut);
  try {
    decodeURIComponent(pathPart);
  } catch {
    return refusal("invalid_request", "The request path holds a malformed percent-escape");
  }
  if (routes && isApiPath(url)) return refuseMethod(method!, pathPart, routes);
  return null;
}

// Next answers a method the matched route file does not export with an empty 405; HEAD (from GET) and
// OPTIONS it serves itself. Paths Next redirects or normalises oddly (a trailing or doubled slash) stay Next's.
function refuseMethod(method: string, pathPart: string, routes: RouteNode): RawRefusal | null {
  if (method === "OPTIONS") return null;
  let pathname: string;
  try {
    pathname = new URL(pathPart, "http://localhost").pathname;
  } catch {
    return null;
  }
  const segments = pathname.split("/").slice(1);
  if (segments.some((s) => s === "")) return null;
  let methods: Set<string> | null;
  try {
    methods = methodsAt(
      routes,
      segments.map((s) => decodeURIComponent(s)),
    );
  } catch {
    return null;
  }
  if (!methods) return null;
  const allowed = methods.has("GET") ? [...methods, "HEAD"] : [...methods];
  if (allowed.includes(method)) return null;
  return refusal("method_not_allowed", `Method ${method} is not allowed on ${pathname.slice(0, 200)}`, {
    Allow: [...allowed, "OPTIONS"].join(", "),
  });
}

/** A request to a host name this service does not answer to (lib/http/host-policy.ts), or null. */
export function hostRefusal(
  headers: Record<string, string | string[] | undefined>,
  settings: Parameters<typeof refuseHost>[1],
): RawRefusal | null {
  const message = refuseHost(headers, settings);
  return message === null ? null : refusal("forbidden", message);
}

/** A request Node's HTTP parser refused before any handler ran (clientError): its error code → our refusal. */
export function clientErrorRefusal(code: string | undefined): RawRefusal {
  if (code === "HPE_HEADER_OVERFLOW")
    return refusal("request_header_too_large", "The request line or headers are larger than the server accepts");
  if (code === "ERR_HTTP_REQUEST_TIMEOUT") return refusal("request_timeout", "The request was not received in time");
  return refusal("invalid_request", "The request is not valid HTTP/1.1");
}

/** The request target of a raw request's first line, if it can be read (for the API-or-page choice). */
export function rawRequestTarget(rawPacket: Buffer | undefined): string | undefined {
  const line = rawPacket?.subarray(0, 4096).toString("latin1") ?? "";
  return /^[A-Z]+ (\S+)/.exec(line)?.[1];
}

/** API callers get the JSON envelope; everything else is a page a person reads. */
export function isApiPath(rawUrl: string | undefined): boolean {
  return /^\/(?:api(?:\/|$|\?)|mcp(?:$|\?)|webhooks\/|health(?:\/|$|\?)|openapi\.json)/.test(rawUrl ?? "");
}

const TITLES: Record<RefusalCode, string> = {
  forbidden: "Host not allowed",
  invalid_request: "Bad request",
  method_not_allowed: "Method not allowed",
  request_header_too_large: "Request header too large",
  request_timeout: "Request timeout",
  uri_too_long: "URI too long",
};

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function refusalBody(refusal: RawRefusal, api: boolean): { contentType: string; body: string } {
  if (api) {
    return {
      contentType: "application/json; charset=utf-8",
      body: JSON.stringify({ error: refusal.code, message: refusal.message, detail: null }),
    };
  }
  const title = `${refusal.status} · ${TITLES[refusal.code]}`;
  const body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title></head><body style="font-family:system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem"><h1 style="font-size:1.25rem">${title}</h1><p>${escapeHtml(refusal.message)}.</p><p><a href="/">DSA home</a></p></body></html>`;
  return { contentType: "text/html; charset=utf-8", body };
}
