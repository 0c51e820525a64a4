import type { TSettings } from "@/lib/settings/settings-schema";
import { now } from "@/lib/clock";
import { getSettings } from "@/lib/settings/settings";
import { createBochaProvider } from "./providers/bocha";
import { createBraveProvider } from "./providers/brave";
import { createSerpApiProvider } from "./providers/serpapi";
import { createTavilyProvider } from "./providers/tavily";
import { redactSecrets } from "./redact";
import { urlKey } from "./text";
import {
  NO_NEWS_EVIDENCE,
  NewsProviderError,
  type NewsAttempt,
  type NewsProvider,
  type NewsProviderName,
  type NewsSearchResult,
  type TNewsItem,
} from "./types";

// The news fallback chain: configured providers in order; a failure, a timeout or an
// empty answer moves on to the next, each turn recorded (with every key masked). The first provider with
// items wins; its items are de-duplicated by URL, kept to the freshness window and cut to the limit. With
// no provider configured, or none with items, the result carries the spec's empty-news disclosure.

/** The reference service's order (Bocha first: the Chinese engine suits A-share news best). */
export const NEWS_PROVIDER_ORDER: readonly NewsProviderName[] = ["bocha", "tavily", "brave", "serpapi"];

export const DEFAULT_NEWS_TIMEOUT_MS = 10_000;
export const DEFAULT_NEWS_LIMIT = 10;
export const DEFAULT_NEWS_DAYS = 3;
const DAY_MS = 86_400_000;

export interface NewsChain {
  providers: NewsProvider[];
  /** Per-provider budget, key rotation included. */
  timeoutMs?: number;
  /** Strings to mask in every reason (the configured keys). */
  secrets?: readonly string[];
}

export interface NewsQueryOptions {
  limit?: number;
  days?: number;
  signal?: AbortSignal;
  language?: "zh" | "en";
}

class NewsTimeout extends Error {
  override name = "NewsTimeout";
}

function reasonOf(error: unknown): string {
  if (error instanceof NewsTimeout || error instanceof NewsProviderError) return error.message;
  return `error: ${error instanceof Error ? error.message : String(error)}`;
}

/** Items in the provider's order, one per URL key, inside the window (undated items are kept), at most `limit`. */
export function settleItems(items: TNewsItem[], limit: number, days: number): { items: TNewsItem[]; stale: number } {
  const seen = new Set<string>();
  const oldest = now().getTime() - (days + 1) * DAY_MS;
  const kept: TNewsItem[] = [];
  let stale = 0;
  for (const item of items) {
    const key = urlKey(item.url);
    if (seen.has(key)) continue;
    seen.add(key);
    if (item.published_at !== null && Date.parse(item.published_at) < oldest) {
      stale += 1;
      continue;
    }
    kept.push(item);
  }
  return { items: kept.slice(0, limit), stale };
}

/** One provider under one deadline; the caller's own abort ends the whole search instead. */
async function callWithDeadline(
  provider: NewsProvider,
  query: string,
  options: Required<Omit<NewsQueryOptions, "signal" | "language">> & { language?: "zh" | "en" },
  outer: AbortSignal | undefined,
  timeoutMs: number,
): Promise<TNewsItem[]> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new NewsTimeout(`timeout after ${timeoutMs} ms`)), timeoutMs);
  const onOuterAbort = () => controller.abort(outer?.reason);
  outer?.addEventListener("abort", onOuterAbort, { once: true });
  // A provider that ignores its signal still loses the race against the deadline.
  const aborted = new Promise<never>((_, reject) => {
    controller.signal.addEventListener("abort", () => reject(controller.signal.reason), { once: true });
  });
  aborted.catch(() => undefined);
  try {
    return await Promise.race([provider.search(query, { ...options, signal: controller.signal }), aborted]);
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener("abort", onOuterAbort);
  }
}

