import { describe, expect, it } from "vitest";
import { fixtureText } from "@/tests/kits/market-replay";
import { NewsKeyRejectedError, NewsProviderError, ZNewsItem } from "../types";
import { parseBocha } from "./bocha";
import { parseBrave } from "./brave";
import { parseSerpApi } from "./serpapi";
import { parseTavily } from "./tavily";

// Every provider parser against its body in tests/fixtures/market-data (Tavily, SerpApi
// and Brave recorded; Bocha the vendor's documented example of a real call).
const body = (file: string): unknown => JSON.parse(fixtureText(file));

describe("tavily parser (recorded: tavily/search-basic-current-mayor-nyc.json)", () => {
  it("title, url, content → snippet ≤ 50, host as source; no published_date in a basic reply", () => {
    const items = parseTavily(body("tavily/search-basic-current-mayor-nyc.json"));
    expect(items).toEqual([
      {
        title: "List of mayors of New York City - Wikipedia",
        snippet: "The mayor of New York City is the chief executive…",
        url: "https://en.wikipedia.org/wiki/List_of_mayors_of_New_York_City",
        source: "en.wikipedia.org",
        published_at: null,
      },
      {
        title: "Office of the Mayor | Mayor's Bio | City of New York - NYC.gov",
        snippet: "Mayor Eric Adams has served the people of New Yor…",
        url: "https://www.nyc.gov/office-of-the-mayor/bio.page",
        source: "nyc.gov",
        published_at: null,
      },
    ]);
  });

  it("a topic=news published_date (RFC 1123, described not recorded) becomes ISO UTC", () => {
    const items = parseTavily({
      results: [
        { title: "T", url: "https://a.example/x", content: "c", published_date: "Mon, 01 Jun 2026 10:50:50 GMT" },
      ],
    });
    expect(items[0]?.published_at).toBe("2026-06-01T10:50:50.000Z");
  });

  it("garbage (no results[]) is an error, not an empty answer", () => {
    expect(() => parseTavily({ detail: { error: "Unauthorized" } })).toThrow(NewsProviderError);
    expect(() => parseTavily("<html>")).toThrow(NewsProviderError);
    expect(parseTavily({ results: [] })).toEqual([]);
  });
});

