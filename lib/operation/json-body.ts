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
export function encodeJson(body: unknown): Uint8Array {
  return Buffer.from(JSON.stringify(body), "utf8");
}
