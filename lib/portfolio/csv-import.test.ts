import fs from "node:fs";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { setClock } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { withTempDatabase } from "@/tests/kits/db/temp-database";
import { commitImport, parseImport } from "./csv-import";
import { createAccount, createTrade, listPositions } from "./store";

withTempDatabase("portfolio-import", { MARKET_DATA_SOURCES: "sample" });
const file = (name: string) =>
  new File([fs.readFileSync(path.resolve(process.cwd(), "tests/fixtures/broker-csv", name))], name);
const text = (body: string) => new File([body], "export.csv", { type: "text/csv" });

beforeEach(async () => {
  setClock(() => new Date("2026-11-20T04:00:00Z"));
  await db().portfolioAccount.deleteMany();
});

describe("broker CSV commit (docs/api.md §12.1.9)", () => {
  it("dry run counts and stores nothing; the commit stores, errors count as failed; a re-import is all duplicates", async () => {
    const account = await createAccount({ name: "ht" });
    const preview = await parseImport({ broker: "huatai", file: file("huatai.csv") });
    expect(preview).toMatchObject({ broker: "huatai", record_count: 4, skipped_count: 1, error_count: 1 });

    const dry = await commitImport({
      account_id: account.id,
      broker: "huatai",
      dry_run: true,
      file: file("huatai.csv"),
    });
    expect(dry).toEqual({
      account_id: account.id,
      record_count: 4,
      inserted_count: 4,
      duplicate_count: 0,
      failed_count: 1,
      dry_run: true,
      errors: [expect.stringMatching(/^line 7/)],
    });
    expect(await db().portfolioTrade.count()).toBe(0);

    const done = await commitImport({
      account_id: account.id,
      broker: "huatai",
      dry_run: false,
      file: file("huatai.csv"),
    });
    expect(done).toMatchObject({ inserted_count: 4, duplicate_count: 0, failed_count: 1, dry_run: false });
    const positions = (await listPositions(account.id)).items;
    expect(positions.find((p) => p.symbol === "000001")?.quantity).toBe(2000);
    expect(positions.find((p) => p.symbol === "600519")?.quantity).toBe(50);
    const stored = await db().portfolioTrade.findFirstOrThrow({ where: { tradeUid: "HT0001" } });
    expect(stored).toMatchObject({ source: "import", fee: 6.4, note: "csv_import:huatai", currency: "CNY" });

    const again = await commitImport({
      account_id: account.id,
      broker: "huatai",
      dry_run: false,
      file: file("huatai.csv"),
    });
    expect(again).toMatchObject({ inserted_count: 0, duplicate_count: 4, failed_count: 1 });
    expect(await db().portfolioTrade.count()).toBe(4);
  });

  it("rows already entered by hand with the same trade_uid, and repeats inside the file, are duplicates", async () => {
    const account = await createAccount({ name: "gen" });
    await createTrade({
      account_id: account.id,
      symbol: "600519",
      trade_date: "2025-03-03",
      side: "buy",
      quantity: 100,
      price: 1400,
      fee: 5,
      trade_uid: "G-1",
    });
    const body =
      "date,side,symbol,quantity,price,trade_uid\n2025-03-10,buy,000001,100,10,X-1\n2025-03-10,buy,000001,100,10,X-1\n";
    const repeated = await commitImport({
      account_id: account.id,
      broker: "generic",
      dry_run: false,
      file: text(body),
    });
    expect(repeated).toMatchObject({ inserted_count: 1, duplicate_count: 1 });
    const generic = await commitImport({
      account_id: account.id,
      broker: "generic",
      dry_run: false,
      file: file("generic.csv"),
    });
    expect(generic).toMatchObject({ record_count: 4, inserted_count: 3, duplicate_count: 1, failed_count: 0 });
    expect((await db().portfolioTrade.findFirstOrThrow({ where: { tradeUid: "G-2" } })).currency).toBe("HKD");
  });

  it("a sell above the holding at its date is taken out and failed; the other rows go in, in date order whatever the file's order", async () => {
    const account = await createAccount({ name: "order" });
    const body = [
      "date,side,symbol,quantity,price",
      "2025-04-02,sell,000001,300,11", // line 2: after the buy below (file not in date order)
      "2025-04-01,buy,000001,500,10",
      "2025-04-03,sell,000001,500,12", // line 4: only 200 left
      "2025-04-04,buy,600519,10,1500",
    ].join("\n");
    const result = await commitImport({ account_id: account.id, broker: "generic", dry_run: false, file: text(body) });
    expect(result).toMatchObject({
      record_count: 4,
      inserted_count: 3,
      failed_count: 1,
      errors: [expect.stringMatching(/^line 4: portfolio_oversell/)],
    });
    expect((await listPositions(account.id)).items.find((p) => p.symbol === "000001")?.quantity).toBe(200);
    // A dry run finds the same failure and leaves the account as it was.
    const other = await createAccount({ name: "dry" });
    expect(
      await commitImport({ account_id: other.id, broker: "generic", dry_run: true, file: text(body) }),
    ).toMatchObject({ inserted_count: 3, failed_count: 1 });
    expect(await db().portfolioTrade.count({ where: { accountId: other.id } })).toBe(0);
  });

  it("unknown account 404, unknown broker 400", async () => {
    await expect(
      commitImport({ account_id: 999, broker: "generic", dry_run: true, file: file("generic.csv") }),
    ).rejects.toMatchObject({ status: 404 });
    await expect(parseImport({ broker: "nobody", file: file("generic.csv") })).rejects.toMatchObject({
      status: 400,
      code: "validation_error",
    });
  });
});
