import { afterEach, describe, expect, it } from "vitest";
import { BUNDLED_NAMES } from "./bundled-names";
import { createNameIndex } from "./name-index";
import { lookupName } from "./name-lookup";
import { setPreferredNameSource } from "./name-sources";
import { resolveToken } from "./resolve-token";
import { isRejection, type TNameEntry } from "./schemas";

function codeOf(token: string, options = {}): string {
  const result = resolveToken(token, options);
  if (isRejection(result)) throw new Error(`${token}: ${result.reason}`);
  return result.code;
}

function reasonOf(token: string, options = {}): string {
  const result = resolveToken(token, options);
  if (!isRejection(result)) throw new Error(`${token} resolved to ${result.code}`);
  return result.reason;
}

describe("4.2 rule 3: name lookup", () => {
  it.each([
    ["贵州茅台", "600519"],
    ["宁德时代", "300750"],
    ["腾讯控股", "00700"],
    ["苹果", "AAPL"],
    ["英伟达", "NVDA"],
    ["万科A", "000002"],
    ["万科a", "000002"],
  ])("Chinese name %s → %s", (name, code) => {
    expect(codeOf(name)).toBe(code);
  });

  it.each([
    ["Kweichow Moutai", "600519"],
    ["kweichow moutai", "600519"],
    ["KWEICHOW MOUTAI", "600519"],
    ["Tencent Holdings", "00700"],
    ["Microsoft", "MSFT"],
    ["Berkshire Hathaway Class B", "BRK.B"],
    ["McDonald's", "MCD"],
    ["AT&T", "T"],
  ])("English name %s → %s (case-insensitive)", (name, code) => {
    expect(codeOf(name)).toBe(code);
  });

  it.each([
    ["茅台", "600519"],
    ["Google", "GOOGL"],
    ["Facebook", "META"],
    ["港交所", "00388"],
  ])("alias %s → %s", (alias, code) => {
    expect(codeOf(alias)).toBe(code);
  });

  it.each([
    ["宁德", "300750"],
    ["贵州茅", "600519"],
    ["Kweichow", "600519"],
    ["tencent music", "TME"],
    ["沪深", "000300.SH"],
  ])("a unique prefix %s → %s", (prefix, code) => {
    expect(codeOf(prefix)).toBe(code);
  });

  it("an exact match beats a longer name it prefixes", () => {
    // 中国石油 is 601857; 中国石油化工股份 (00386) starts with it.
    expect(codeOf("中国石油")).toBe("601857");
  });

  it.each(["中国", "招商", "Alphabet", "Berkshire", "China Merchants"])(
    "%s matches several companies and is rejected as ambiguous",
    (name) => {
      expect(reasonOf(name)).toMatch(/ambiguous/);
    },
  );

  it("a word of up to five letters is a ticker before it is a name prefix", () => {
    expect(codeOf("China")).toBe("CHINA");
  });

  it("a single character must match exactly; it is too little to pick a company by prefix", () => {
    expect(reasonOf("六")).toMatch(/No stock/);
  });

  it.each(["不存在的公司", "Nonexistent Holdings"])("unknown name %s is rejected", (name) => {
    expect(reasonOf(name)).toMatch(/No stock or registered index is named/);
  });

  it.each([
    ["贵州　茅台", "600519"],
    ["  贵州茅台  ", "600519"],
    ["Ｋｗｅｉｃｈｏｗ Ｍｏｕｔａｉ", "600519"],
    ["Nasdaq·100", "NDX"],
    ["kweichow-moutai", "600519"],
  ])("normalises full-width characters, spacing and separators: %j", (name, code) => {
    expect(codeOf(name)).toBe(code);
  });

  it("pinyin initials are matched where an entry carries them", () => {
    expect(codeOf("szzs")).toBe("000001.SH");
    expect(codeOf("cybz")).toBe("399006.SZ");
  });
});

describe("4.2 rule 3: cross-listed names", () => {
  it("one name listed in several markets resolves by the market preference (A-share first)", () => {
    expect(codeOf("中国平安")).toBe("601318");
    expect(codeOf("招商银行")).toBe("600036");
    expect(codeOf("PetroChina")).toBe("601857");
  });

  it("without an A-share twin, Hong Kong precedes the US listing", () => {
    expect(codeOf("阿里巴巴")).toBe("09988");
    expect(codeOf("网易")).toBe("09999");
  });

  it("with the preference switched off, a cross-listed name is ambiguous", () => {
    expect(reasonOf("中国平安", { crossListingPreference: null })).toMatch(/ambiguous.*601318.*02318/);
  });

  it("a custom preference order is honoured", () => {
    expect(codeOf("阿里巴巴", { crossListingPreference: ["us", "hk", "cn"] })).toBe("BABA");
  });

  it("two listings in the same market are never picked by preference", () => {
    expect(lookupName("Alphabet").status).toBe("ambiguous");
  });
});

describe("injectable name sources", () => {
  const extra: TNameEntry[] = [
    { kind: "stock", market: "cn", code: "000003", nameZh: "测试公司", nameEn: "Test Company", pinyin: "csgs" },
    { kind: "stock", market: "cn", code: "600519", nameZh: "茅台新名", nameEn: "Moutai Renamed" },
  ];
  const database = createNameIndex(extra);

  afterEach(() => setPreferredNameSource(null));

  it("a preferred source is asked before the bundled list", () => {
    const options = { sources: [database, BUNDLED_NAMES] };
    expect(codeOf("测试公司", options)).toBe("000003");
    expect(codeOf("csgs", options)).toBe("000003");
    expect(resolveToken("600519", options)).toMatchObject({ name: "茅台新名" });
    // Names only the bundled list knows still resolve.
    expect(codeOf("宁德时代", options)).toBe("300750");
  });

  it("setPreferredNameSource installs it process-wide", () => {
    expect(reasonOf("测试公司")).toMatch(/No stock/);
    setPreferredNameSource(database);
    expect(codeOf("测试公司")).toBe("000003");
    setPreferredNameSource(null);
    expect(reasonOf("测试公司")).toMatch(/No stock/);
  });

  it("an index entry a source knows but the registry does not is rejected", () => {
    const source = createNameIndex([{ kind: "index", market: "cn", code: "000922.SH", nameZh: "中证红利" }]);
    expect(reasonOf("中证红利", { sources: [source] })).toMatch(/not a registered index/);
  });

  it("createNameIndex refuses duplicate entries", () => {
    expect(() => createNameIndex([extra[0]!, extra[0]!])).toThrow(/duplicate/);
  });
});
