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

/** One POST: the answer whatever its status, or a DeliveryError for a timeout or network failure (no URL in it). */
export async function post(url: string, body: string, options: PostOptions & { contentType: string }): Promise<HttpAnswer> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: "POST",
      headers: { "content-type": options.contentType, ...options.headers },
      body,
      signal: AbortSignal.timeout(options.timeoutMs),
      redirect: "error",
    });
  } catch (error) {
    throw networkError(error, options.timeoutMs);
  }
  return { status: response.status, text: await response.text().catch(() => "") };
}

/** Statuses a later attempt may get past: timeout, rate limit, server errors. */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || status === 408 || status >= 500;
}

/** POST a JSON body; any 2xx is returned, anything else throws a DeliveryError whose message names no URL. */
export async function postJson(url: string, body: unknown, options: PostOptions): Promise<HttpAnswer> {
  const answer = await post(url, JSON.stringify(body), { ...options, contentType: "application/json; charset=utf-8" });
  if (answer.status >= 200 && answer.status < 300) return answer;
  throw new DeliveryError(`HTTP ${answer.status}${excerpt(answer.text)}`, isRetryableStatus(answer.status));
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
