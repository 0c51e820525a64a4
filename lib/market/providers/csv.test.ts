import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { setClock } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { withTempDatabase } from "@/tests/kits/db/temp-database";
import { clearDailyBarMemo, getDailyBars } from "@/lib/market/bars/daily-bars";
import { clearQuoteCache, getQuote } from "@/lib/market/quote-cache";
import { isRejection, resolveToken } from "@/lib/market/symbols";
import { chainDailyBars, chainQuote, configuredChain, type ChainOptions } from "./chain";
import { createCsvProvider, csvCodeOf, findCsvFile, InvalidDataFileError, parseBarsCsv, quoteFromBars } from "./csv";
import { createSampleProvider } from "./sample";
import type { MarketDataProvider, TMarketSymbol } from "./types";

const DIR = fs.mkdtempSync(path.join(os.tmpdir(), "dsa-csv-provider-"));
const REAL_BARS = path.resolve("tests/fixtures/real-bars");
// The settings the service runs with here: the csv source first, the sample data behind it.
withTempDatabase("csv", { CSV_DATA_DIR: DIR, MARKET_DATA_SOURCES: "csv,sample" });

const moutai: TMarketSymbol = { kind: "stock", market: "cn", code: "600519" };
const apple: TMarketSymbol = { kind: "stock", market: "us", code: "AAPL" };
const HEADER = "date,open,high,low,close,volume";

function resolved(token: string): TMarketSymbol {
  const symbol = resolveToken(token);
  if (isRejection(symbol)) throw new Error(symbol.reason);
  return symbol;
}

function write(file: string, text: string): void {
  fs.writeFileSync(path.join(DIR, file), text);
}

/** Replace the way an editor or the upload does: a new file renamed over the old one. */
function replace(file: string, text: string): void {
  const temp = path.join(DIR, `.${file}.tmp`);
  fs.writeFileSync(temp, text);
  fs.renameSync(temp, path.join(DIR, file));
}

function copyFixture(fixture: string, file: string): string {
  const text = fs.readFileSync(path.join(REAL_BARS, fixture), "utf8");
  write(file, text);
  return text;
}

/** A provider that counts its calls, to prove the chain never reached it. */
function counting(inner: MarketDataProvider): MarketDataProvider & { calls: number } {
  const p = {
    name: inner.name,
    calls: 0,
    serves: inner.serves,
    dailyBars: (...args: Parameters<MarketDataProvider["dailyBars"]>) => {
      p.calls += 1;
      return inner.dailyBars(...args);
    },
    quote: (...args: Parameters<MarketDataProvider["quote"]>) => {
      p.calls += 1;
      return inner.quote(...args);
    },
  };
  return p;
}

function chainWithSample(): { chain: ChainOptions; sample: ReturnType<typeof counting> } {
  const sample = counting(createSampleProvider({ latencyMs: () => 0 }));
  return { chain: { providers: [createCsvProvider({ dir: () => DIR }), sample], timeoutMs: 2000 }, sample };
}

beforeEach(async () => {
  for (const name of fs.readdirSync(DIR)) fs.rmSync(path.join(DIR, name), { force: true });
  await db().dailyBar.deleteMany();
  clearDailyBarMemo();
  clearQuoteCache();
  setClock(() => new Date("2026-11-20T12:00:00Z")); // Friday, after every market's close but New York's
});

