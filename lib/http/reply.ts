// A handler returns plain data (sent as JSON with the operation's success status), a Reply when the
// status depends on the outcome (200 vs 202, 204), a JsonBody kept for reuse, or a ready Response (HTML, PNG, SSE).
export class Reply {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
  ) {}
}

export function reply(status: number, body?: unknown, headers?: Record<string, string>): Reply {
  return new Reply(status, body, headers);
}

/**
 * A JSON answer that is kept and sent again (the history lists, served from memory while nothing changed): the
 * value, and its UTF-8 encoding made once, on the first send.
 */
// Next bundles pages and route handlers with their own copies of this module, so a JsonBody is recognised by a
// process-wide brand, not by instanceof.
const JSON_BODY = Symbol.for("dsa.JsonBody");

export class JsonBody<T = unknown> {
  readonly [JSON_BODY] = true;
  #bytes: Uint8Array | undefined;
  constructor(readonly value: T) {}
  bytes(): Uint8Array {
    this.#bytes ??= encodeJson(this.value);
    return this.#bytes;
  }
}

export function isJsonBody(value: unknown): value is JsonBody {
  return typeof value === "object" && value !== null && (value as { [JSON_BODY]?: unknown })[JSON_BODY] === true;
}

// Bytes, not the string: a string body is scanned for lone surrogates (toUSVString) and encoded again by the
// Fetch layer on every response, a measurable share of a large list's cost; JSON.stringify never emits them.
function encodeJson(body: unknown): Uint8Array {
  return Buffer.from(JSON.stringify(body), "utf8");
}

export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  if (status === 204 || body === undefined) return new Response(null, { status, headers });
  return jsonBytesResponse(status, encodeJson(body), headers);
}

export function jsonBytesResponse(status: number, bytes: Uint8Array, headers: Record<string, string> = {}): Response {
  return new Response(bytes as Uint8Array<ArrayBuffer>, {
    status,
    headers: { "content-type": "application/json; charset=utf-8", ...headers },
  });
}
