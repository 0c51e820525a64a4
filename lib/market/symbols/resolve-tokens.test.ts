import { describe, expect, it } from "vitest";
import { resolveToken } from "./resolve-token";
import { collectTokens, dedupKey, MAX_RAW_TOKENS, resolveTokens } from "./resolve-tokens";
import { isRejection, type TResolvedSymbol } from "./schemas";

function symbol(token: string): TResolvedSymbol {
  const result = resolveToken(token);
  if (isRejection(result)) throw new Error(result.reason);
  return result;
}

describe("4.2 rule 4: dedupKey", () => {
  it("stocks key on market and normalised code: 600519 = 600519.SH = sh600519", () => {
    expect(
      new Set(["600519", "600519.SH", "sh600519", "600519.SS", "贵州茅台"].map((token) => dedupKey(symbol(token)))),
    ).toEqual(new Set(["stock:cn:600519"]));
  });

  it("indices key on canonical id", () => {
    expect(
      new Set(["sh000300", "000300", "沪深300", "csi000300", "399300.SZ"].map((token) => dedupKey(symbol(token)))),
    ).toEqual(new Set(["index:000300.SH"]));
  });

  it("the stock 000001 and the index sh000001 are different keys", () => {
    expect(dedupKey(symbol("000001"))).toBe("stock:cn:000001");
    expect(dedupKey(symbol("sh000001"))).toBe("index:000001.SH");
  });

  it("HK and US forms merge within their market", () => {
    expect(dedupKey(symbol("0700.HK"))).toBe(dedupKey(symbol("hk00700")));
    expect(dedupKey(symbol("BRK-B"))).toBe(dedupKey(symbol("brk.b")));
  });
});

describe("4.2 rules 3-4: resolveTokens", () => {
  it("4.2 rule 3: resolves before deduplicating, so different spellings merge", () => {
    const result = resolveTokens(["600519", "sh600519", "600519.SH", "贵州茅台"]);
    expect(result.targets.map((target) => target.code)).toEqual(["600519"]);
    expect(result.duplicates.map((duplicate) => duplicate.token)).toEqual(["sh600519", "600519.SH", "贵州茅台"]);
  });

  it("4.2 rule 4: keeps the first occurrence and the original order", () => {
    const result = resolveTokens(["AAPL", "600519", "aapl", "00700", "AAPL.US", "sh600519"]);
    expect(result.targets.map((target) => [target.token, target.code])).toEqual([
      ["AAPL", "AAPL"],
      ["600519", "600519"],
      ["00700", "00700"],
    ]);
    expect(result.duplicates).toEqual([
      { token: "aapl", key: "stock:us:AAPL", firstToken: "AAPL" },
      { token: "AAPL.US", key: "stock:us:AAPL", firstToken: "AAPL" },
      { token: "sh600519", key: "stock:cn:600519", firstToken: "600519" },
    ]);
  });

  it("4.2 rule 4: a stock and an index with the same digits both stay", () => {
    const result = resolveTokens(["000001", "sh000001", "上证指数"]);
    expect(result.targets.map((target) => dedupKey(target))).toEqual(["stock:cn:000001", "index:000001.SH"]);
  });

  it("keeps every rejection, in order, next to the targets", () => {
    const result = resolveTokens(["600519", "abc123", "csi930050", "600519.SZ", "abc123"]);
    expect(result.targets).toHaveLength(1);
    expect(result.rejected.map((rejection) => rejection.token)).toEqual(["abc123", "csi930050", "600519.SZ", "abc123"]);
    expect(result.rejected.every((rejection) => rejection.rejected && rejection.reason.length > 0)).toBe(true);
  });

  it("4.2 rule 5 inputs: nothing left when every token is rejected, first reason available", () => {
    const result = resolveTokens(["abc123", "$$$"]);
    expect(result.targets).toEqual([]);
    expect(result.rejected[0]!.reason).toMatch(/mixes letters and digits/);
  });
});

describe("4.2 rules 1-2: collectTokens", () => {
  it("4.2 rule 1: stock_code comes first, then stock_codes", () => {
    expect(collectTokens("600519", ["AAPL", "00700"])).toEqual(["600519", "AAPL", "00700"]);
  });

  it("blank entries are not tokens", () => {
    expect(collectTokens("  ", ["", "AAPL", "\u3000", " 600519 "])).toEqual(["AAPL", " 600519 "]);
    expect(collectTokens(undefined, undefined)).toEqual([]);
    expect(collectTokens(null, null)).toEqual([]);
  });

  it("4.2 rule 2: duplicates and rejects count toward the limit of 50", () => {
    const tokens = collectTokens(
      "600519",
      Array.from({ length: 50 }, () => "600519"),
    );
    expect(MAX_RAW_TOKENS).toBe(50);
    expect(tokens.length).toBeGreaterThan(MAX_RAW_TOKENS);
  });
});
