import { z } from "zod";

// News search: one normalised item whatever the provider, small enough to store with the
// analysis and to serve as the spec's NewsIntelItem (snippet at most 50 characters).

export const NEWS_PROVIDER_NAMES = ["bocha", "tavily", "brave", "serpapi"] as const;
export type NewsProviderName = (typeof NEWS_PROVIDER_NAMES)[number];

export const SNIPPET_MAX = 50;

export const ZNewsItem = z.object({
  title: z.string().min(1),
  /** At most 50 UTF-16 code units (so at most 50 characters however they are counted); "" when the provider sent none. */
  snippet: z.string().max(SNIPPET_MAX),
  url: z.url({ protocol: /^https?$/ }),
  /** Publisher or site name, as the provider names it (else the URL's host). */
  source: z.string(),
  /** ISO 8601 UTC instant, or null when the provider gave no usable date. */
  published_at: z.iso.datetime().nullable(),
});
export type TNewsItem = z.infer<typeof ZNewsItem>;

/** The spec's empty-news disclosure marker: the run found no news evidence. */
export const NO_NEWS_EVIDENCE = "no_news_evidence" as const;

export interface NewsSearchOptions {
  /** Most items wanted (providers are asked for this many; the result is cut to it). */
  limit: number;
  /** Freshness window in days. */
  days: number;
  signal: AbortSignal;
  /** Hints for providers that localise results; the query text itself is the caller's. */
  language?: "zh" | "en";
}

export interface NewsProvider {
  readonly name: NewsProviderName;
  /** Normalised items in the provider's order (not yet de-duplicated); [] when it found nothing. */
  search(query: string, options: NewsSearchOptions): Promise<TNewsItem[]>;
}

/** One provider's turn in the fallback chain, for diagnostics. Never carries a key. */
export interface NewsAttempt {
  provider: NewsProviderName;
  ok: boolean;
  /** null on success; otherwise why the chain moved on ("timeout after 10000 ms", "empty", "HTTP 500", ...). */
  reason: string | null;
  ms: number;
}

export interface NewsSearchResult {
  query: string;
  items: TNewsItem[];
  /** The provider whose items these are; null when none answered with any. */
  provider: NewsProviderName | null;
  /** "no_news_evidence" when items is empty (no key configured, every provider failed or found nothing). */
  disclosure: typeof NO_NEWS_EVIDENCE | null;
  attempts: NewsAttempt[];
}

/** The provider answered, but not with anything usable (bad status, not JSON, unknown layout). */
export class NewsProviderError extends Error {
  override name = "NewsProviderError";
}

/** 401/403/429 (or the provider's equivalent in the body): this key is refused, another key may work. */
export class NewsKeyRejectedError extends NewsProviderError {
  override name = "NewsKeyRejectedError";
  constructor(readonly status: number) {
    super(`HTTP ${status}`);
  }
}
