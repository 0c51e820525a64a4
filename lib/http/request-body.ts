import { ApiError } from "@/lib/errors/api-error";
import type { ErrorCode } from "@/lib/errors/error-codes";
import { validationError } from "./validation";

export const MAX_JSON_BODY_BYTES = 1024 * 1024;

/** The raw body, refused past `limit` bytes before more is buffered (Content-Length or streamed); undefined when absent. */
async function readLimited(req: Request, limit: number): Promise<Buffer | undefined> {
  const declared = Number(req.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
  if (!req.body) return undefined;

  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/** The body as text, refused past `limit` bytes: a platform's signed webhook, whose signature covers the exact body. */
export async function readTextBody(req: Request, limit = MAX_JSON_BODY_BYTES): Promise<string> {
  return (await readLimited(req, limit))?.toString("utf8") ?? "";
}

// application/json or a +json type, with or without parameters (charset).
const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

/**
 * Reads a JSON body, refusing more than the limit before buffering it (Content-Length or streamed).
 * A body must say it is JSON: text/plain and form types are what a cross-site page can send without a
 * CORS preflight, so accepting them would let any web page write here.
 */
export async function readJsonBody(
  req: Request,
  limit = MAX_JSON_BODY_BYTES,
  invalidJsonCode: ErrorCode = "invalid_request",
): Promise<unknown> {
  const text = (await readLimited(req, limit))?.toString("utf8") ?? "";
  if (text.trim() === "") return undefined;
  if (!JSON_TYPE.test(req.headers.get("content-type") ?? "")) {
    throw ApiError.of("unsupported_media_type", "Request body must be sent with Content-Type: application/json");
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw ApiError.of(invalidJsonCode, "Request body is not valid JSON");
  }
  refuseLoneSurrogates(value, ["body"]);
  return value;
}

/** Nesting deeper than this is refused: no request schema goes past a few levels, and every recursive
 * step after the parse (schema checks, JSON.stringify into the database) would otherwise run out of stack. */
export const MAX_JSON_DEPTH = 64;

/**
 * JSON's \\uD800 escapes can produce strings that are not valid Unicode; SQLite, Prisma and every encoder
 * after the schema choke on them, so they are refused here once for every string and key of every body,
 * along with nesting past MAX_JSON_DEPTH. Iterative: a body of 100,000 nested arrays must not overflow the stack.
 */
function refuseLoneSurrogates(root: unknown, rootLoc: (string | number)[]): void {
  const stack: { value: unknown; loc: (string | number)[] }[] = [{ value: root, loc: rootLoc }];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const { value, loc } = next;
    if (typeof value === "string") {
      if (!value.isWellFormed()) throw loneSurrogate(loc);
      continue;
    }
    if (value === null || typeof value !== "object") continue;
    if (loc.length - rootLoc.length >= MAX_JSON_DEPTH) throw tooDeep(loc);
    // Pushed last to first, so the first offending value in document order is the one reported.
    const entries: [string | number, unknown][] = Array.isArray(value)
      ? value.map((item, i) => [i, item])
      : Object.entries(value);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, item] = entries[i]!;
      if (typeof key === "string" && !key.isWellFormed()) throw loneSurrogate(loc);
      stack.push({ value: item, loc: [...loc, key] });
    }
  }
}

function tooDeep(loc: (string | number)[]): ApiError {
  return validationError([
    { type: "too_deep", loc: loc.slice(0, 8), msg: `JSON nested deeper than ${MAX_JSON_DEPTH} levels` },
  ]);
}

function loneSurrogate(loc: (string | number)[]): ApiError {
  return validationError([
    { type: "invalid_string", loc, msg: "Text holds a lone UTF-16 surrogate (not valid Unicode)" },
  ]);
}

const MULTIPART_TYPE = /^multipart\/form-data\s*;/i;

/** The request says its body is multipart/form-data (with a boundary). */
export function isMultipartRequest(req: Request): boolean {
  return MULTIPART_TYPE.test(req.headers.get("content-type") ?? "");
}

/**
 * Reads a multipart/form-data body into a plain object (one value per field: text or File) for the
 * operation's zod schema, refusing more than the limit before buffering it; undefined when absent.
 */
export async function readFormBody(
  req: Request,
  limit = MAX_JSON_BODY_BYTES,
): Promise<Record<string, FormDataEntryValue> | undefined> {
  const contentType = req.headers.get("content-type") ?? "";
  if (!isMultipartRequest(req)) {
    if (!req.body) return undefined;
    throw ApiError.of("unsupported_media_type", "Request body must be multipart/form-data");
  }
  const raw = await readLimited(req, limit);
  if (!raw || raw.byteLength === 0) return undefined;
  let form: FormData;
  try {
    form = await new Response(new Uint8Array(raw), { headers: { "content-type": contentType } }).formData();
  } catch {
    throw ApiError.of("invalid_request", "Request body is not valid multipart/form-data");
  }
  const fields: Record<string, FormDataEntryValue> = {};
  for (const [name, value] of form.entries()) {
    // A repeated field keeps its first value, so a stray duplicate cannot replace what was checked.
    if (!(name in fields)) fields[name] = value;
  }
  return fields;
}

function tooLarge(limit: number): ApiError {
  return ApiError.of("payload_too_large", `Request body exceeds ${limit} bytes`);
}
