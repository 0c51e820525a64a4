import fs from "node:fs";
import path from "node:path";
import { deflateRawSync } from "node:zlib";
import writeXlsxFile from "write-excel-file/node";
import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/errors/api-error";
import { parseImport } from "./parse-import";
import { MAX_IMPORT_ENTRIES, MAX_IMPORT_ROWS, MAX_IMPORT_TEXT_BYTES, type TImportItem } from "./schemas";
import { declaredXmlBytes } from "./xlsx";

const FIXTURES = path.resolve("tests/fixtures/watchlist");

function fixture(name: string, type = "text/csv"): File {
  return new File([fs.readFileSync(path.join(FIXTURES, name))], name, { type });
}

const fromText = (text: string) => parseImport({ text });
const fromFile = (file: File) => parseImport({ file });

async function failure(promise: Promise<unknown>): Promise<{ code: string; status: number; message: string }> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  const { code, status, message } = error as ApiError;
  return { code, status, message };
}

const byCode = (items: TImportItem[], code: string) => items.find((i) => i.code === code);

describe("12.7 parse-import: pasted text", () => {
  it("a column of codes in any spelling gives the normalised display codes", async () => {
    const result = await fromText("600519\nsh600036\n0700.HK\nAAPL\n000300.SH\n");
    expect(result.codes).toEqual(["600519", "600036", "00700", "AAPL", "sh000300"]);
    expect(result.items.every((i) => i.confidence === "high")).toBe(true);
    expect(byCode(result.items, "00700")).toMatchObject({ name: "腾讯控股", raw: "0700.HK" });
  });

  it("names and aliases separated by anything resolve like analyze targets", async () => {
    const result = await fromText("贵州茅台、腾讯控股; Apple|特斯拉 ， 平安银行\t茅台  Tesla");
    expect(result.codes).toEqual(["600519", "00700", "AAPL", "TSLA", "000001"]);
  });

  it("a code and its name on one line are one entry; multi-word names stay whole", async () => {
    const result = await fromText("600519 贵州茅台\n00700 腾讯控股\nBank of America");
    expect(result.codes).toEqual(["600519", "00700", "BAC"]);
    expect(result.items).toHaveLength(3);
  });

  it("dedup: every spelling of one stock is one item, in first-seen order", async () => {
    const result = await fromText("600519, sh600519, 600519.SH, 贵州茅台, 茅台, AAPL, aapl");
    expect(result.codes).toEqual(["600519", "AAPL"]);
    expect(result.items).toHaveLength(2);
  });

  it("rejects what does not resolve, with the resolver's reason, and keeps them out of codes", async () => {
    const result = await fromText("600519\nXYZ123\n不存在的公司\n12345678\n510300");
    expect(result.codes).toEqual(["600519"]);
    const rejected = result.items.filter((i) => i.code === undefined);
    expect(rejected.map((i) => i.raw)).toEqual(["XYZ123", "不存在的公司", "12345678", "510300"]);
    for (const item of rejected) {
      expect(item.confidence).toBe("low");
      expect(item.reason).toBeTruthy();
    }
    expect(rejected[1]!.reason).toMatch(/No stock or registered index is named/);
    expect(rejected[2]!.reason).toMatch(/too many digits/);
  });

  it("guesses are low confidence with a reason and stay out of codes: a lower-case word, a bare 1–3 digit number", async () => {
    const result = await fromText("hello\n100\nNVDA");
    expect(result.codes).toEqual(["NVDA"]);
    expect(result.items.find((i) => i.raw === "hello")).toMatchObject({ code: "HELLO", confidence: "low" });
    expect(result.items.find((i) => i.raw === "100")).toMatchObject({ code: "00100", confidence: "low" });
    expect(result.items.find((i) => i.raw === "100")!.reason).toMatch(/bare number/);
  });

  it("a well-formed code the stock list does not know is medium and kept", async () => {
    const result = await fromText("688999\nZZZZ");
    expect(result.codes).toEqual(["688999", "ZZZZ"]);
    expect(result.items.map((i) => i.confidence)).toEqual(["medium", "medium"]);
  });

  it("prices, percentages, dates and times are not entries at all", async () => {
    const result = await fromText("600519 1688.00 +2.30% 2025-03-04 14:59:00 -1.5");
    expect(result.items).toHaveLength(1);
    expect(result.codes).toEqual(["600519"]);
  });

  it("a header in pasted text makes a table read by column", async () => {
    const result = await fromText("code\tname\tqty\n600519\t贵州茅台\t100\nAAPL\tApple\t5\n");
    expect(result.codes).toEqual(["600519", "AAPL"]);
    expect(result.items.every((i) => i.confidence === "high")).toBe(true);
  });

  it("a single-column header of names keeps names with spaces whole", async () => {
    const result = await fromText("name\nMeta Platforms\n贵州茅台");
    expect(result.codes).toEqual(["META", "600519"]);
  });
});

