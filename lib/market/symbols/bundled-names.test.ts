import { describe, expect, it } from "vitest";
import { classifyAShareCode } from "./a-share-exchange";
import { bundledNameEntries } from "./bundled-names";
import { CN_NAMES } from "./data/names-cn";
import { HK_NAMES } from "./data/names-hk";
import { US_NAMES } from "./data/names-us";
import { listIndexEntries } from "./index-registry";
import { nameKey } from "./normalize-text";
import { resolveToken } from "./resolve-token";
import { resolveTokens } from "./resolve-tokens";
import { isRejection, ZNameEntry } from "./schemas";

describe("bundled name list", () => {
  it("covers the large caps of each market", () => {
    expect(CN_NAMES.length).toBeGreaterThanOrEqual(300);
    expect(HK_NAMES.length).toBeGreaterThanOrEqual(100);
    expect(US_NAMES.length).toBeGreaterThanOrEqual(150);
  });

  it("covers every registered index", () => {
    const indexCodes = new Set(
      bundledNameEntries()
        .filter((entry) => entry.kind === "index")
        .map((entry) => entry.code),
    );
    for (const index of listIndexEntries()) expect(indexCodes.has(index.canonicalId)).toBe(true);
  });

  it("every entry satisfies the schema", () => {
    for (const entry of bundledNameEntries()) expect(() => ZNameEntry.parse(entry)).not.toThrow();
  });

  it("A-share codes are 6 digits of a stock range, with a Chinese name", () => {
    for (const [code, nameZh] of CN_NAMES) {
      expect(code).toMatch(/^\d{6}$/);
      expect(classifyAShareCode(code).type, code).toBe("stock");
      expect(nameZh, code).toBeTruthy();
    }
  });

  it("Hong Kong codes are 5 digits with a Chinese name", () => {
    for (const [code, nameZh] of HK_NAMES) {
      expect(code).toMatch(/^\d{5}$/);
      expect(nameZh, code).toBeTruthy();
    }
  });

  it("US tickers are upper case with '.' class separators and an English name", () => {
    for (const [code, , nameEn] of US_NAMES) {
      expect(code).toMatch(/^[A-Z]{1,5}(\.[A-Z]{1,2})?$/);
      expect(nameEn, code).toBeTruthy();
    }
  });

  it("codes are unique within each market", () => {
    for (const rows of [CN_NAMES, HK_NAMES, US_NAMES]) {
      const codes = rows.map(([code]) => code);
      expect(new Set(codes).size).toBe(codes.length);
    }
  });

  it("no two entries of one market share a name, alias or pinyin key", () => {
    for (const rows of [CN_NAMES, HK_NAMES, US_NAMES]) {
      const owner = new Map<string, string>();
      for (const [code, nameZh, nameEn, aliases = []] of rows) {
        for (const text of [nameZh, nameEn, ...aliases]) {
          if (!text) continue;
          const key = nameKey(text);
          expect(owner.get(key) ?? code, `${text} is used by ${owner.get(key)} and ${code}`).toBe(code);
          owner.set(key, code);
        }
      }
    }
  });

  it("every bundled code resolves to itself and carries its name", () => {
    for (const [market, rows] of [
      ["cn", CN_NAMES],
      ["hk", HK_NAMES],
      ["us", US_NAMES],
    ] as const) {
      for (const [code, nameZh, nameEn] of rows) {
        const result = resolveToken(code);
        expect(result, code).toMatchObject({ kind: "stock", market, code, name: nameZh ?? nameEn });
      }
    }
  });

  it("every bundled Chinese name resolves to a stock of that name", () => {
    for (const [, nameZh] of [...CN_NAMES, ...HK_NAMES]) {
      const result = resolveToken(nameZh!);
      if (isRejection(result)) throw new Error(`${nameZh}: ${result.reason}`);
      expect(result.kind).toBe("stock");
    }
  });
});

describe("batch resolution", () => {
  it("4.2 rules 3-4: every token of a large mixed batch ends up resolved, rejected or a duplicate", () => {
    const sample = [
      "600519",
      "sh000001",
      "0700.HK",
      "AAPL",
      "贵州茅台",
      "BRK-B",
      "csi000905",
      "宁德",
      "abc123",
      "Tesla",
    ];
    const tokens = Array.from({ length: 2_000 }, (_, index) => sample[index % sample.length]!);
    const result = resolveTokens(tokens);
    expect(result.targets.length + result.rejected.length + result.duplicates.length).toBe(tokens.length);
    expect(result.rejected.length).toBe(tokens.length / sample.length);
  });
});
