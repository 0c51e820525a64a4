import { ApiError } from "./api-error";

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

/** Reads a JSON body, refusing more than the limit before buffering it (Content-Length or streamed). */
export async function readJsonBody(req: Request, limit = MAX_JSON_BODY_BYTES): Promise<unknown> {
  const text = (await readLimited(req, limit))?.toString("utf8") ?? "";
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw ApiError.of("invalid_request", "Request body is not valid JSON");
  }
}

/**
 * Reads a multipart/form-data body into a plain object (one value per field: text or File) for the
 * operation's zod schema, refusing more than the limit before buffering it; undefined when absent.
 */
export async function readFormBody(req: Request, limit = MAX_JSON_BODY_BYTES): Promise<Record<string, FormDataEntryValue> | undefined> {
  const contentType = req.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data\s*;/i.test(contentType)) {
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