describe("12.7 parse-import: files", () => {
  it('a broker CSV (UTF-8): preamble skipped, code and name columns read, Excel\'s ="…" guard, a totals row rejected', async () => {
    const result = await fromFile(fixture("broker-utf8.csv"));
    expect(result.codes).toEqual(["600519", "000001", "000858"]);
    expect(byCode(result.items, "000858")).toMatchObject({ name: "五粮液", confidence: "high" });
    const totals = result.items.find((i) => i.raw === "合计");
    expect(totals).toMatchObject({ confidence: "low" });
    expect(totals!.code).toBeUndefined();
    expect(result.items).toHaveLength(4);
  });

  it("a GBK, tab-separated export: decoded, and a code Excel shortened gets its zeros back from the market column", async () => {
    const result = await fromFile(fixture("holdings-gbk.csv"));
    expect(result.codes).toEqual(["000001", "600036", "300750"]);
    expect(byCode(result.items, "000001")).toMatchObject({ name: "平安银行", confidence: "high" });
    expect(byCode(result.items, "000001")!.reason).toMatch(/leading zeros restored: 1 read as 000001/);
    expect(byCode(result.items, "000001")!.raw).toBe("1 平安银行");
    expect(byCode(result.items, "600036")!.name).toBe("招商银行");
  });

  it("a TXT file: codes and names separated by anything", async () => {
    const result = await fromFile(fixture("codes.txt", "text/plain"));
    expect(result.codes).toEqual(["600519", "600036", "00700", "AAPL", "MSFT", "NVDA", "002594", "TSLA"]);
  });

  it("UTF-16 text with a byte-order mark (Excel's Unicode text) is decoded", async () => {
    const bytes = Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      Buffer.from("证券代码\t证券名称\n600519\t贵州茅台\n", "utf16le"),
    ]);
    const result = await fromFile(new File([bytes], "export.txt"));
    expect(result.codes).toEqual(["600519"]);
  });

  it("an XLSX workbook written by write-excel-file: header row, numbers as cells, an A-share column's lost zeros restored", async () => {
    const data = [
      [{ value: "股票代码" }, { value: "股票名称" }, { value: "持仓" }],
      [{ value: 600519 }, { value: "贵州茅台" }, { value: 100 }],
      [{ value: 1 }, { value: "平安银行" }, { value: 1000 }],
      [{ value: "0700.HK" }, { value: "腾讯控股" }, { value: 50 }],
      [{ value: "AAPL" }, { value: "" }, { value: 1.5 }],
      [{ value: "INVALID1" }, { value: "比亚迪" }, { value: 10 }],
    ];
    const buffer = await writeXlsxFile(data).toBuffer();
    const result = await fromFile(new File([new Uint8Array(buffer)], "watchlist.xlsx"));
    expect(result.codes).toEqual(["600519", "000001", "00700", "AAPL", "002594"]);
    expect(result.items.find((i) => i.code === "002594")).toMatchObject({ confidence: "medium" });
    expect(result.items.find((i) => i.code === "002594")!.reason).toMatch(/the code "INVALID1" does not read/);
  });

  it("an XLSX without a header: every cell is free text", async () => {
    const buffer = await writeXlsxFile([
      [{ value: "贵州茅台" }, { value: "AAPL" }],
      [{ value: 700 }, { value: 100 }],
    ]).toBuffer();
    const result = await fromFile(new File([new Uint8Array(buffer)], "list.xlsx"));
    expect(result.codes).toEqual(["600519", "AAPL", "00700"]);
    // 700 is Tencent in the stock list; 100 is a number the list does not know: a guess, kept out of codes.
    expect(result.items.find((i) => i.raw === "100")).toMatchObject({ code: "00100", confidence: "low" });
  });

  it("a code column whose name names another stock is medium, with the reason", async () => {
    const result = await fromText("代码,名称\n600519,平安银行\n");
    expect(result.items[0]).toMatchObject({ code: "600519", confidence: "medium" });
    expect(result.items[0]!.reason).toMatch(/belongs to 000001/);
    expect(result.codes).toEqual(["600519"]);
  });
});

