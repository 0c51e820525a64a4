import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { brokerList, dayOf, parseBrokerExport, sideOf } from "./broker-csv";

// The broker exports of tests/fixtures/broker-csv (one per format the import reads, docs/api.md §12.1.7-8).
const fixture = (name: string) =>
  new Uint8Array(fs.readFileSync(path.resolve(process.cwd(), "tests/fixtures/broker-csv", name)));

describe("broker CSV exports", () => {
  it("lists generic and the reference's brokers with their aliases", () => {
    expect(brokerList().brokers.map((b) => b.broker)).toEqual(["generic", "huatai", "citic", "cmb"]);
    expect(brokerList().brokers.find((b) => b.broker === "cmb")!.aliases).toContain("zhaoshang");
    expect(() => parseBrokerExport("nobody", fixture("generic.csv"))).toThrow(/broker must be one of/);
    expect(parseBrokerExport("zhongxin", fixture("citic.csv")).broker).toBe("citic");
  });

  it("generic: English headers, trade_uid, currency and note", () => {
    const parsed = parseBrokerExport("generic", fixture("generic.csv"));
    expect(parsed.errors).toEqual([]);
    expect(
      parsed.records.map((r) => [r.symbol, r.side, r.quantity, r.price, r.fee, r.tax, r.trade_uid, r.currency]),
    ).toEqual([
      ["600519", "buy", 100, 1400, 5, 0, "G-1", "CNY"],
      ["00700", "buy", 200, 380, 10, 0, "G-2", "HKD"],
      ["600519", "sell", 50, 1500, 5, 75, "G-3", "CNY"],
      ["AAPL", "buy", 10, 190, 1, 0, "G-4", "USD"],
    ]);
    expect(parsed.records[0]).toMatchObject({ trade_date: "2025-03-03", note: "first lot", line_number: 2 });
  });

  it("huatai: GBK, tab-separated, YYYYMMDD dates, fees = 手续费 + 过户费, a transfer skipped, a bad quantity an error naming its line", () => {
    const parsed = parseBrokerExport("huatai", fixture("huatai.csv"));
    expect(parsed.records).toHaveLength(4);
    expect(parsed.records[0]).toMatchObject({
      trade_date: "2025-03-03",
      symbol: "600519",
      side: "buy",
      quantity: 100,
      price: 1400,
      fee: 6.4,
      tax: 0,
      trade_uid: "HT0001",
    });
    expect(parsed.records[3]).toMatchObject({ side: "sell", fee: 5.75, tax: 37.5 });
    expect(parsed.skipped).toEqual([{ line: 6, reason: "not a buy or sell (银行转证券)" }]);
    expect(parsed.errors).toEqual([expect.stringMatching(/^line 7: quantity "abc"/)]);
    // Two fills with the same values are two trades: their dedup keys differ, and re-reading the file gives the same keys.
    const [, fill1, fill2] = parsed.records;
    expect(fill1!.dedup_hash).not.toBe(fill2!.dedup_hash);
    expect(parseBrokerExport("huatai", fixture("huatai.csv")).records.map((r) => r.dedup_hash)).toEqual(
      parsed.records.map((r) => r.dedup_hash),
    );
  });

  it("citic: BOM, 业务名称 as the side, a negative sell quantity, 人民币 as CNY, 2025/03/07 dates", () => {
    const parsed = parseBrokerExport("citic", fixture("citic.csv"));
    expect(parsed.errors).toEqual([]);
    expect(parsed.skipped.map((s) => s.line)).toEqual([4]);
    expect(
      parsed.records.map((r) => [r.trade_date, r.symbol, r.side, r.quantity, r.fee, r.tax, r.currency, r.trade_uid]),
    ).toEqual([
      ["2025-03-03", "600519", "buy", 100, 6.4, 0, "CNY", "C0001"],
      ["2025-03-05", "600519", "sell", 50, 5.75, 37.5, "CNY", "C0002"],
      ["2025-03-07", "601318", "buy", 200, 5.2, 0, "CNY", "C0004"],
    ]);
  });

  it('cmb: Excel\'s ="…" guards, a shortened A-share code restored from the 深圳A股 market, a cancelled order skipped', () => {
    const parsed = parseBrokerExport("cmb", fixture("cmb.csv"));
    expect(parsed.errors).toEqual([]);
    expect(parsed.records.map((r) => [r.symbol, r.side, r.quantity, r.price, r.trade_uid])).toEqual([
      ["600519", "buy", 100, 1400, "CMB0001"],
      ["000001", "buy", 1000, 11.5, "CMB0002"],
      ["600519", "sell", 50, 1500, "CMB0003"],
    ]);
    expect(parsed.skipped).toEqual([{ line: 5, reason: "not a buy or sell (撤单)" }]);
  });

  it("a file without a required column is refused whole, naming it; sides and dates in their spellings", () => {
    expect(() =>
      parseBrokerExport("generic", new TextEncoder().encode("date,side,symbol,quantity\n2025-01-02,buy,600519,1\n")),
    ).toThrow(/no column for price/);
    expect([sideOf("证券买入"), sideOf("S"), sideOf("担保品卖出"), sideOf("红利入账")]).toEqual([
      "buy",
      "sell",
      "sell",
      null,
    ]);
    expect([
      dayOf("2025-3-4"),
      dayOf("20250304"),
      dayOf("2025-03-04 09:31:02"),
      dayOf("2025-02-30"),
      dayOf("yesterday"),
    ]).toEqual(["2025-03-04", "2025-03-04", "2025-03-04", null, null]);
  });
});
