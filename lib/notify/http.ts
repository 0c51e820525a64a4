// One HTTP attempt to a notification service, with the outcome classified for the retry loop.

/** A failed attempt. retryable: a later attempt may succeed (timeout, network, 429, 5xx, rate-limit codes). */
export class DeliveryError extends Error {
  override name = "DeliveryError";
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
  }
}

export interface HttpAnswer {
  status: number;
  text: string;
}

export interface PostOptions {
  headers?: Record<string, string>;
  timeoutMs: number;
}

/** POST a JSON body; any 2xx is returned, anything else throws a DeliveryError whose message names no URL. */
export async function postJson(url: string, body: unknown, options: PostOptions): Promise<HttpAnswer> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json; charset=utf-8", ...options.headers },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(options.timeoutMs),
      redirect: "error",
    });
  } catch (error) {
    throw networkError(error, options.timeoutMs);
  }
  const text = await response.text().catch(() => "");
  if (response.ok) return { status: response.status, text };
  const retryable = response.status === 429 || response.status === 408 || response.status >= 500;
  throw new DeliveryError(`HTTP ${response.status}${excerpt(text)}`, retryable);
}

export function networkError(error: unknown, timeoutMs: number): DeliveryError {
  const err = error as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (err?.name === "TimeoutError" || err?.name === "AbortError") return new DeliveryError(`timeout after ${timeoutMs} ms`, true);
  const code = err?.cause?.code ?? err?.cause?.message ?? err?.message ?? "unknown";
  return new DeliveryError(`network error: ${code}`, true);
}

/** JSON answer of a service that reports errors in a 200 body ({errcode}, {code}, {ok}). */
export function parseAnswer(text: string): Record<string, unknown> {
  try {
    const value = JSON.parse(text) as unknown;
    return value && typeof value === "object" ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function excerpt(text: string): string {
  const trimmed = text.trim().replace(/\s+/g, " ");
  return trimmed === "" ? "" : `: ${trimmed.slice(0, 200)}`;
}