describe("serpapi parser (recorded: serpapi/google-news-noticias-nicaragua-hoy.json)", () => {
  const items = parseSerpApi(body("serpapi/google-news-noticias-nicaragua-hoy.json"));

  it("all 10 news_results: title, link, source.name, iso_date; google_news has no snippet", () => {
    expect(items).toHaveLength(10);
    expect(items[0]).toEqual({
      title: "Curazao vs Nicaragua: resumen, goles y resultado del partido de la Concacaf Nations League 2026",
      snippet: "",
      url: "https://www.clarosports.com/futbol/concacaf-nations-league/curazao-vs-nicaragua-en-vivo-goles-y-resultado-del-partido-de-la-concacaf-nations-league-2026-hoy-27-de-septiembre/",
      source: "Claro Sports",
      published_at: "2026-09-28T01:53:04.000Z",
    });
    expect(items.map((i) => [i.source, i.published_at])).toEqual([
      ["Claro Sports", "2026-09-28T01:53:04.000Z"],
      ["Amnesty International", "2026-06-01T07:00:00.000Z"],
      ["BBC", "2026-07-21T07:00:00.000Z"],
      ["Diez.HN", "2026-09-28T01:50:57.000Z"],
      ["Clarín", "2026-09-28T03:35:25.000Z"],
      ["365Scores", "2026-09-28T05:14:14.000Z"],
      ["UN News", "2026-03-10T07:00:00.000Z"],
      ["IPS Agencia de Noticias", "2026-08-25T07:00:00.000Z"],
      ["BBC", "2026-03-20T07:00:00.000Z"],
      ["Prensa Latina", "2026-07-19T07:00:00.000Z"],
    ]);
    // Quotes inside a title survive.
    expect(items[2]?.title).toBe(
      'EE.UU. advierte a Daniel Ortega que no se quedará "de brazos cruzados" ante el anuncio de que no habrá más elecciones en Nicaragua',
    );
    expect(items[2]?.url).toBe("https://www.bbc.com/mundo/articles/c980ljw9e3ro");
    for (const item of items) expect(ZNewsItem.parse(item)).toEqual(item);
  });

  it("the display date is used when iso_date is missing (same instant)", () => {
    const [item] = parseSerpApi({
      news_results: [
        { title: "T", link: "https://a.example/", source: { name: "S" }, date: "09/28/2026, 01:53 AM, +0000 UTC" },
      ],
    });
    expect(item?.published_at).toBe("2026-09-28T01:53:00.000Z");
    const [pm] = parseSerpApi({
      news_results: [{ title: "T", link: "https://a.example/", date: "06/01/2026, 12:30 PM, +0800 UTC" }],
    });
    expect(pm?.published_at).toBe("2026-06-01T04:30:00.000Z");
  });

  it("story clusters and engine=google organic_results (described, not recorded) are read too", () => {
    const items = parseSerpApi({
      search_metadata: { status: "Success" },
      news_results: [
        {
          title: "Cluster",
          highlight: {},
          stories: [
            { title: "A", link: "https://a.example/1", source: { name: "A" }, iso_date: "2026-01-02T03:04:05Z" },
          ],
        },
      ],
      organic_results: [
        { title: "<b>B</b>", link: "https://b.example/2", snippet: "snippet &amp; more", source: "B News" },
      ],
    });
    expect(items).toEqual([
      { title: "A", snippet: "", url: "https://a.example/1", source: "A", published_at: "2026-01-02T03:04:05.000Z" },
      { title: "B", snippet: "snippet & more", url: "https://b.example/2", source: "B News", published_at: null },
    ]);
  });

  it("errors and garbage; 'no results' is an empty answer", () => {
    expect(parseSerpApi({ error: "Google hasn't returned any results for this query." })).toEqual([]);
    expect(() => parseSerpApi({ error: "Your account has run out of searches." })).toThrow(NewsProviderError);
    expect(() => parseSerpApi({ search_metadata: { status: "Error" } })).toThrow(NewsProviderError);
    expect(() => parseSerpApi({ hello: "world" })).toThrow(NewsProviderError);
    expect(() => parseSerpApi(null)).toThrow(NewsProviderError);
  });
});

describe("bocha parser (vendor doc example: bocha/web-search-alibaba-esg-2024.json)", () => {
  const items = parseBocha(body("bocha/web-search-alibaba-esg-2024.json"));

  it("name, url, snippet (CJK, cut to 50), siteName; dateLastCrawled's 'Z' read as Beijing time", () => {
    expect(items).toHaveLength(7);
    expect(items[0]).toEqual({
      // The ideographic space (U+3000) in the title folds to an ordinary one.
      title: "阿里巴巴发布2024年ESG报告 持续推进减碳与数字化普惠",
      snippet: "阿里巴巴集团发布《2024财年环境、社会和治理（ESG）报告》（下称“报告”），详细分享过去一年在…",
      url: "https://www.alibabagroup.com/document-1752073403914780672",
      source: "www.alibabagroup.com",
      published_at: "2024-07-21T16:00:00.000Z",
    });
    expect(items[1]).toMatchObject({
      source: "大鱼号",
      url: "https://mparticle.uc.cn/article_org.html?uc_param_str=frdnsnpfvecpntnwprdssskt#!wm_cid=632457937121448960!!wm_id=b3f0578cbbd8434da8e437702e399f91",
      published_at: "2024-07-22T03:54:00.000Z",
    });
    expect(items.map((i) => i.source)).toEqual([
      "www.alibabagroup.com",
      "大鱼号",
      "搜狐网",
      "央广网",
      "澎拜",
      "中国青年网",
      "搜狐网",
    ]);
    expect(items[3]).toMatchObject({
      url: "http://tech.cnr.cn/techph/20240722/t20240722_526807992.shtml",
      published_at: "2024-07-22T09:54:38.000Z",
    });
    for (const item of items) {
      expect(item.snippet.length).toBeLessThanOrEqual(50);
      expect(ZNewsItem.parse(item)).toEqual(item);
    }
  });

  it("datePublished (newer API, described) wins over dateLastCrawled; summary fills a missing snippet", () => {
    const [item] = parseBocha({
      code: 200,
      data: {
        webPages: {
          value: [
            {
              name: "N",
              url: "https://a.example/",
              summary: "总结",
              datePublished: "2024-07-24T08:00:00+08:00",
              dateLastCrawled: "2024-07-22T00:00:00Z",
            },
          ],
        },
      },
    });
    expect(item).toMatchObject({ snippet: "总结", published_at: "2024-07-24T00:00:00.000Z", source: "a.example" });
  });

  it("error bodies (code as a string) and garbage; a reply without webPages is empty", () => {
    expect(() => parseBocha({ code: "403", message: "余额不足", log_id: "x" })).toThrow(NewsKeyRejectedError);
    expect(() => parseBocha({ code: "500", message: "internal" })).toThrow(/bocha: code 500 internal/);
    expect(() => parseBocha({ code: 200, data: null })).toThrow(NewsProviderError);
    expect(() => parseBocha([1, 2])).toThrow(NewsProviderError);
    expect(parseBocha({ code: 200, data: { _type: "SearchResponse" } })).toEqual([]);
  });
});

