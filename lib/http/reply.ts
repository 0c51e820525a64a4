import { encodeJson } from "@/lib/operation/json-body";

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
