import { requestJson } from "../http";
import { KeyRing, withKeyRotation } from "../keys";
import { asArray, asObject, hostOf, httpUrl, instant, newsItem } from "../text";
import { NewsProviderError, type NewsProvider, type TNewsItem } from "../types";

// Tavily POST /search (recorded body: tavily/search-basic-current-mayor-nyc.json). Asked with
// topic "news" so results carry published_date (RFC 1123, described in the fixture README, not recorded).

export const TAVILY_URL = "https://api.tavily.com/search";

export function parseTavily(body: unknown): TNewsItem[] {
  const root = asObject(body);
  if (!root || !Array.isArray(root.results)) throw new NewsProviderError("tavily: unexpected layout (no results[])");
  return asArray(root.results).flatMap((entry) => {
    const r = asObject(entry);
    if (!r) return [];
    const url = httpUrl(r.url);
    const item = newsItem({
      title: r.title,
      url,
      snippet: r.content,
      source: url ? hostOf(url) : "",
      published_at: instant(r.published_date),
    });
    return item ? [item] : [];
  });
}

export function createTavilyProvider(options: { keys: readonly string[] }): NewsProvider {
  const ring = new KeyRing(options.keys);
  return {
    name: "tavily",
    async search(query, { limit, days, signal }) {
      return withKeyRotation(ring, signal, (key) =>
        requestJson({
          method: "POST",
          url: TAVILY_URL,
          headers: { Authorization: `Bearer ${key}` },
          body: {
            query,
            topic: "news",
            days: Math.max(1, Math.round(days)),
            search_depth: "basic",
            max_results: Math.min(Math.max(limit, 1), 20),
            include_answer: false,
            include_raw_content: false,
            include_images: false,
          },
          signal,
        }).then(parseTavily),
      );
    },
  };
}
