import { describe, expect, it } from "vitest";
import { searchSymbols } from "./search-symbols";

describe("searchSymbols (autocomplete)", () => {
  it("returns nothing for a blank query", () => {
    expect(searchSymbols("   ")).toEqual([]);
  });

  it("an exact code comes first, then codes that start with it", () => {
    const hits = searchSymbols("600519");
    expect(hits[0]).toMatchObject({ code: "600519", match: "exact", name: "贵州茅台" });
  });

  it("a code prefix lists matching codes, shortest and A-shares first", () => {
    const hits = searchSymbols("6005", 5);
    expect(hits.length).toBe(5);
    expect(hits.every((hit) => hit.match === "code_prefix" && hit.code.startsWith("6005"))).toBe(true);
    expect(hits.map((hit) => hit.code)).toContain("600519");
  });

  it("Hong Kong codes match without their leading zeros", () => {
    expect(searchSymbols("700")[0]).toMatchObject({ market: "hk", code: "00700", name: "腾讯控股" });
  });

  it("ranks exact name, then name prefix, then name contains", () => {
    const hits = searchSymbols("平安", 20);
    const ranks = hits.map((hit) => hit.match);
    expect(ranks.indexOf("name_prefix")).toBeLessThan(ranks.lastIndexOf("name_contains"));
    expect(hits.map((hit) => hit.code)).toEqual(expect.arrayContaining(["000001", "601318", "02318", "01833"]));
    // 平安银行 / 平安好医生 start with 平安; 中国平安 only contains it.
    const prefixCodes = hits.filter((hit) => hit.match === "name_prefix").map((hit) => hit.code);
    expect(prefixCodes).toEqual(expect.arrayContaining(["000001", "01833"]));
    expect(hits.find((hit) => hit.code === "601318")?.match).toBe("name_contains");
  });

  it("an exact name outranks codes and other names", () => {
    const hits = searchSymbols("中国石油");
    expect(hits[0]).toMatchObject({ code: "601857", match: "exact" });
    expect(hits.map((hit) => hit.code)).toContain("00386");
  });

  it("finds indices by name, alias and code, with their canonical id", () => {
    expect(searchSymbols("沪深300")[0]).toMatchObject({
      kind: "index",
      canonicalId: "000300.SH",
      displayCode: "sh000300",
      match: "exact",
    });
    const hangSeng = searchSymbols("恒生", 10);
    expect(hangSeng.filter((hit) => hit.kind === "index").map((hit) => hit.canonicalId)).toEqual(
      expect.arrayContaining(["HSI", "HSTECH"]),
    );
    expect(hangSeng.map((hit) => hit.code)).toEqual(expect.arrayContaining(["600570", "00011"]));
    expect(searchSymbols("^gspc")[0]).toMatchObject({ kind: "index", canonicalId: "SPX" });
  });

  it("English names are matched case-insensitively by prefix", () => {
    const hits = searchSymbols("micro", 10);
    expect(hits.map((hit) => hit.code)).toEqual(expect.arrayContaining(["MSFT", "MU", "MCHP"]));
  });

  it("a complete code outside the lists is still offered", () => {
    expect(searchSymbols("sz000004")[0]).toMatchObject({ kind: "stock", code: "000004", match: "exact" });
    expect(searchSymbols("ZZZZ.US")[0]).toMatchObject({ market: "us", code: "ZZZZ" });
  });

  it("bare short digits are not offered as a Hong Kong code nobody listed", () => {
    expect(searchSymbols("6005").some((hit) => hit.market === "hk")).toBe(false);
  });

  it("respects the limit and clamps it to 1..50", () => {
    expect(searchSymbols("中", 3)).toHaveLength(3);
    expect(searchSymbols("中", 0).length).toBeGreaterThan(0);
    expect(searchSymbols("中", 1000).length).toBeLessThanOrEqual(50);
  });

  it("never returns the same target twice", () => {
    const hits = searchSymbols("腾讯", 50);
    const keys = hits.map((hit) => `${hit.kind}:${hit.market}:${hit.code}`);
    expect(new Set(keys).size).toBe(keys.length);
  });
});