describe("csv provider: file names (docs/api.md §10)", () => {
  it("names the file after the stock_code the service reports: A-share, HK 5 digits, US ticker, index display code", () => {
    expect(csvCodeOf(resolved("600519"))).toBe("600519");
    expect(csvCodeOf(resolved("700"))).toBe("00700");
    expect(csvCodeOf(resolved("0700.HK"))).toBe("00700");
    expect(csvCodeOf(resolved("aapl"))).toBe("AAPL");
    expect(csvCodeOf(resolved("BRK.B"))).toBe("BRK.B");
    const csi300 = resolveToken("000300.SH");
    if (isRejection(csi300)) throw new Error(csi300.reason);
    expect(csvCodeOf(csi300)).toBe(csi300.displayCode);
  });

  it("matches the file name case-insensitively", async () => {
    write("Aapl.Csv", `${HEADER}\n2024-01-02,10,11,9,10.5,100\n`);
    expect(await findCsvFile(DIR, "AAPL")).toEqual({ file: "Aapl.Csv", path: path.join(DIR, "Aapl.Csv") });
    const bars = await createCsvProvider({ dir: () => DIR }).dailyBars(apple, 10, {
      signal: new AbortController().signal,
    });
    expect(bars.map((b) => b.close)).toEqual([10.5]);
  });

  it("two spellings of one name are refused rather than one picked", async () => {
    write("aapl.csv", `${HEADER}\n2024-01-02,10,11,9,10.5,100\n`);
    write("AAPL.csv", `${HEADER}\n2024-01-02,20,21,19,20.5,100\n`);
    await expect(findCsvFile(DIR, "AAPL")).rejects.toThrow(/AAPL\.csv, aapl\.csv: several files match AAPL/);
  });

  it("no folder yet is no file", async () => {
    expect(await findCsvFile(path.join(DIR, "missing"), "AAPL")).toBeNull();
  });
});

describe("csv provider: quote from the last row", () => {
  it("price is the last close, change against the previous close, time at the market's close, source csv", () => {
    const text = fs.readFileSync(path.join(REAL_BARS, "cn-600519-2024-2026.csv"), "utf8");
    const quote = quoteFromBars(parseBarsCsv(text, "600519.csv"), "cn");
    // Last rows of the file: 2026-02-12 close 1486.6, 2026-02-13 open 1486.6 high 1507.8 low 1470.58 close 1485.3.
    expect(quote).toMatchObject({
      price: 1485.3,
      prev_close: 1486.6,
      change: -1.3,
      change_pct: -0.09,
      open: 1486.6,
      high: 1507.8,
      low: 1470.58,
      volume: 417,
      amount: 621637.9203,
      turnover_rate: 0.33,
      time: "2026-02-13T15:00:00+08:00",
      source: "csv",
    });
  });

  it("time is the session close in the market's own zone (HK 16:10, New York 16:00 with DST)", () => {
    const bars = parseBarsCsv(`${HEADER}\n2024-07-01,10,11,9,10,1\n2024-07-02,10,11,9,11,1\n`, "X.csv");
    expect(quoteFromBars(bars, "hk")!.time).toBe("2024-07-02T16:10:00+08:00");
    expect(quoteFromBars(bars, "us")!.time).toBe("2024-07-02T16:00:00-04:00");
    expect(quoteFromBars(bars, "us")).toMatchObject({ change: 1, change_pct: 10 });
  });

  it("a one-row file has no previous close: no change", () => {
    const quote = quoteFromBars(parseBarsCsv(`${HEADER}\n2024-07-02,10,11,9,11,1\n`, "X.csv"), "cn");
    expect(quote).toMatchObject({ price: 11, change: 0, change_pct: 0, prev_close: null });
  });
});

describe("csv provider in the chain", () => {
  it("no file for the code: the chain falls through to the next source and records the csv attempt", async () => {
    const { chain, sample } = chainWithSample();
    const bars = await chainDailyBars(moutai, 30, chain);
    expect(bars.source).toBe("sample");
    expect(bars.attempts.map((a) => [a.provider, a.ok, a.reason])).toEqual([
      ["csv", false, "empty"],
      ["sample", true, null],
    ]);
    const quote = await chainQuote(moutai, chain);
    expect(quote.source).toBe("sample");
    expect(quote.attempts[0]).toMatchObject({ provider: "csv", ok: false, reason: "empty" });
    expect(sample.calls).toBe(2);
  });

  it("an invalid file does not fall through: bars and quote fail with the file, line and problem", async () => {
    write("600519.csv", `${HEADER}\n2024-01-02,10,11,9,10.5,100\n2024-01-03,10,9,11,10.5,100\n`);
    const { chain, sample } = chainWithSample();
    const bars = chainDailyBars(moutai, 30, chain);
    await expect(bars).rejects.toBeInstanceOf(InvalidDataFileError);
    await expect(bars).rejects.toMatchObject({ file: "600519.csv", line: 3, problem: "high 9 is below low 11" });
    await expect(chainQuote(moutai, chain)).rejects.toThrow("600519.csv line 3: high 9 is below low 11");
    expect(sample.calls).toBe(0);
  });

  it("the configured chain (MARKET_DATA_SOURCES=csv,sample, CSV_DATA_DIR) serves the file's bars, newest `days`", async () => {
    const text = copyFixture("us-AAPL-2012-2014.csv", "AAPL.csv");
    const result = await chainDailyBars(apple, 20, configuredChain());
    expect(result.source).toBe("csv");
    expect(result.data).toHaveLength(20);
    expect(result.data.at(-1)).toMatchObject({
      date: "2014-12-31",
      close: Number(text.trim().split("\n").at(-1)!.split(",")[4]),
      source: "csv",
    });
  });
});