describe("12.7 parse-import: refusals", () => {
  it("nothing to read is 400 bad_request", async () => {
    expect(await failure(parseImport(undefined))).toMatchObject({ code: "bad_request", status: 400 });
    expect(await failure(parseImport({ text: "   " }))).toMatchObject({ code: "bad_request", status: 400 });
    expect(await failure(fromFile(new File([], "empty.csv")))).toMatchObject({ code: "bad_request", status: 400 });
  });

  it("text over the limit is 413", async () => {
    const text = "600519\n".repeat(Math.ceil(MAX_IMPORT_TEXT_BYTES / 7) + 1);
    expect(await failure(fromText(text))).toMatchObject({ code: "payload_too_large", status: 413 });
  });

  it("too many rows or entries is 400 parse_failed (refused, not cut)", async () => {
    const rows = Array.from({ length: MAX_IMPORT_ROWS + 1 }, (_, i) => String(600000 + (i % 1000)));
    expect(await failure(fromFile(new File([rows.join("\n")], "big.csv")))).toMatchObject({ code: "parse_failed" });
    const entries = Array.from({ length: MAX_IMPORT_ENTRIES + 1 }, () => "AAPL").join(",");
    expect(await failure(fromText(entries))).toMatchObject({ code: "parse_failed" });
  });

  it("an .xls, a binary file and a damaged zip are 400 parse_failed", async () => {
    const xls = new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0, 0]);
    expect((await failure(fromFile(new File([xls], "old.xls")))).message).toMatch(/save the \.xls file as \.xlsx/);
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);
    expect(await failure(fromFile(new File([png], "shot.png")))).toMatchObject({ code: "parse_failed" });
    const zip = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3, 4, 5, 6, 7, 8]);
    expect(await failure(fromFile(new File([zip], "broken.xlsx")))).toMatchObject({ code: "parse_failed" });
  });

  it("a workbook whose directory declares more XML than allowed is refused before anything is inflated (zip bomb)", async () => {
    const bomb = zipWithDeclaredSize("xl/worksheets/sheet1.xml", 64 * 1024 * 1024);
    expect(declaredXmlBytes(bomb)).toBe(64 * 1024 * 1024);
    expect(await failure(fromFile(new File([bomb], "bomb.xlsx")))).toMatchObject({
      code: "payload_too_large",
      status: 413,
    });
  });
});

/** A one-entry zip whose central directory declares `size` unpacked bytes for `name`. */
function zipWithDeclaredSize(name: string, size: number): Uint8Array<ArrayBuffer> {
  const data = deflateRawSync(Buffer.alloc(1024));
  const nameBytes = Buffer.from(name);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(8, 8);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(size, 22);
  local.writeUInt16LE(nameBytes.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(8, 10);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(size, 24);
  central.writeUInt16LE(nameBytes.length, 28);
  central.writeUInt32LE(0, 42);
  const centralOffset = local.length + nameBytes.length + data.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + nameBytes.length, 12);
  end.writeUInt32LE(centralOffset, 16);
  return new Uint8Array(Buffer.concat([local, nameBytes, data, central, nameBytes, end]));
}
