import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { InvalidDataFileError, parseBarsCsv } from "./csv";

const REAL_BARS = path.resolve("tests/fixtures/real-bars");

/** The error parseBarsCsv throws for `text`, so a test can check file, line and problem. */
function invalid(text: string, label = "TEST.csv"): InvalidDataFileError {
  try {
    parseBarsCsv(text, label);
  } catch (error) {
    if (error instanceof InvalidDataFileError) return error;
    throw error;
  }
  throw new Error("expected the file to be invalid");
}

const HEADER = "date,open,high,low,close,volume";

describe("parseBarsCsv: columns (docs/api.md §10)", () => {
  it.each([
    ["date", "volume"],
    ["datetime", "volume"],
    ["trade_date", "vol"],
    ["DATE", "VOL"],
    ["Trade_Date", "Volume"],
  ])("reads the date column named %s and the volume column named %s", (dateName, volumeName) => {
    const bars = parseBarsCsv(`${dateName},open,high,low,close,${volumeName}\n2024-01-02,10,11,9,10.5,1200\n`, "X.csv");
    expect(bars).toEqual([
      {
        date: "2024-01-02",
        open: 10,
        high: 11,
        low: 9,
        close: 10.5,
        volume: 1200,
        amount: null,
        turnover_rate: null,
        source: "csv",
      },
    ]);
  });

  it("takes columns by name in any order and case, reads amount and turnover_rate, ignores other columns", () => {
    const text =
      "Close,Turnover_Rate,note,VOLUME,Low,AMOUNT,High,Open,Date\n10.5,0.8,hello,1200,9,12600,11,10,2024-01-02\n";
    expect(parseBarsCsv(text, "X.csv")).toEqual([
      {
        date: "2024-01-02",
        open: 10,
        high: 11,
        low: 9,
        close: 10.5,
        volume: 1200,
        amount: 12600,
        turnover_rate: 0.8,
        source: "csv",
      },
    ]);
  });

  it("an empty optional cell is null, not 0", () => {
    const [bar] = parseBarsCsv(
      "date,open,high,low,close,volume,amount,turnover_rate\n2024-01-02,10,11,9,10.5,1200,,\n",
      "X.csv",
    );
    expect(bar).toMatchObject({ amount: null, turnover_rate: null });
  });

  it("accepts a byte-order mark, CRLF line ends, blank lines and spaces around cells", () => {
    const bars = parseBarsCsv(`\uFEFF${HEADER}\r\n\r\n 2024-01-02 , 10 ,11,9,10.5,1200\r\n`, "X.csv");
    expect(bars.map((b) => [b.date, b.open])).toEqual([["2024-01-02", 10]]);
  });
});

describe("parseBarsCsv: dates and order", () => {
  it.each([
    ["2024-03-05", "2024-03-05"],
    ["20240305", "2024-03-05"],
    ["2024/03/05", "2024-03-05"],
  ])("reads the date %s as %s", (cell, iso) => {
    expect(parseBarsCsv(`${HEADER}\n${cell},10,11,9,10.5,1200\n`, "X.csv")[0]!.date).toBe(iso);
  });

  it("sorts rows given in any order by date, oldest first", () => {
    const text = `${HEADER}\n2024/03/07,12,13,11,12.5,1\n20240305,10,11,9,10.5,1\n2024-03-06,11,12,10,11.5,1\n`;
    expect(parseBarsCsv(text, "X.csv").map((b) => b.date)).toEqual(["2024-03-05", "2024-03-06", "2024-03-07"]);
  });
});

