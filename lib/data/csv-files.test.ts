import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import fsp from "node:fs/promises";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { setEnvironmentForTests } from "@/lib/settings/settings";
import { ApiError } from "@/lib/errors/api-error";
import { csvCodeForInput } from "./csv-code";
import { deleteCsvDataFile, listCsvDataFiles, saveCsvDataFile } from "./csv-files";

const ROOT = fs.mkdtempSync(path.join(os.tmpdir(), "dsa-csv-files-"));
const DIR = path.join(ROOT, "csv");
const BARS = "date,open,high,low,close,volume\n2024-01-03,10,12,9,11,100\n2024-01-02,10,11,9,10.5,100\n";

beforeAll(() => setEnvironmentForTests({ ENV_FILE: path.join(ROOT, "missing.env"), CSV_DATA_DIR: DIR }));
afterAll(() => setEnvironmentForTests(process.env));
beforeEach(() => fs.rmSync(DIR, { recursive: true, force: true }));

function file(text: string, name = "bars.csv"): File {
  return new File([text], name, { type: "text/csv" });
}

async function apiError(work: Promise<unknown>): Promise<ApiError> {
  const error = await work.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe("csvCodeForInput: the file name is the stock_code the provider looks up", () => {
  it.each([
    ["600519", "600519"],
    ["sh600519", "600519"],
    ["600519.SH", "600519"],
    ["700", "00700"],
    ["0700.HK", "00700"],
    ["aapl", "AAPL"],
    ["brk.b", "BRK.B"],
  ])("%s → %s", (input, code) => {
    expect(csvCodeForInput(input)).toBe(code);
  });

  it.each(["../600519", "..", "a/b", "a\\b", "/etc/passwd", "600519\0", "abc123"])(
    "refuses %j with 400 validation_error",
    (input) => {
      let error: unknown = null;
      try {
        csvCodeForInput(input);
      } catch (thrown) {
        error = thrown;
      }
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({ status: 400, code: "validation_error" });
      expect((error as ApiError).extra).toMatchObject({
        reason_code: expect.any(String),
        reason_params: { token: input },
      });
    },
  );

  it("names why a code is refused: a path, or the resolver's own reason", () => {
    const reasonOf = (input: string) => {
      try {
        csvCodeForInput(input);
      } catch (thrown) {
        return (thrown as ApiError).extra;
      }
      return null;
    };
    expect(reasonOf("../600519")).toEqual({ reason_code: "path_not_code", reason_params: { token: "../600519" } });
    expect(reasonOf("abc123")).toEqual({
      reason_code: "mixed_letters_digits",
      reason_params: { text: "abc123", token: "abc123" },
    });
  });
});

describe("saveCsvDataFile, listCsvDataFiles, deleteCsvDataFile", () => {
  it("creates the folder, stores the bytes as given under the normalised code, and lists the file", async () => {
    const item = await saveCsvDataFile({ code: "sh600519", file: file(BARS) });
    expect(item).toMatchObject({
      code: "600519",
      file: "600519.csv",
      rows: 2,
      first_date: "2024-01-02",
      last_date: "2024-01-03",
      size_bytes: BARS.length,
      error: null,
    });
    expect(fs.readFileSync(path.join(DIR, "600519.csv"), "utf8")).toBe(BARS);
    expect(fs.readdirSync(DIR)).toEqual(["600519.csv"]);
    expect((await listCsvDataFiles()).items).toEqual([item]);
  });

  it("replaces another spelling of the same name, so the lookup stays unambiguous", async () => {
    fs.mkdirSync(DIR, { recursive: true });
    fs.writeFileSync(path.join(DIR, "aapl.csv"), BARS);
    await saveCsvDataFile({ code: "AAPL", file: file(BARS) });
    expect(fs.readdirSync(DIR)).toEqual(["AAPL.csv"]);
  });

  it("an invalid upload is 400 invalid_import_file with file, line and problem, and writes nothing", async () => {
    const error = await apiError(
      saveCsvDataFile({ code: "600519", file: file(`${BARS}2024-01-04,10,11,9,abc,100\n`) }),
    );
    expect(error).toMatchObject({
      status: 400,
      code: "invalid_import_file",
      message: '600519.csv line 4: close "abc" is not a number',
    });
    // The problem also comes as a code with its values, for a UI that words it in its own language.
    expect(error.extra).toEqual({
      detail: { file: "600519.csv", line: 4, problem: 'close "abc" is not a number' },
      reason_code: "not_a_number",
      reason_params: { file: "600519.csv", line: "4", column: "close", value: "abc" },
    });
    expect(fs.existsSync(DIR)).toBe(false);
  });

  it("lists a hand-placed invalid file with its error, and ignores files that are not .csv", async () => {
    fs.mkdirSync(DIR, { recursive: true });
    fs.writeFileSync(path.join(DIR, "000001.csv"), "date,open\n2024-01-02,1\n");
    fs.writeFileSync(path.join(DIR, "notes.txt"), "not data");
    fs.writeFileSync(path.join(DIR, ".600519.csv.abc.tmp"), BARS);
    const { items } = await listCsvDataFiles();
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({
      code: "000001",
      rows: null,
      first_date: null,
      error: expect.stringMatching(/^000001\.csv line 1: missing required column\(s\) high, low, close;/),
      error_code: "missing_columns",
      error_params: {
        file: "000001.csv",
        line: "1",
        missing: "high, low, close",
        required: "date, open, high, low, close",
        found: "date, open",
      },
    });
  });

  it("delete finds the file by the listed code or any spelling of it; an unknown code is 404", async () => {
    fs.mkdirSync(DIR, { recursive: true });
    fs.writeFileSync(path.join(DIR, "my-series.csv"), BARS);
    await saveCsvDataFile({ code: "700", file: file(BARS) });
    expect(await deleteCsvDataFile("my-series")).toEqual({ deleted: true });
    expect(await deleteCsvDataFile("0700.hk")).toEqual({ deleted: true });
    expect(fs.readdirSync(DIR)).toEqual([]);
    expect(await apiError(deleteCsvDataFile("00700"))).toMatchObject({ status: 404, code: "not_found" });
    expect(await apiError(deleteCsvDataFile("no-such-file"))).toMatchObject({ status: 404, code: "not_found" });
    expect(await apiError(deleteCsvDataFile("../etc"))).toMatchObject({ status: 400, code: "validation_error" });
  });
});

describe("fuzz: a DELETE racing a list or an upload of the same file", () => {
  afterEach(() => vi.restoreAllMocks());

  it("the list leaves out a file removed between its stat and its read (was a 500 ENOENT)", async () => {
    await saveCsvDataFile({ code: "600519", file: file(BARS) });
    await saveCsvDataFile({ code: "000001", file: file(BARS) });
    const stat = fsp.stat;
    let removed = false;
    vi.spyOn(fsp, "stat").mockImplementation(async (...args: Parameters<typeof fsp.stat>) => {
      const result = await stat(...args);
      if (!removed && String(args[0]).endsWith("600519.csv")) {
        removed = true;
        fs.rmSync(String(args[0]));
      }
      return result;
    });
    expect((await listCsvDataFiles()).items.map((i) => i.code)).toEqual(["000001"]);
  });

  it("an upload whose file is removed before it is described is 409 conflict (was a 500)", async () => {
    const rename = fsp.rename;
    vi.spyOn(fsp, "rename").mockImplementation(async (from, to) => {
      await rename(from, to);
      fs.rmSync(String(to));
    });
    expect(await apiError(saveCsvDataFile({ code: "600519", file: file(BARS) }))).toMatchObject({
      status: 409,
      code: "conflict",
      extra: { reason_code: "removed_meanwhile", reason_params: { file: "600519.csv" } },
    });
  });
});
