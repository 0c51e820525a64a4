import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  envFilePath,
  getRawSetting,
  getSettings,
  installConfigDocument,
  installedConfigDocument,
  reloadSettings,
  setEnvironmentForTests,
} from "@/lib/settings/settings";

let dir: string;
let envFile: string;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "dsa-settings-"));
  envFile = path.join(dir, "app.env");
});

afterEach(() => {
  setEnvironmentForTests(process.env);
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("settings accessor", () => {
  it("applies schema defaults when neither the environment nor the file sets a key", () => {
    setEnvironmentForTests({ ENV_FILE: envFile });
    const s = getSettings();
    expect(s.PORT).toBe(3000);
    expect(s.DATABASE_URL).toBe("file:./data/dsa.db");
    expect(s.LOG_LEVEL).toBe("info");
    expect(envFilePath()).toBe(envFile);
  });

  it("the env file overrides the process environment for ordinary keys (it is the live store)", () => {
    fs.writeFileSync(envFile, "# comment\nLOG_LEVEL=debug\nUNKNOWN_KEY='kept as raw'\n");
    setEnvironmentForTests({ ENV_FILE: envFile, LOG_LEVEL: "warn" });
    expect(getSettings().LOG_LEVEL).toBe("debug");
    expect(getRawSetting("UNKNOWN_KEY")).toBe("kept as raw");
  });

  it("the process environment wins for launch keys (port, database, env file)", () => {
    fs.writeFileSync(envFile, "PORT=4000\nDATABASE_URL=file:/tmp/from-file.db\n");
    setEnvironmentForTests({ ENV_FILE: envFile, PORT: "5055" });
    expect(getSettings().PORT).toBe(5055);
    expect(getSettings().DATABASE_URL).toBe("file:/tmp/from-file.db");
  });

  it("reloadSettings re-reads the file after a write", () => {
    fs.writeFileSync(envFile, "LOG_LEVEL=info\n");
    setEnvironmentForTests({ ENV_FILE: envFile });
    expect(getSettings().LOG_LEVEL).toBe("info");
    fs.writeFileSync(envFile, "LOG_LEVEL=error\n");
    expect(reloadSettings().LOG_LEVEL).toBe("error");
    expect(getSettings().LOG_LEVEL).toBe("error");
  });

  it("a blank value counts as unset", () => {
    fs.writeFileSync(envFile, "PORT=\n");
    setEnvironmentForTests({ ENV_FILE: envFile });
    expect(getSettings().PORT).toBe(3000);
  });

  it("an invalid value fails loudly, naming the key and the file", () => {
    fs.writeFileSync(envFile, "LOG_LEVEL=chatty\n");
    setEnvironmentForTests({ ENV_FILE: envFile });
    expect(() => getSettings()).toThrow(/LOG_LEVEL.*|app\.env/);
  });

  it("boolean flags accept the usual spellings", () => {
    setEnvironmentForTests({ ENV_FILE: envFile, TRUST_X_FORWARDED_FOR: "Yes" });
    expect(getSettings().TRUST_X_FORWARDED_FOR).toBe(true);
    setEnvironmentForTests({ ENV_FILE: envFile, TRUST_X_FORWARDED_FOR: "0" });
    expect(getSettings().TRUST_X_FORWARDED_FOR).toBe(false);
  });
});

describe("settings compatibility with the reference service's .env", () => {
  it("accepts Python log level names in any case", () => {
    for (const [raw, level] of [
      ["INFO", "info"],
      ["WARNING", "warn"],
      ["Critical", "fatal"],
      ["debug", "debug"],
    ] as const) {
      setEnvironmentForTests({ ENV_FILE: "/nonexistent/dsa.env", LOG_LEVEL: raw });
      expect(getSettings().LOG_LEVEL).toBe(level);
    }
  });
});

describe("20 §3: the config document (PostgreSQL) as the live store", () => {
  const PG = "postgresql://postgres@127.0.0.1:5432/not_opened";
  const doc = (revision: number, values: Record<string, string>, databaseUrl = PG) => ({
    databaseUrl,
    revision,
    text: "",
    updatedAt: new Date(0),
    values,
  });

  it("replaces the env file's ordinary values; launch keys stay with the environment and the env file", () => {
    fs.writeFileSync(envFile, "LOG_LEVEL=info\nPORT=4000\nUNKNOWN_KEY=file\n");
    setEnvironmentForTests({ ENV_FILE: envFile, DATABASE_URL: PG, LOG_LEVEL: "warn" });
    expect(
      installConfigDocument(
        doc(1, { LOG_LEVEL: "error", PORT: "4999", DATABASE_URL: "file:/tmp/x.db", REDIS_URL: "redis://x:1" }),
      ),
    ).toBe(true);
    const s = getSettings();
    expect(s.LOG_LEVEL).toBe("error");
    expect(s.PORT).toBe(4000);
    expect(s.DATABASE_URL).toBe(PG);
    expect(s.REDIS_URL).toBe("");
    expect(getRawSetting("UNKNOWN_KEY")).toBeUndefined(); // the file's other keys are not the store any more
  });

  it("a document read through another DATABASE_URL is ignored", () => {
    setEnvironmentForTests({ ENV_FILE: envFile, DATABASE_URL: PG });
    installConfigDocument(doc(1, { LOG_LEVEL: "error" }, "postgresql://elsewhere/db"));
    expect(installedConfigDocument()).toBeNull();
    expect(getSettings().LOG_LEVEL).toBe("info");
  });

  it("an older revision never replaces a newer one, and one that does not parse keeps the previous settings", () => {
    setEnvironmentForTests({ ENV_FILE: envFile, DATABASE_URL: PG });
    installConfigDocument(doc(3, { LOG_LEVEL: "warn" }));
    expect(installConfigDocument(doc(2, { LOG_LEVEL: "debug" }))).toBe(false);
    expect(() => installConfigDocument(doc(4, { LOG_LEVEL: "chatty" }))).toThrow(/LOG_LEVEL/);
    expect(getSettings().LOG_LEVEL).toBe("warn");
    expect(installedConfigDocument()?.revision).toBe(3);
  });
});
