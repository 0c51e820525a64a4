import { requestJson } from "../http";
import { KeyRing, withKeyRotation } from "../keys";
import { asArray, asObject, instant, newsItem, serpApiDate } from "../text";
import { NewsProviderError, type NewsProvider, type TNewsItem } from "../types";

// SerpApi GET /search.json with engine=google_news (recorded body:
// serpapi/google-news-noticias-nicaragua-hoy.json). The parser also reads engine=google's organic_results
// and google_news story clusters (both described, not recorded). The key travels in the query string, so
// the URL is never put into a message.

export const SERPAPI_URL = "https://serpapi.com/search.json";

const NO_RESULTS = /hasn't returned any results/i;

function sourceName(value: unknown): unknown {
  const source = asObject(value);
  return source ? source.name : value;
}

function newsResult(entry: unknown): TNewsItem[] {
  const r = asObject(entry);
  if (!r) return [];
  // A story cluster has no link of its own: its stories are the results.
  if (r.link === undefined && Array.isArray(r.stories)) return r.stories.flatMap(newsResult);
  const item = newsItem({
    title: r.title,
    url: r.link,
    snippet: r.snippet,
    source: sourceName(r.source),
    published_at: instant(r.iso_date) ?? serpApiDate(r.date),
  });
  return item ? [item] : [];
}

function organicResult(entry: unknown): TNewsItem[] {
  const r = asObject(entry);
  if (!r) return [];
  const item = newsItem({
    title: r.title,
    url: r.link,
    snippet: r.snippet,
    source: sourceName(r.source),
    published_at: instant(r.iso_date),
  });
  return item ? [item] : [];
}

export function parseSerpApi(body: unknown): TNewsItem[] {
  const root = asObject(body);
  if (!root) throw new NewsProviderError("serpapi: unexpected layout (not an object)");
  if (typeof root.error === "string") {
    if (NO_RESULTS.test(root.error)) return [];
    throw new NewsProviderError(`serpapi: ${root.error.slice(0, 120)}`);
  }
  const metadata = asObject(root.search_metadata);
  if (metadata?.status === "Error") throw new NewsProviderError("serpapi: search status Error");
  const hasResults = Array.isArray(root.news_results) || Array.isArray(root.organic_results);
  if (!hasResults && !metadata) throw new NewsProviderError("serpapi: unexpected layout (no results)");
  return [...asArray(root.news_results).flatMap(newsResult), ...asArray(root.organic_results).flatMap(organicResult)];
}

export function createSerpApiProvider(options: { keys: readonly string[] }): NewsProvider {
  const ring = new KeyRing(options.keys);
  return {
    name: "serpapi",
    async search(query, { days, signal, language }) {
      // Google News has no freshness parameter; its "when:Nd" operator goes into the query text instead.
      const q = `${query} when:${Math.max(1, Math.round(days))}d`;
      const zh = language !== "en";
      // No count parameter either: Google News answers up to 100 results, cut to `limit` by the chain.
      return withKeyRotation(ring, signal, (key) => {
        const params = new URLSearchParams({
          engine: "google_news",
          q,
          hl: zh ? "zh-cn" : "en",
          gl: zh ? "cn" : "us",
          api_key: key,
        });
        return requestJson({ method: "GET", url: `${SERPAPI_URL}?${params.toString()}`, signal }).then(parseSerpApi);
      });
    },
  };
}
