import { freshnessBucket, requestJson } from "../http";
import { KeyRing, withKeyRotation } from "../keys";
import { asArray, asObject, beijingZInstant, instant, newsItem } from "../text";
import { NewsKeyRejectedError, NewsProviderError, type NewsProvider, type TNewsItem } from "../types";

// Bocha POST /v1/web-search (body: bocha/web-search-alibaba-esg-2024.json, the vendor's documented example
// of a real call). The reply is Bing-shaped under data.webPages.value[].

export const BOCHA_URL = "https://api.bochaai.com/v1/web-search";

const FRESHNESS = { day: "oneDay", week: "oneWeek", month: "oneMonth", year: "oneYear", any: "noLimit" } as const;

export function parseBocha(body: unknown): TNewsItem[] {
  const root = asObject(body);
  if (!root) throw new NewsProviderError("bocha: unexpected layout (not an object)");
  // Errors carry code as a string ("403"); success is 200. Some gateways answer HTTP 200 with the error body.
  if (root.code !== undefined && Number(root.code) !== 200) {
    const code = Number(root.code);
    if (code === 401 || code === 403 || code === 429) throw new NewsKeyRejectedError(code);
    const message = typeof root.message === "string" ? root.message : typeof root.msg === "string" ? root.msg : "";
    throw new NewsProviderError(`bocha: code ${String(root.code)}${message ? ` ${message.slice(0, 120)}` : ""}`);
  }
  const data = asObject(root.data);
  if (!data) throw new NewsProviderError("bocha: unexpected layout (no data)");
  const pages = asObject(data.webPages);
  return asArray(pages?.value).flatMap((entry) => {
    const r = asObject(entry);
    if (!r) return [];
    const item = newsItem({
      title: r.name,
      url: r.url,
      snippet: typeof r.snippet === "string" && r.snippet.trim() !== "" ? r.snippet : r.summary,
      source: r.siteName,
      // datePublished carries a real offset; dateLastCrawled is, per Bocha, the publish time in Beijing time.
      published_at: instant(r.datePublished) ?? beijingZInstant(r.dateLastCrawled),
    });
    return item ? [item] : [];
  });
}

export function createBochaProvider(options: { keys: readonly string[] }): NewsProvider {
  const ring = new KeyRing(options.keys);
  return {
    name: "bocha",
    async search(query, { limit, days, signal }) {
      return withKeyRotation(ring, signal, (key) =>
        requestJson({
          method: "POST",
          url: BOCHA_URL,
          headers: { Authorization: `Bearer ${key}` },
          body: {
            query,
            freshness: FRESHNESS[freshnessBucket(days)],
            summary: false,
            count: Math.min(Math.max(limit, 1), 50),
          },
          signal,
        }).then(parseBocha),
      );
    },
  };
}
