import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { setClock } from "@/lib/clock";
import { setEnvironmentForTests } from "@/lib/settings/settings";
import { fixtureText } from "@/tests/kits/market-replay";
import { createBochaProvider } from "./providers/bocha";
import { createBraveProvider } from "./providers/brave";
import { createSerpApiProvider } from "./providers/serpapi";
import { createTavilyProvider } from "./providers/tavily";
import { configuredNewsChain, searchNews, searchNewsWith, type NewsChain } from "./search";
import { searchStockNews } from "./stock-news";
import { hang, json, stubFetch, type StubCall } from "@/tests/kits/news-fetch-stub";
import type { NewsProvider } from "./types";

// The news fallback chain over a stubbed fetch that replays the recorded bodies; no test
// reaches the network (an unmatched request fails like a refused connection).

const TAVILY = fixtureText("tavily/search-basic-current-mayor-nyc.json");
const SERPAPI = fixtureText("serpapi/google-news-noticias-nicaragua-hoy.json");
const BOCHA = fixtureText("bocha/web-search-alibaba-esg-2024.json");
const BRAVE = fixtureText("brave/web-search-tokyo-weather-forecast-jp.json");

const KEYS = {
  bocha: ["sk-bocha-AAAA1111", "sk-bocha-BBBB2222"],
  tavily: ["tvly-dev-CCCC3333", "tvly-dev-DDDD4444", "tvly-dev-EEEE5555"],
  brave: ["BSAffff6666gggg"],
  serpapi: ["serp0123456789abcdef"],
};
const ALL_KEYS = Object.values(KEYS).flat();

function chainOf(timeoutMs = 200, keys: Partial<typeof KEYS> = KEYS): NewsChain {
  const providers: NewsProvider[] = [];
  if (keys.bocha) providers.push(createBochaProvider({ keys: keys.bocha }));
  if (keys.tavily) providers.push(createTavilyProvider({ keys: keys.tavily }));
  if (keys.brave) providers.push(createBraveProvider({ keys: keys.brave }));
  if (keys.serpapi) providers.push(createSerpApiProvider({ keys: keys.serpapi }));
  return { providers, timeoutMs, secrets: Object.values(keys).flat() };
}

type Host = "api.bochaai.com" | "api.tavily.com" | "api.search.brave.com" | "serpapi.com";
type Answer = (call: StubCall, signal: AbortSignal | undefined) => Response | Promise<Response>;

/** Route by host; an unrouted host fails like a refused connection, naming the full URL (key included). */
function route(answers: Partial<Record<Host, Answer>>) {
  return stubFetch((call, signal) => {
    const answer = answers[call.url.hostname as Host];
    if (!answer) throw new TypeError(`fetch failed (no recorded reply for ${call.url.href})`);
    return answer(call, signal);
  });
}
const body =
  (text: string, status = 200): Answer =>
  () =>
    json(text, status);
const keyOf = (call: StubCall) =>
  call.headers.authorization?.replace(/^Bearer /, "") ??
  call.headers["x-subscription-token"] ??
  call.url.searchParams.get("api_key");

beforeEach(() => setClock(() => new Date("2026-09-28T12:00:00Z")));
afterEach(() => {
  vi.unstubAllGlobals();
  setClock(null);
  setEnvironmentForTests(process.env);
});

