import { describe, expect, it } from "vitest";
import { HK_NAMES } from "./data/names-hk";
import { US_NAMES } from "./data/names-us";
import { INDEX_REGISTRY_DATA } from "./data/index-registry";
import {
  aliasKeysOf,
  findIndexByAlias,
  findIndexByCsiCode,
  findIndexByExchangeCode,
  getIndexEntry,
  listIndexEntries,
} from "./index-registry";
import { nameKey } from "./normalize-text";
import { resolveToken } from "./resolve-token";
import { ZIndexEntry } from "./schemas";

const entries = listIndexEntries();

describe("4.2 rule 3: index registry integrity", () => {
  it("every data row satisfies the schema", () => {
    for (const row of INDEX_REGISTRY_DATA) expect(() => ZIndexEntry.parse(row)).not.toThrow();
  });

  it("registers the required indices", () => {
    expect(entries.map((entry) => entry.canonicalId).sort()).toEqual(
      [
        "000001.SH",
        "399001.SZ",
        "000300.SH",
        "000905.SH",
        "000852.SH",
        "399006.SZ",
        "000688.SH",
        "000016.SH",
        "HSI",
        "HSTECH",
        "HSCEI",
        "SPX",
        "IXIC",
        "NDX",
        "DJI",
      ].sort(),
    );
  });

  it("canonical ids and display codes are unique", () => {
    const ids = entries.map((entry) => entry.canonicalId);
    const displays = entries.map((entry) => entry.displayCode);
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(displays).size).toBe(displays.length);
  });

  it("every entry has eastmoney, tencent and yahoo symbols, each unique across the registry", () => {
    for (const provider of ["eastmoney", "tencent", "yahoo"] as const) {
      const symbols = entries.map((entry) => entry.providers[provider]);
      expect(symbols.every((symbol) => typeof symbol === "string" && symbol.length > 0)).toBe(true);
      expect(new Set(symbols).size).toBe(symbols.length);
    }
  });

  it("CN provider symbols follow each provider's convention for the exchange", () => {
    for (const entry of entries.filter((item) => item.region === "cn")) {
      const market = entry.exchange === "SH" ? "1" : "0";
      const yahooSuffix = entry.exchange === "SH" ? "SS" : "SZ";
      expect(entry.providers.eastmoney).toBe(`${market}.${entry.localCode}`);
      expect(entry.providers.tencent).toBe(`${entry.exchange!.toLowerCase()}${entry.localCode}`);
      expect(entry.providers.yahoo).toBe(`${entry.localCode}.${yahooSuffix}`);
      expect(entry.canonicalId).toBe(`${entry.localCode}.${entry.exchange}`);
    }
  });

  it("CSI codes exist only for the CSI and SSE series, never for SZSE 399xxx indices", () => {
    expect(
      entries
        .filter((entry) => entry.providers.csi)
        .map((entry) => entry.canonicalId)
        .sort(),
    ).toEqual(["000001.SH", "000016.SH", "000300.SH", "000688.SH", "000852.SH", "000905.SH"].sort());
    for (const entry of entries) {
      if (entry.providers.csi) expect(findIndexByCsiCode(entry.providers.csi)).toBe(entry);
    }
  });

  it("every spelling of every entry resolves back to that entry", () => {
    for (const entry of entries) {
      for (const key of aliasKeysOf(entry)) expect(findIndexByAlias(key)?.canonicalId).toBe(entry.canonicalId);
      for (const spelling of [
        entry.canonicalId,
        entry.displayCode,
        entry.providers.eastmoney,
        entry.providers.tencent,
        entry.providers.yahoo,
        entry.nameZh,
        entry.nameEn,
        ...entry.aliases,
      ]) {
        const result = resolveToken(spelling);
        expect(result, spelling).toMatchObject({ kind: "index", canonicalId: entry.canonicalId });
      }
    }
  });

  it("alternate exchange codes map to the entry (CSI 300 is 399300 on SZSE)", () => {
    expect(findIndexByExchangeCode("SZ", "399300")?.canonicalId).toBe("000300.SH");
    expect(findIndexByExchangeCode("SZ", "399905")?.canonicalId).toBe("000905.SH");
  });

  it("only indices whose bare digits no listed stock uses are flagged bareDigitsAreIndex", () => {
    expect(entries.filter((entry) => entry.bareDigitsAreIndex).map((entry) => entry.canonicalId)).toEqual([
      "000300.SH",
    ]);
  });

  it("4.2 rule 3: no registered 4-digit short code shadows a bundled Hong Kong stock", () => {
    const hkCodes = new Set(HK_NAMES.map(([code]) => code));
    for (const entry of entries) {
      for (const shortCode of entry.shortCodes) expect(hkCodes.has(shortCode.padStart(5, "0"))).toBe(false);
    }
  });

  it("no alias shadows a bundled US ticker", () => {
    const tickers = new Set(US_NAMES.map(([code]) => nameKey(code)));
    for (const entry of entries) {
      for (const key of aliasKeysOf(entry)) expect(tickers.has(key), `${entry.canonicalId} alias ${key}`).toBe(false);
    }
  });

  it("getIndexEntry finds entries by canonical id only", () => {
    expect(getIndexEntry("HSI")?.nameZh).toBe("恒生指数");
    expect(getIndexEntry("sh000001")).toBeUndefined();
  });
});
