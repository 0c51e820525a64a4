import { describe, expect, it } from "vitest";
import { redactSecrets } from "./redact";
import { beijingZInstant, clipText, instant, naiveUtcInstant, newsItem, plainText, urlKey } from "./text";

const hasBrokenSurrogate = (s: string) =>
  /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(s);

describe("snippet limit (spec: NewsIntelItem.snippet at most 50 characters)", () => {
  it("keeps a short text as it is, cuts a long one to 49 + '…'", () => {
    expect(clipText("短讯")).toBe("短讯");
    expect(clipText("a".repeat(50))).toBe("a".repeat(50));
    expect(clipText("a".repeat(51))).toBe(`${"a".repeat(49)}…`);
  });

  it("CJK: 60 ideographs → 49 of them + '…' (50 characters)", () => {
    const text = "贵州茅台发布年度报告".repeat(6);
    const clipped = clipText(text);
    expect(clipped).toBe(`${text.slice(0, 49)}…`);
    expect([...clipped]).toHaveLength(50);
  });

  it("emoji: never splits a surrogate pair; the limit holds in UTF-16 units and in code points", () => {
    for (let pad = 0; pad < 4; pad += 1) {
      const text = `${"x".repeat(pad)}${"📈".repeat(40)}`;
      const clipped = clipText(text);
      expect(hasBrokenSurrogate(clipped)).toBe(false);
      expect(clipped.length).toBeLessThanOrEqual(50);
      expect(clipped.endsWith("📈…")).toBe(true);
    }
  });

  it("grapheme clusters stay whole: ZWJ families, flags, skin tones, combining marks", () => {
    const cases = ["👨‍👩‍👧‍👦", "🇨🇳", "👍🏽", "e\u0301"];
    for (const cluster of cases) {
      for (let pad = 40; pad < 50; pad += 1) {
        const text = `${"字".repeat(pad)}${cluster.repeat(6)}`;
        const clipped = clipText(text);
        expect(clipped.length).toBeLessThanOrEqual(50);
        const body = clipped.slice(0, -1).slice(pad);
        // Whatever follows the padding is whole clusters only.
        expect(body.split(cluster).join("")).toBe("");
      }
    }
  });

  it("a lone surrogate in the provider's text becomes U+FFFD instead of travelling on", () => {
    expect(clipText("bad \uD83D text")).toBe("bad \uFFFD text");
    expect(hasBrokenSurrogate(clipText(`${"a".repeat(48)}\uD83D\uDCC8\uD83D`))).toBe(false);
  });

  it("plain text: tags stripped, entities decoded, whitespace folded", () => {
    expect(plainText("<strong>Apple</strong>&nbsp;&amp;\n  Co &#39;25 &#x4E2D;")).toBe("Apple & Co '25 中");
    expect(plainText(42)).toBe("");
  });
});

describe("URL de-duplication key", () => {
  it("scheme, www., trailing slash, tracking parameters and parameter order do not matter", () => {
    const key = urlKey("https://www.example.com/a/b?x=1&y=2");
    expect(urlKey("http://example.com/a/b/?y=2&x=1&utm_source=feed")).toBe(key);
    expect(urlKey("https://EXAMPLE.com:443/a/b?x=1&y=2#comments")).toBe(key);
    expect(urlKey("https://m.sohu.com/a/815036254_121819701/?pvid=000115_3w_a")).toBe(
      urlKey("https://m.sohu.com/a/815036254_121819701"),
    );
  });

  it("a different path, parameter value or hash-bang route is a different article", () => {
    expect(urlKey("https://example.com/a?id=1")).not.toBe(urlKey("https://example.com/a?id=2"));
    expect(urlKey("https://example.com/a")).not.toBe(urlKey("https://example.com/b"));
    expect(urlKey("https://mparticle.uc.cn/a.html#!wm_id=1")).not.toBe(
      urlKey("https://mparticle.uc.cn/a.html#!wm_id=2"),
    );
  });
});

describe("dates", () => {
  it("ISO with zone and RFC 1123 → ISO UTC; a zoneless date-time is refused by instant()", () => {
    expect(instant("2026-09-28T01:53:04Z")).toBe("2026-09-28T01:53:04.000Z");
    expect(instant("Mon, 01 Jun 2026 10:50:50 GMT")).toBe("2026-06-01T10:50:50.000Z");
    expect(instant("2026-09-23T10:38:54")).toBeNull();
    expect(instant("3 days ago")).toBeNull();
    expect(instant("1970-01-01T00:00:00Z")).toBeNull();
  });

  it("Brave page_age without a zone is UTC; Bocha's 'Z' is Beijing time", () => {
    expect(naiveUtcInstant("2026-09-23T10:38:54")).toBe("2026-09-23T10:38:54.000Z");
    expect(beijingZInstant("2024-07-22T00:00:00Z")).toBe("2024-07-21T16:00:00.000Z");
    expect(beijingZInstant("2024-07-24T08:00:00+08:00")).toBe("2024-07-24T00:00:00.000Z");
  });
});

describe("newsItem", () => {
  it("source falls back to the host; an unusable URL drops the item", () => {
    expect(newsItem({ title: "t", url: "https://www.x.example/p" })).toEqual({
      title: "t",
      snippet: "",
      url: "https://www.x.example/p",
      source: "x.example",
      published_at: null,
    });
    expect(newsItem({ title: "t", url: "ftp://x.example/p" })).toBeNull();
  });
});

describe("secret redaction", () => {
  it("masks configured keys anywhere, and api_key=, Bearer and X-Subscription-Token values even when unknown", () => {
    const text =
      "fetch failed for https://serpapi.com/search.json?q=x&api_key=abc123secret&hl=en (Authorization: Bearer tvly-ABCDEF123456) X-Subscription-Token: BSAzzzz key mykey-0001";
    const out = redactSecrets(text, ["mykey-0001"]);
    expect(out).not.toMatch(/abc123secret|tvly-ABCDEF123456|BSAzzzz|mykey-0001/);
    expect(out).toContain("api_key=***&hl=en");
  });
});
