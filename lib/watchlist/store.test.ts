import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readEnvSnapshot, updateEnvFile } from "@/lib/config/env-store";
import { getSettings, setEnvironmentForTests } from "@/lib/settings/settings";
import { ApiError } from "@/lib/errors/api-error";
import { addToWatchlist, getWatchlist, removeFromWatchlist } from "./store";

let dir: string;
let file: string;

function useEnv(extra: Record<string, string> = {}) {
  setEnvironmentForTests({ ENV_FILE: file, ...extra });
}

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "dsa-watchlist-"));
  file = path.join(dir, ".env");
  useEnv();
});

afterEach(() => {
  setEnvironmentForTests(process.env);
  fs.rmSync(dir, { recursive: true, force: true });
});

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

const stockList = () => readEnvSnapshot(file).values.STOCK_LIST;

describe("12.7 watchlist: STOCK_LIST underneath", () => {
  it("add resolves codes, names and aliases and stores the normalised display code", async () => {
    expect(await addToWatchlist("sh600519")).toEqual({ stock_codes: ["600519"] });
    expect(await addToWatchlist("腾讯")).toEqual({ stock_codes: ["600519", "00700"] });
    expect(await addToWatchlist("Apple")).toEqual({ stock_codes: ["600519", "00700", "AAPL"] });
    expect(await addToWatchlist("000300.SH")).toEqual({ stock_codes: ["600519", "00700", "AAPL", "sh000300"] });
    expect(stockList()).toBe("600519,00700,AAPL,sh000300");
    // The scheduler's view (getSettings) is the same list, right after the write.
    expect(getSettings().STOCK_LIST).toEqual(["600519", "00700", "AAPL", "sh000300"]);
    expect(getWatchlist()).toEqual({ stock_codes: ["600519", "00700", "AAPL", "sh000300"] });
  });

  it("a stock already listed in any spelling is not added twice (and the file is not rewritten)", async () => {
    await addToWatchlist("600519");
    const version = readEnvSnapshot(file).version;
    for (const spelling of ["600519", "sh600519", "600519.SH", "贵州茅台", "茅台"]) {
      expect(await addToWatchlist(spelling)).toEqual({ stock_codes: ["600519"] });
    }
    expect(readEnvSnapshot(file).version).toBe(version);
  });

  it("a hand-written entry in another spelling counts as the same stock", async () => {
    fs.writeFileSync(file, "STOCK_LIST=sh600519,hk00700\n");
    expect(await addToWatchlist("600519.SH")).toEqual({ stock_codes: ["sh600519", "hk00700"] });
    expect(await removeFromWatchlist("0700.HK")).toEqual({ stock_codes: ["sh600519"] });
  });

  it("something that does not resolve is 400 invalid_stock_code with the reason, and nothing is written", async () => {
    for (const token of ["", "XYZ123", "不存在的公司", "12345678"]) {
      const error = await failure(addToWatchlist(token));
      expect(error).toMatchObject({ status: 400, code: "invalid_stock_code" });
      expect(error.extra).toMatchObject({ stock_code: token });
    }
    expect(fs.existsSync(file)).toBe(false);
  });

  it("remove matches any spelling of the same stock: 600519 = sh600519 = 600519.SH = 贵州茅台", async () => {
    fs.writeFileSync(file, "STOCK_LIST=600519,AAPL,00700\n");
    expect(await removeFromWatchlist("sh600519")).toEqual({ stock_codes: ["AAPL", "00700"] });
    fs.writeFileSync(file, "STOCK_LIST=600519.SH,AAPL\n");
    expect(await removeFromWatchlist("贵州茅台")).toEqual({ stock_codes: ["AAPL"] });
    expect(await removeFromWatchlist("aapl")).toEqual({ stock_codes: [] });
    expect(stockList()).toBe("");
  });

  it("remove of a stock not listed leaves the list; an entry that never resolved can be removed by its text", async () => {
    fs.writeFileSync(file, "STOCK_LIST=600519,BADCODE1\n");
    expect(await removeFromWatchlist("AAPL")).toEqual({ stock_codes: ["600519", "BADCODE1"] });
    expect(await removeFromWatchlist("badcode1")).toEqual({ stock_codes: ["600519"] });
    expect((await failure(removeFromWatchlist("BADCODE1"))).code).toBe("invalid_stock_code");
  });

  it("a list set only in the process environment is the starting point of the first edit", async () => {
    useEnv({ STOCK_LIST: "600519,AAPL" });
    expect(getWatchlist()).toEqual({ stock_codes: ["600519", "AAPL"] });
    expect(await addToWatchlist("00700")).toEqual({ stock_codes: ["600519", "AAPL", "00700"] });
    expect(stockList()).toBe("600519,AAPL,00700");
  });

  it("other keys of the env file are kept", async () => {
    fs.writeFileSync(file, "# my settings\nREPORT_TYPE=full\nSTOCK_LIST=600519\n");
    await addToWatchlist("AAPL");
    expect(fs.readFileSync(file, "utf8")).toBe("# my settings\nREPORT_TYPE=full\nSTOCK_LIST=600519,AAPL\n");
  });
});

describe("12.7 watchlist: concurrent edits never lose an entry", () => {
  const TEN = ["600519", "000001", "600036", "300750", "00700", "09988", "AAPL", "MSFT", "NVDA", "TSLA"];

  it("10 parallel adds: every entry is stored", async () => {
    const results = await Promise.all(TEN.map((code) => addToWatchlist(code)));
    expect([...getWatchlist().stock_codes].sort()).toEqual([...TEN].sort());
    expect(stockList()!.split(",").sort()).toEqual([...TEN].sort());
    // Each answer is the list as that edit left it: one more entry each time.
    expect(results.map((r) => r.stock_codes.length).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it("parallel adds, removes and config writes of other keys: adds kept, removed gone, other keys kept", async () => {
    fs.writeFileSync(file, "STOCK_LIST=601318,000858\n");
    await Promise.all([
      ...TEN.map((code) => addToWatchlist(code)),
      removeFromWatchlist("sh601318"),
      removeFromWatchlist("五粮液"),
      updateEnvFile({}, () => ({ updates: { REPORT_TYPE: "full" }, result: null })),
      updateEnvFile({}, () => ({ updates: { SCHEDULE_TIME: "18:30" }, result: null })),
    ]);
    expect([...getWatchlist().stock_codes].sort()).toEqual([...TEN].sort());
    expect(readEnvSnapshot(file).values).toMatchObject({ REPORT_TYPE: "full", SCHEDULE_TIME: "18:30" });
  });

  it("a config PUT holding the version read before an add gets 409, so it cannot write over the new entry", async () => {
    fs.writeFileSync(file, "STOCK_LIST=600519\n");
    const before = readEnvSnapshot(file).version;
    await addToWatchlist("AAPL");
    const stale = updateEnvFile({ expectedVersion: before }, () => ({
      updates: { STOCK_LIST: "600519,MSFT" },
      result: null,
    }));
    expect((await failure(stale)).code).toBe("config_version_conflict");
    expect(getWatchlist().stock_codes).toEqual(["600519", "AAPL"]);
  });
});
