import { freshnessBucket, requestJson } from "../http";
import { KeyRing, withKeyRotation } from "../keys";
import { asArray, asObject, naiveUtcInstant, newsItem } from "../text";
import { NewsKeyRejectedError, NewsProviderError, type NewsProvider, type TNewsItem } from "../types";

// Brave GET /res/v1/web/search (recorded body: brave/web-search-tokyo-weather-forecast-jp.json, possibly
// reduced by its source, so every field is optional). A `news` block, when Brave mixes one in, comes first.

export const BRAVE_URL = "https://api.search.brave.com/res/v1/web/search";

const FRESHNESS = { day: "pd", week: "pw", month: "pm", year: "py", any: null } as const;

function braveItem(entry: unknown): TNewsItem[] {
  const r = asObject(entry);
  if (!r) return [];
  const profile = asObject(r.profile);
  const meta = asObject(r.meta_url);
  const item = newsItem({
    title: r.title,
    url: r.url,
    snippet: r.description,
    source: profile?.name ?? r.source ?? meta?.hostname,
    // page_age is an ISO date-time without a zone: read as UTC. `age` is UI-language prose ("4 日前"): unused.
    published_at: naiveUtcInstant(r.page_age),
  });
  return item ? [item] : [];
}

export function parseBrave(body: unknown): TNewsItem[] {
  const root = asObject(body);
  if (!root) throw new NewsProviderError("brave: unexpected layout (not an object)");
  if (root.type === "ErrorResponse") {
    const error = asObject(root.error);
    const status = Number(error?.status);
    if (status === 401 || status === 403 || status === 429) throw new NewsKeyRejectedError(status);
    throw new NewsProviderError(`brave: error ${Number.isFinite(status) ? status : ""}`.trim());
  }
  const web = asObject(root.web);
  const news = asObject(root.news);
  if (root.type !== "search" && !web && !news)
    throw new NewsProviderError("brave: unexpected layout (no web or news block)");
  return [...asArray(news?.results).flatMap(braveItem), ...asArray(web?.results).flatMap(braveItem)];
}

export function createBraveProvider(options: { keys: readonly string[] }): NewsProvider {
  const ring = new KeyRing(options.keys);
  return {
    name: "brave",
    async search(query, { limit, days, signal, language }) {
      const params = new URLSearchParams({
        q: query,
        count: String(Math.min(Math.max(limit, 1), 20)),
        safesearch: "moderate",
      });
      const freshness = FRESHNESS[freshnessBucket(days)];
      if (freshness) params.set("freshness", freshness);
      if (language) params.set("search_lang", language === "zh" ? "zh-hans" : "en");
      return withKeyRotation(ring, signal, (key) =>
        requestJson({
          method: "GET",
          url: `${BRAVE_URL}?${params.toString()}`,
          headers: { "X-Subscription-Token": key },
          signal,
        }).then(parseBrave),
      );
    },
  };
}