describe("parseBarsCsv: an invalid file is refused whole, naming the file, the line and the problem", () => {
  it("a repeated date names both lines (also across date formats)", () => {
    const error = invalid(`${HEADER}\n2024-03-05,10,11,9,10.5,1\n2024-03-06,10,11,9,10.5,1\n20240305,10,11,9,10.5,1\n`);
    expect(error.line).toBe(4);
    expect(error.message).toBe("TEST.csv line 4: date 2024-03-05 repeats line 2");
  });

  it.each([
    ["open", "0,11,9,10.5,1"],
    ["high", "10,-11,9,10.5,1"],
    ["low", "10,11,0,10.5,1"],
    ["close", "10,11,9,0,1"],
  ])("a %s price ≤ 0", (column, cells) => {
    const error = invalid(`${HEADER}\n2024-03-04,10,11,9,10.5,1\n2024-03-05,${cells}\n`);
    expect(error.message).toMatch(new RegExp(`^TEST\\.csv line 3: ${column} -?[0-9.]+ is not above 0$`));
  });

  it("high below low", () => {
    expect(invalid(`${HEADER}\n2024-03-05,10,9,11,10,1\n`).message).toBe("TEST.csv line 2: high 9 is below low 11");
  });

  it("a missing required column names every missing column on the header line", () => {
    const error = invalid("date,open,high,close\n2024-03-05,10,11,10.5\n");
    expect(error.line).toBe(1);
    expect(error.message).toContain("TEST.csv line 1: missing required column(s) low;");
  });

  it("a file without a volume column reads with volume 0 on every bar (rated missing_volume by the analysis)", () => {
    const bars = parseBarsCsv("date,open,high,low,close\n2024-03-05,10,11,9,10.5\n2024-03-04,10,11,9,10\n", "X.csv");
    expect(bars.map((b) => [b.date, b.close, b.volume])).toEqual([
      ["2024-03-04", 10, 0],
      ["2024-03-05", 10.5, 0],
    ]);
  });

  it("no header row (the first row is data) is a missing-column error", () => {
    expect(invalid("2024-03-05,10,11,9,10.5,1\n").message).toMatch(
      /^TEST\.csv line 1: missing required column\(s\) date, open, high, low, close;/,
    );
  });

  it.each([
    ["a word for a price", "2024-03-05,ten,11,9,10.5,1", 'open "ten" is not a number'],
    ["a hex number", "2024-03-05,10,0x10,9,10.5,1", 'high "0x10" is not a number'],
    ["an empty cell", "2024-03-05,10,11,9,,1", "close is empty"],
    ["a short row", "2024-03-05,10,11,9,10.5", "volume is empty"],
    ["a negative volume", "2024-03-05,10,11,9,10.5,-5", "volume -5 is negative"],
    [
      "a date in another format",
      "05.03.2024,10,11,9,10.5,1",
      'date "05.03.2024" is not a date (YYYY-MM-DD, YYYYMMDD or YYYY/MM/DD)',
    ],
    [
      "an impossible date",
      "2024-02-30,10,11,9,10.5,1",
      'date "2024-02-30" is not a date (YYYY-MM-DD, YYYYMMDD or YYYY/MM/DD)',
    ],
  ])("an unparsable cell: %s", (_what, row, problem) => {
    expect(invalid(`${HEADER}\n2024-03-04,10,11,9,10.5,1\n\n${row}\n`).message).toBe(`TEST.csv line 4: ${problem}`);
  });

  it("an unparsable optional cell", () => {
    expect(invalid("date,open,high,low,close,volume,amount\n2024-03-05,10,11,9,10.5,1,n/a\n").message).toBe(
      'TEST.csv line 2: amount "n/a" is not a number',
    );
  });

  it("broken CSV quoting names the line", () => {
    const error = invalid(`${HEADER}\n2024-03-05,10,11,9,10.5,1\n2024-03-06,"10,11,9,10.5,1\n`);
    expect(error.line).toBe(3);
    expect(error.message).toMatch(/^TEST\.csv line 3: not a readable CSV/);
  });

  it("two columns naming the same field", () => {
    expect(invalid("date,trade_date,open,high,low,close,volume\n").message).toBe(
      "TEST.csv line 1: columns date, trade_date all name the date column; keep one",
    );
  });

  it("an empty file and a header without rows", () => {
    expect(invalid("").message).toBe("TEST.csv: the file is empty; a header row is required");
    expect(invalid(`${HEADER}\n`).message).toBe("TEST.csv: the file has a header row but no bars");
  });
});

describe("parseBarsCsv on the real-bars fixtures", () => {
  const files = fs.readdirSync(REAL_BARS).filter((name) => name.endsWith(".csv"));

  it.each(files)("%s parses whole, oldest first, with the file's first and last rows", (file) => {
    const text = fs.readFileSync(path.join(REAL_BARS, file), "utf8");
    const lines = text.trim().split("\n");
    const bars = parseBarsCsv(text, file);
    expect(bars).toHaveLength(lines.length - 1);
    expect(bars[0]!.date).toBe(lines[1]!.split(",")[0]);
    expect(bars.at(-1)!.close).toBe(Number(lines.at(-1)!.split(",")[4]));
    expect(bars.every((b, i) => i === 0 || b.date > bars[i - 1]!.date)).toBe(true);
  });
});
