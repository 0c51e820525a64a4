// Checks on the raw request line that Next itself answers with a bare text 500 (a malformed percent-escape
// in the path, an unknown method): the start-up server runs them first and answers in our own shapes.

export const ALLOWED_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;

export interface RawRefusal {
  status: 400 | 405;
  code: "invalid_request" | "method_not_allowed";
  message: string;
  headers: Record<string, string>;
}

/** Why the request line cannot be served, or null when Next may take it. */
export function refuseRawRequest(method: string | undefined, rawUrl: string | undefined): RawRefusal | null {
  if (!(ALLOWED_METHODS as readonly string[]).includes(method ?? "")) {
    return { status: 405, code: "method_not_allowed", message: `Method ${method ?? ""} is not allowed`, headers: { Allow: ALLOWED_METHODS.join(", ") } };
  }
  const url = rawUrl ?? "/";
  const cut = url.search(/[?#]/);
  const pathPart = cut === -1 ? url : url.slice(0, cut);
  try {
    decodeURIComponent(pathPart);
  } catch {
    return { status: 400, code: "invalid_request", message: "The request path holds a malformed percent-escape", headers: {} };
  }
  return null;
}

/** API callers get the JSON envelope; everything else is a page a person reads. */
export function isApiPath(rawUrl: string | undefined): boolean {
  return /^\/(?:api(?:\/|$|\?)|health(?:\/|$|\?)|openapi\.json)/.test(rawUrl ?? "");
}

export function refusalBody(refusal: RawRefusal, api: boolean): { contentType: string; body: string } {
  if (api) {
    return { contentType: "application/json; charset=utf-8", body: JSON.stringify({ error: refusal.code, message: refusal.message, detail: null }) };
  }
  const title = refusal.status === 405 ? "405 · Method not allowed" : "400 · Bad request";
  const body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title></head><body style="font-family:system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem"><h1 style="font-size:1.25rem">${title}</h1><p>${refusal.message}.</p><p><a href="/">DSA home</a></p></body></html>`;
  return { contentType: "text/html; charset=utf-8", body };
}