describe("brave parser (recorded: brave/web-search-tokyo-weather-forecast-jp.json)", () => {
  const items = parseBrave(body("brave/web-search-tokyo-weather-forecast-jp.json"));

  it("title, url, description → snippet, profile.name, page_age (no zone → UTC)", () => {
    expect(items).toEqual([
      {
        title: "Tokyo, Tokyo, Japan Weather Forecast | AccuWeather",
        snippet: "Tokyo, Tokyo, Japan Weather Forecast, with curren…",
        url: "https://www.accuweather.com/en/jp/tokyo/226396/weather-forecast/226396",
        source: "AccuWeather",
        published_at: "2026-09-23T10:38:54.000Z",
      },
      {
        title: "Tokyo, Japan 14 day weather forecast",
        snippet: "Forecasted weather conditions the coming 2 weeks…",
        url: "https://www.timeanddate.com/weather/japan/tokyo/ext",
        source: "TimeAndDate",
        published_at: "2026-09-22T00:58:03.000Z",
      },
      {
        title: "Tokyo - BBC Weather",
        snippet: "14-day weather forecast for Tokyo.",
        url: "https://www.bbc.com/weather/1850147",
        source: "BBC",
        published_at: "2026-09-22T04:58:03.000Z",
      },
    ]);
  });

  it("a news block (described) comes first; <strong> markup is stripped; hostname when no profile", () => {
    const items = parseBrave({
      type: "search",
      news: {
        type: "news",
        results: [
          {
            title: "N",
            url: "https://n.example/1",
            description: "<strong>Apple</strong> beats",
            meta_url: { hostname: "n.example" },
            page_age: "2026-09-27T08:00:00",
          },
        ],
      },
      web: { type: "search", results: [{ title: "W", url: "https://w.example/1" }] },
    });
    expect(items.map((i) => [i.title, i.snippet, i.source])).toEqual([
      ["N", "Apple beats", "n.example"],
      ["W", "", "w.example"],
    ]);
  });

  it("ErrorResponse and garbage; a search with no web block is empty", () => {
    expect(() => parseBrave({ type: "ErrorResponse", error: { status: 429, code: "RATE_LIMITED" } })).toThrow(
      NewsKeyRejectedError,
    );
    expect(() => parseBrave({ type: "ErrorResponse", error: { status: 422 } })).toThrow(NewsProviderError);
    expect(() => parseBrave({ foo: 1 })).toThrow(NewsProviderError);
    expect(parseBrave({ type: "search", query: { original: "x" } })).toEqual([]);
  });
});

describe("results without a title or a usable URL are dropped, not failed", () => {
  it("missing title, javascript: URL, relative URL", () => {
    const items = parseTavily({
      results: [
        { title: "", url: "https://a.example/" },
        { title: "x", url: "javascript:alert(1)" },
        { title: "y", url: "/relative" },
        { title: "ok", url: "https://ok.example/" },
        "not an object",
      ],
    });
    expect(items.map((i) => i.title)).toEqual(["ok"]);
  });
});