describe("fallback order", () => {
  it("failure, garbage, timeout → next; order bocha, tavily, brave, serpapi; attempts recorded", async () => {
    const { calls } = route({
      "api.bochaai.com": body('{"code":"500","message":"internal error"}', 500),
      "api.tavily.com": body("<html>upstream gateway</html>"),
      "api.search.brave.com": (_, signal) => hang(signal),
      "serpapi.com": body(SERPAPI),
    });
    const result = await searchNewsWith("noticias Nicaragua hoy", { limit: 10, days: 3 }, chainOf(60));
    expect(calls.map((c) => c.url.hostname)).toEqual([
      "api.bochaai.com",
      "api.tavily.com",
      "api.search.brave.com",
      "serpapi.com",
    ]);
    expect(result.provider).toBe("serpapi");
    expect(result.disclosure).toBeNull();
    expect(result.attempts.map(({ provider, ok, reason }) => ({ provider, ok, reason }))).toEqual([
      { provider: "bocha", ok: false, reason: "HTTP 500: internal error" },
      { provider: "tavily", ok: false, reason: "body is not JSON" },
      { provider: "brave", ok: false, reason: "timeout after 60 ms" },
      { provider: "serpapi", ok: true, reason: null },
    ]);
    expect(result.attempts[2]?.ms).toBeGreaterThanOrEqual(50);
    // Only the four results of 2026-09-28 are inside 3 days (+1 day of slack) of the pinned clock.
    expect(result.items.map((i) => i.source)).toEqual(["Claro Sports", "Diez.HN", "Clarín", "365Scores"]);
  });

  it("the first provider with items wins; later ones are never called", async () => {
    const { calls } = route({ "api.bochaai.com": body(BOCHA), "api.tavily.com": body(TAVILY) });
    const result = await searchNewsWith("阿里巴巴 ESG", { limit: 5, days: 3650 }, chainOf());
    expect(calls).toHaveLength(1);
    expect(result.provider).toBe("bocha");
    expect(result.items).toHaveLength(5);
    expect(result.attempts).toEqual([{ provider: "bocha", ok: true, reason: null, ms: expect.any(Number) }]);
  });

  it("an empty answer, or one with only stale items, falls through", async () => {
    route({
      "api.bochaai.com": body(BOCHA),
      "api.tavily.com": body('{"query":"q","results":[]}'),
      "api.search.brave.com": body(BRAVE),
    });
    const result = await searchNewsWith(
      "q",
      { limit: 10, days: 7 },
      chainOf(200, { bocha: KEYS.bocha, tavily: KEYS.tavily, brave: KEYS.brave }),
    );
    expect(result.attempts.map((a) => a.reason)).toEqual(["empty (7 older than 7 days)", "empty", null]);
    expect(result.provider).toBe("brave");
    expect(result.items.map((i) => i.source)).toEqual(["AccuWeather", "TimeAndDate", "BBC"]);
  });

  it("a provider that ignores its abort signal still loses to the deadline", async () => {
    const stuck: NewsProvider = { name: "tavily", search: () => new Promise(() => undefined) };
    const result = await searchNewsWith("q", { limit: 3, days: 1 }, { providers: [stuck], timeoutMs: 30 });
    expect(result).toMatchObject({
      items: [],
      disclosure: "no_news_evidence",
      attempts: [{ provider: "tavily", ok: false, reason: "timeout after 30 ms" }],
    });
  });

  it("the caller's own abort stops the search instead of falling through", async () => {
    const controller = new AbortController();
    const { calls } = route({
      "api.bochaai.com": (_, signal) => {
        setTimeout(() => controller.abort(new Error("analysis cancelled")), 10);
        return hang(signal);
      },
      "api.tavily.com": body(TAVILY),
    });
    await expect(searchNewsWith("q", { signal: controller.signal }, chainOf(5000))).rejects.toThrow(
      "analysis cancelled",
    );
    expect(calls).toHaveLength(1);
  });
});

