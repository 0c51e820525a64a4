import type { FormData } from "undici";
import { guardedFetch, outboundRefusalOf } from "@/lib/net/outbound-connect";
import { DeliveryError, isRetryableStatus, networkError, serviceReason, statusLine } from "@/lib/notify/http";

// Calls to a platform's API for the bots' replies: the outbound policy on every request, no redirects, the answer's
// JSON or a DeliveryError whose message names no URL (URLs hold tokens: Telegram's path, DingTalk's session webhook).

const TIMEOUT_MS = 20_000;

export async function callPlatform(
  url: string,
  init: { method?: "GET" | "POST"; json?: unknown; form?: FormData; headers?: Record<string, string> },
  signal: AbortSignal,
): Promise<Record<string, unknown>> {
  let response: Response;
  try {
    response = await guardedFetch(url, {
      method: init.method ?? "POST",
      headers: {
        ...(init.json !== undefined ? { "content-type": "application/json; charset=utf-8" } : {}),
        ...init.headers,
      },
      // undici's own FormData: the fetch behind guardedFetch is undici's, which reads only its own class as multipart.
      body: (init.json !== undefined ? JSON.stringify(init.json) : init.form) as BodyInit | undefined,
      signal: AbortSignal.any([signal, AbortSignal.timeout(TIMEOUT_MS)]),
      redirect: "error",
    });
  } catch (error) {
    const refused = outboundRefusalOf(error);
    if (refused) throw new DeliveryError(`destination refused: ${refused.message}`, false);
    throw networkError(error, TIMEOUT_MS);
  }
  const text = await response.text().catch(() => "");
  if (response.status < 200 || response.status >= 300)
    throw new DeliveryError(`${statusLine(response.status)}${serviceReason(text)}`, isRetryableStatus(response.status));
  try {
    const value = JSON.parse(text) as unknown;
    return value !== null && typeof value === "object" ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** A token the platform hands out for a while (Feishu's tenant token, WeCom's access token), fetched again early. */
export class CachedToken {
  private value: { token: string; until: number; key: string } | null = null;

  constructor(private readonly fetchToken: (signal: AbortSignal) => Promise<{ token: string; expiresInSec: number }>) {}

  async get(key: string, signal: AbortSignal): Promise<string> {
    const at = Date.now();
    if (this.value && this.value.key === key && this.value.until > at) return this.value.token;
    const fresh = await this.fetchToken(signal);
    // Five minutes early, as the platforms advise; a changed secret (key) is a new token at once.
    this.value = { token: fresh.token, until: at + Math.max(0, fresh.expiresInSec - 300) * 1000, key };
    return fresh.token;
  }

  clear(): void {
    this.value = null;
  }
}
