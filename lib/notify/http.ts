import { guardedFetch, outboundRefusalOf } from "@/lib/net/outbound-connect";

// One HTTP attempt to a notification service, with the outcome classified for the retry loop.

/** A failed attempt. retryable: a later attempt may succeed (timeout, network, 429, 5xx, rate-limit codes). */
export class DeliveryError extends Error {
  override name = "DeliveryError";
  constructor(
    message: string,
    readonly retryable: boolean,
    /** The failed answer's body, for a channel that reads structured errors from it; never shown. */
    readonly answerText?: string,
  ) {
    // Delivery errors reach API callers and the deliveries list: one short printable line.
    super(
      message
        .replace(/[\p{Cc}\p{Cf}]+/gu, " ")
        .replace(/\s+/g, " ")
        .trim()
        .slice(0, 300),
    );
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
export async function post(
  url: string,
  body: string,
  options: PostOptions & { contentType: string },
): Promise<HttpAnswer> {
  let response: Response;
  try {
    // The outbound policy, before the request and at the connect (DNS rebinding).
    response = await guardedFetch(url, {
      method: "POST",
      headers: { "content-type": options.contentType, ...options.headers },
      body,
      signal: AbortSignal.timeout(options.timeoutMs),
      redirect: "error",
    });
  } catch (error) {
    const refused = outboundRefusalOf(error);
    if (refused)
      throw new DeliveryError(
        `destination refused: ${refused.message.replace(/^Outbound request refused: /, "")}`,
        false,
      );
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
  throw new DeliveryError(
    `${statusLine(answer.status)}${serviceReason(answer.text)}`,
    isRetryableStatus(answer.status),
    answer.text,
  );
}

export function networkError(error: unknown, timeoutMs: number): DeliveryError {
  const err = error as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (err?.name === "TimeoutError" || err?.name === "AbortError")
    return new DeliveryError(`timeout after ${timeoutMs} ms`, true);
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

/**
 * What a failed answer may say about itself: its status, never its body (the body of whatever answered may
 * be an internal service's data, and delivery errors reach API callers and the deliveries list).
 */
export function statusLine(status: number): string {
  return `HTTP ${status}`;
}

const REASON_FIELDS = [
  "description",
  "errorDescription",
  "error_description",
  "message",
  "errmsg",
  "msg",
  "error",
] as const;

/**
 * The reason a service gave in a JSON error answer ({description}, {message}, {error}…), short and
 * printable; a body of any other shape (HTML, an internal service's text) is never echoed.
 */
export function serviceReason(text: string): string {
  const answer = parseAnswer(text);
  const reason = REASON_FIELDS.map((field) => answer[field]).find(
    (value): value is string => typeof value === "string" && value.trim() !== "",
  );
  if (!reason) return "";
  return `: ${reason
    .replace(/[\p{Cc}\p{Cf}]+/gu, " ")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, 100)}`;
}

/** An error code a service put in its answer, kept only when it looks like one (short, word characters). */
export function errorCode(value: unknown): string {
  const text = typeof value === "string" || typeof value === "number" ? String(value) : "";
  return /^[\w.:-]{1,64}$/.test(text) ? text : "unexpected answer";
}