describe("key rotation", () => {
  it("401 and 429 pass the call to the next key; the next call starts with the key that worked", async () => {
    const { calls } = route({
      "api.tavily.com": (call) => {
        const key = keyOf(call);
        if (key === KEYS.tavily[0])
          return json('{"detail":{"error":"Unauthorized: missing or invalid API key."}}', 401);
        if (key === KEYS.tavily[1]) return json('{"detail":{"error":"rate limited"}}', 429);
        return json(TAVILY);
      },
    });
    const chain = chainOf(200, { tavily: KEYS.tavily });
    const first = await searchNewsWith("q", { limit: 5, days: 7 }, chain);
    expect(first).toMatchObject({ provider: "tavily", attempts: [{ provider: "tavily", ok: true }] });
    expect(calls.map(keyOf)).toEqual(KEYS.tavily);
    calls.length = 0;
    await searchNewsWith("q", { limit: 5, days: 7 }, chain);
    // The refused keys are cooling down, so the working key goes first.
    expect(calls.map(keyOf)).toEqual([KEYS.tavily[2]]);
  });

  it("round robin across working keys (quota spread); the key travels as each API wants it", async () => {
    const { calls } = route({
      "api.bochaai.com": body(BOCHA),
      "serpapi.com": body(SERPAPI),
      "api.search.brave.com": body(BRAVE),
    });
    const bocha = chainOf(200, { bocha: KEYS.bocha });
    await searchNewsWith("q", { days: 3650 }, bocha);
    await searchNewsWith("q", { days: 3650 }, bocha);
    await searchNewsWith("q", { days: 3650 }, bocha);
    expect(calls.map(keyOf)).toEqual([KEYS.bocha[0], KEYS.bocha[1], KEYS.bocha[0]]);
    expect(calls[0]?.headers.authorization).toBe(`Bearer ${KEYS.bocha[0]}`);
    await searchNewsWith("q", { days: 3650 }, chainOf(200, { serpapi: KEYS.serpapi }));
    expect(calls.at(-1)?.url.searchParams.get("api_key")).toBe(KEYS.serpapi[0]);
    await searchNewsWith("q", { days: 3650 }, chainOf(200, { brave: KEYS.brave }));
    expect(calls.at(-1)?.headers["x-subscription-token"]).toBe(KEYS.brave[0]);
  });

  it("every key refused (HTTP or Bocha's code in the body) → the provider fails over", async () => {
    route({
      "api.bochaai.com": (call) =>
        keyOf(call) === KEYS.bocha[0] ? json('{"code":"403","message":"余额不足"}') : json('{"code":"401"}', 401),
      "api.tavily.com": body(TAVILY),
    });
    const result = await searchNewsWith("q", { days: 3650 }, chainOf(200, { bocha: KEYS.bocha, tavily: KEYS.tavily }));
    expect(result.attempts.map((a) => a.reason)).toEqual(["all 2 key(s) refused (HTTP 403, 401)", null]);
    expect(result.provider).toBe("tavily");
  });

  it("other failures (5xx) do not burn through the remaining keys", async () => {
    const { calls } = route({ "api.bochaai.com": body("{}", 503) });
    const result = await searchNewsWith("q", {}, chainOf(200, { bocha: KEYS.bocha }));
    expect(calls).toHaveLength(1);
    expect(result.attempts[0]?.reason).toBe("HTTP 503");
  });
});

describe("normalised items", () => {
  it("de-duplicated by normalised URL, first occurrence kept, cut to the limit", async () => {
    const results = [
      { title: "A", url: "https://www.example.com/news/1", content: "first" },
      { title: "A again", url: "http://example.com/news/1/?utm_source=x", content: "dup" },
      { title: "B", url: "https://example.com/news/2", content: "b" },
      { title: "C", url: "https://example.com/news/3", content: "c" },
    ];
    route({ "api.tavily.com": () => json({ results }) });
    const result = await searchNewsWith("q", { limit: 2 }, chainOf(200, { tavily: KEYS.tavily }));
    expect(result.items.map((i) => [i.title, i.snippet])).toEqual([
      ["A", "first"],
      ["B", "b"],
    ]);
  });

  it("requests carry the window and the limit in each API's terms", async () => {
    const { calls } = route({
      "api.bochaai.com": body('{"code":200,"data":{"webPages":{"value":[]}}}'),
      "api.tavily.com": body('{"results":[]}'),
      "api.search.brave.com": body('{"type":"search"}'),
      "serpapi.com": body('{"search_metadata":{"status":"Success"},"news_results":[]}'),
    });
    const result = await searchNewsWith("贵州茅台 600519 最新消息", { limit: 8, days: 3, language: "zh" }, chainOf());
    expect(result.disclosure).toBe("no_news_evidence");
    const [bocha, tavily, brave, serp] = calls;
    expect(bocha).toMatchObject({
      method: "POST",
      body: { query: "贵州茅台 600519 最新消息", freshness: "oneWeek", count: 8, summary: false },
    });
    expect(tavily).toMatchObject({
      method: "POST",
      body: { query: "贵州茅台 600519 最新消息", topic: "news", days: 3, max_results: 8 },
    });
    expect(Object.fromEntries(brave?.url.searchParams ?? [])).toEqual({
      q: "贵州茅台 600519 最新消息",
      count: "8",
      safesearch: "moderate",
      freshness: "pw",
      search_lang: "zh-hans",
    });
    expect(serp?.url.searchParams.get("q")).toBe("贵州茅台 600519 最新消息 when:3d");
    expect(serp?.url.searchParams.get("engine")).toBe("google_news");
    expect(serp?.url.searchParams.get("hl")).toBe("zh-cn");
  });
});

