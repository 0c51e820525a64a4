import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it, vi } from "vitest";
import { openSqliteReader } from "./direct-read";

// The direct reader behind the hot one-row reads (history_version, the share stamp) on SQLite.

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dsa-direct-read-"));
const file = path.join(dir, "db.sqlite");
const writer = new Database(file);
writer.pragma("journal_mode = WAL");
writer.exec("CREATE TABLE kv (k TEXT PRIMARY KEY, v INTEGER NOT NULL)");
writer.prepare("INSERT INTO kv (k, v) VALUES (?, ?)").run("a", 1);

afterAll(() => {
  writer.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("openSqliteReader", () => {
  it("answers the first row of a statement with its parameters, or undefined", async () => {
    const reader = openSqliteReader(file, 1000);
    try {
      expect(await reader.one<{ v: number }>("SELECT v FROM kv WHERE k = ?", ["a"])).toEqual({ v: 1 });
      expect(await reader.one("SELECT v FROM kv WHERE k = ?", ["missing"])).toBeUndefined();
      expect(await reader.one<{ n: number }>("SELECT COUNT(*) AS n FROM kv")).toEqual({ n: 1 });
    } finally {
      reader.close();
    }
  });

  it("prepares each statement once", async () => {
    const prepare = vi.spyOn(Database.prototype, "prepare");
    const reader = openSqliteReader(file, 1000);
    try {
      for (let i = 0; i < 5; i++) await reader.one("SELECT v FROM kv WHERE k = ?", ["a"]);
      await reader.one("SELECT k FROM kv WHERE v = ?", [1]);
      expect(prepare).toHaveBeenCalledTimes(2);
    } finally {
      prepare.mockRestore();
      reader.close();
    }
  });

  it("sees what another connection committed, never what its open transaction has not", async () => {
    const reader = openSqliteReader(file, 1000);
    try {
      writer.prepare("UPDATE kv SET v = ? WHERE k = ?").run(2, "a");
      expect(await reader.one("SELECT v FROM kv WHERE k = ?", ["a"])).toEqual({ v: 2 });
      writer.exec("BEGIN");
      writer.prepare("UPDATE kv SET v = ? WHERE k = ?").run(3, "a");
      // WAL: the read does not wait for the open write transaction and shows the last commit.
      expect(await reader.one("SELECT v FROM kv WHERE k = ?", ["a"])).toEqual({ v: 2 });
      writer.exec("COMMIT");
      expect(await reader.one("SELECT v FROM kv WHERE k = ?", ["a"])).toEqual({ v: 3 });
    } finally {
      if (writer.inTransaction) writer.exec("ROLLBACK");
      reader.close();
    }
  });

  it("does not create a database that is not there", () => {
    const missing = path.join(dir, "missing.sqlite");
    expect(() => openSqliteReader(missing, 1000)).toThrow();
    expect(fs.existsSync(missing)).toBe(false);
  });
});