describe("csv bars and quotes bypass the caches, so a replaced file counts at the next call", () => {
  it("bars from a file are neither stored nor served from the database", async () => {
    copyFixture("cn-600519-2024-2026.csv", "600519.csv");
    const first = await getDailyBars(moutai, 250);
    expect(first).toMatchObject({ source: "csv", cache: "bypass" });
    expect(first.bars.at(-1)).toMatchObject({ date: "2026-02-13", close: 1485.3 });
    expect(await db().dailyBar.count()).toBe(0);
  });

  it("a replaced file (renamed over, or rewritten in place) is read by the next call", async () => {
    write("600519.csv", `${HEADER}\n2024-01-02,10,11,9,10.5,100\n2024-01-03,10,12,9,11,100\n`);
    expect((await getDailyBars(moutai, 250)).bars.at(-1)!.close).toBe(11);
    expect((await getQuote(moutai)).data.price).toBe(11);

    replace(
      "600519.csv",
      `${HEADER}\n2024-01-02,10,11,9,10.5,100\n2024-01-03,10,12,9,12,100\n2024-01-04,12,13,11,12.5,100\n`,
    );
    const bars = await getDailyBars(moutai, 250);
    expect(bars.bars.map((b) => b.close)).toEqual([10.5, 12, 12.5]);
    const quote = await getQuote(moutai);
    expect(quote).toMatchObject({ source: "csv", cached: false });
    expect(quote.data).toMatchObject({ price: 12.5, change: 0.5, change_pct: 4.17 });

    // Same size, same name: only the modification time tells the new content apart.
    write(
      "600519.csv",
      `${HEADER}\n2024-01-02,10,11,9,10.5,100\n2024-01-03,10,12,9,12,100\n2024-01-04,12,13,11,12.7,100\n`,
    );
    fs.utimesSync(path.join(DIR, "600519.csv"), new Date(), new Date(Date.now() + 5000));
    expect((await getDailyBars(moutai, 250)).bars.at(-1)!.close).toBe(12.7);
    expect((await getQuote(moutai)).data.price).toBe(12.7);
  });

  it("a file turned invalid fails the next call instead of serving the earlier bars", async () => {
    write("600519.csv", `${HEADER}\n2024-01-02,10,11,9,10.5,100\n`);
    await getDailyBars(moutai, 250);
    replace("600519.csv", `${HEADER}\n2024-01-02,10,11,9,10.5,100\n2024-01-02,10,11,9,10.5,100\n`);
    await expect(getDailyBars(moutai, 250)).rejects.toThrow("600519.csv line 3: date 2024-01-02 repeats line 2");
  });

  it("a target without a file still goes through the bar cache (the fallback is cached as before)", async () => {
    const first = await getDailyBars(moutai, 30);
    expect(first).toMatchObject({ source: "sample", cache: "miss" });
    expect(first.attempts[0]).toMatchObject({ provider: "csv", ok: false, reason: "empty" });
    expect(await db().dailyBar.count()).toBeGreaterThan(0);
    expect((await getDailyBars(moutai, 30)).cache).toBe("hit");
  });
});