describe("no news evidence", () => {
  it("no key configured → no provider, no request, the empty-news disclosure", async () => {
    setEnvironmentForTests({ ENV_FILE: "/nonexistent/.env" });
    const { calls } = route({});
    expect(configuredNewsChain().providers).toEqual([]);
    const result = await searchNews("贵州茅台 600519 最新消息");
    expect(result).toEqual({
      query: "贵州茅台 600519 最新消息",
      items: [],
      provider: null,
      disclosure: "no_news_evidence",
      attempts: [],
    });
    const stock = await searchStockNews({ code: "600519", name: "贵州茅台", market: "cn" });
    expect(stock.disclosure).toBe("no_news_evidence");
    expect(calls).toHaveLength(0);
  });

  it("keys set → providers enabled in order, lists split on commas (blanks ignored)", async () => {
    setEnvironmentForTests({
      ENV_FILE: "/nonexistent/.env",
      SERPAPI_API_KEYS: "serp-1-xxxx",
      TAVILY_API_KEYS: " tvly-a-xxxx , ,tvly-b-xxxx",
      BOCHA_API_KEYS: "",
    });
    const chain = configuredNewsChain();
    expect(chain.providers.map((p) => p.name)).toEqual(["tavily", "serpapi"]);
    const { calls } = route({ "api.tavily.com": body(TAVILY) });
    const result = await searchStockNews({ code: "AAPL", name: "Apple", market: "us" }, { days: 30 });
    expect(result).toMatchObject({ query: "Apple AAPL stock news", provider: "tavily", disclosure: null });
    expect(calls[0]?.headers.authorization).toBe("Bearer tvly-a-xxxx");
  });

  it("every provider failing → empty items with the disclosure and all attempts", async () => {
    route({});
    const result = await searchNewsWith("q", {}, chainOf());
    expect(result.items).toEqual([]);
    expect(result.disclosure).toBe("no_news_evidence");
    expect(result.attempts.map((a) => [a.provider, a.ok])).toEqual([
      ["bocha", false],
      ["tavily", false],
      ["brave", false],
      ["serpapi", false],
    ]);
  });
});

describe("secrets", () => {
  it("keys never appear in attempts, even when the failure text echoes the URL or the key", async () => {
    route({
      // Echoes the key in the error body, as some gateways do.
      "api.bochaai.com": (call) => json({ code: "500", message: `bad key ${keyOf(call)}` }, 500),
      "api.tavily.com": (call) => json({ detail: { error: `Invalid API key: ${keyOf(call)}` } }, 400),
      "api.search.brave.com": (call) => {
        throw new TypeError(`connect ECONNREFUSED (X-Subscription-Token: ${keyOf(call)})`);
      },
      // serpapi.com unrouted: the refusal message carries the whole URL, api_key included.
    });
    const result = await searchNewsWith("q", {}, chainOf());
    const text = JSON.stringify(result);
    for (const key of ALL_KEYS) expect(text).not.toContain(key);
    expect(result.attempts.map((a) => a.reason)).toEqual([
      "HTTP 500: bad key ***",
      "HTTP 400: Invalid API key: ***",
      "network error: connect ECONNREFUSED (X-Subscription-Token: ***)",
      expect.stringMatching(
        /^network error: fetch failed \(no recorded reply for https:\/\/serpapi\.com\/search\.json\?.*api_key=\*\*\*/,
      ),
    ]);
  });
});
