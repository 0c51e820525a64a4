import { ApiError } from "./api-error";

export const MAX_JSON_BODY_BYTES = 1024 * 1024;

/** Reads a JSON body, refusing more than the limit before buffering it (Content-Length or streamed). */
export async function readJsonBody(req: Request, limit = MAX_JSON_BODY_BYTES): Promise<unknown> {
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
  const text = Buffer.concat(chunks).toString("utf8");
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw ApiError.of("invalid_request", "Request body is not valid JSON");
  }
}

function tooLarge(limit: number): ApiError {
  return ApiError.of("payload_too_large", `Request body exceeds ${limit} bytes`);
}
