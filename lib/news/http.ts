import { NewsKeyRejectedError, NewsProviderError } from "./types";

// The one place news providers touch the network: the global fetch (so tests replay recorded bodies at
// this layer), status classification, and JSON parsing. Messages never include the URL or headers.

export interface JsonRequest {
  method: "GET" | "POST";
  url: string;
  headers?: Record<string, string>;
  /** Sent as JSON (POST). */
  body?: unknown;
  signal: AbortSignal;
}

const KEY_REFUSED = new Set([401, 403, 429]);

/** Short, key-free text from a provider's error body ({"detail":{"error"}}, {"message"}, {"error"}). */
function errorText(text: string): string {
  try {
    const body = JSON.parse(text) as Record<string, unknown>;
    const detail = body.detail as Record<string, unknown> | string | undefined;
    const raw =
      (typeof detail === "object" && detail !== null ? detail.error : detail) ??
      body.message ??
      body.msg ??
      (typeof body.error === "object" && body.error !== null
        ? (body.error as Record<string, unknown>).detail
        : body.error);
    return typeof raw === "string" ? raw.slice(0, 120) : "";
  } catch {
    return "";
  }
}

export async function requestJson(request: JsonRequest): Promise<unknown> {
  const headers: Record<string, string> = { Accept: "application/json", ...request.headers };
  if (request.body !== undefined) headers["Content-Type"] = "application/json";
  let response: Response;
  try {
    response = await fetch(request.url, {
      method: request.method,
      headers,
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
      signal: request.signal,
    });
  } catch (error) {
    if (request.signal.aborted) throw request.signal.reason ?? error;
    throw new NewsProviderError(`network error: ${(error as Error).message}`);
  }
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    if (request.signal.aborted) throw request.signal.reason ?? error;
    throw new NewsProviderError(`network error while reading the body: ${(error as Error).message}`);
  }
  if (KEY_REFUSED.has(response.status)) throw new NewsKeyRejectedError(response.status);
  if (!response.ok) {
    const detail = errorText(text);
    throw new NewsProviderError(`HTTP ${response.status}${detail ? `: ${detail}` : ""}`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new NewsProviderError("body is not JSON");
  }
}

/** Freshness windows the providers understand, from a day count. */
export function freshnessBucket(days: number): "day" | "week" | "month" | "year" | "any" {
  if (days <= 1) return "day";
  if (days <= 7) return "week";
  if (days <= 31) return "month";
  if (days <= 366) return "year";
  return "any";
}