export async function searchNewsWith(
  query: string,
  options: NewsQueryOptions,
  chain: NewsChain,
): Promise<NewsSearchResult> {
  const limit = Math.max(1, Math.floor(options.limit ?? DEFAULT_NEWS_LIMIT));
  const days = Math.max(1, options.days ?? DEFAULT_NEWS_DAYS);
  const timeoutMs = chain.timeoutMs ?? DEFAULT_NEWS_TIMEOUT_MS;
  const secrets = chain.secrets ?? [];
  const attempts: NewsAttempt[] = [];
  const empty = (): NewsSearchResult => ({ query, items: [], provider: null, disclosure: NO_NEWS_EVIDENCE, attempts });

  for (const provider of chain.providers) {
    if (options.signal?.aborted) throw options.signal.reason;
    const started = performance.now();
    const ms = () => Math.round(performance.now() - started);
    let raw: TNewsItem[];
    try {
      raw = await callWithDeadline(
        provider,
        query,
        { limit, days, language: options.language },
        options.signal,
        timeoutMs,
      );
    } catch (error) {
      // The caller gave up (request cancelled): stop, do not try the others.
      if (options.signal?.aborted) throw options.signal.reason;
      attempts.push({ provider: provider.name, ok: false, reason: redactSecrets(reasonOf(error), secrets), ms: ms() });
      continue;
    }
    const settled = settleItems(raw, limit, days);
    if (settled.items.length === 0) {
      const reason = settled.stale > 0 ? `empty (${settled.stale} older than ${days} days)` : "empty";
      attempts.push({ provider: provider.name, ok: false, reason, ms: ms() });
      continue;
    }
    attempts.push({ provider: provider.name, ok: true, reason: null, ms: ms() });
    return { query, items: settled.items, provider: provider.name, disclosure: null, attempts };
  }
  return empty();
}

// Providers keep their key rings (rotation state) between calls; rebuilt only when the keys change.
let cached: { signature: string; chain: NewsChain } | null = null;

/** The setting that holds each news provider's keys. */
export const NEWS_KEY_SETTINGS = {
  bocha: "BOCHA_API_KEYS",
  tavily: "TAVILY_API_KEYS",
  brave: "BRAVE_API_KEYS",
  serpapi: "SERPAPI_API_KEYS",
} as const satisfies Record<NewsProviderName, string>;

/** Each news provider's configured keys (empty: the provider is off). */
export function newsProviderKeys(
  settings: Readonly<Pick<TSettings, (typeof NEWS_KEY_SETTINGS)[NewsProviderName]>>,
): Record<NewsProviderName, readonly string[]> {
  return {
    bocha: settings.BOCHA_API_KEYS,
    tavily: settings.TAVILY_API_KEYS,
    brave: settings.BRAVE_API_KEYS,
    serpapi: settings.SERPAPI_API_KEYS,
  };
}

/** The chain as the settings configure it: each provider with a non-empty key list, in NEWS_PROVIDER_ORDER. */
export function configuredNewsChain(): NewsChain {
  const settings = getSettings();
  const keys = newsProviderKeys(settings);
  const signature = JSON.stringify(keys);
  if (cached?.signature === signature) return cached.chain;
  const factories = {
    bocha: createBochaProvider,
    tavily: createTavilyProvider,
    brave: createBraveProvider,
    serpapi: createSerpApiProvider,
  };
  const providers = NEWS_PROVIDER_ORDER.filter((name) => keys[name].length > 0).map((name) =>
    factories[name]({ keys: keys[name] }),
  );
  const chain: NewsChain = { providers, timeoutMs: DEFAULT_NEWS_TIMEOUT_MS, secrets: Object.values(keys).flat() };
  cached = { signature, chain };
  return chain;
}

/** Search the configured providers; never throws for provider trouble (only when `signal` aborts). */
export function searchNews(query: string, options: NewsQueryOptions = {}): Promise<NewsSearchResult> {
  return searchNewsWith(query, options, configuredNewsChain());
}
