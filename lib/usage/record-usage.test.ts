import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { setClock } from "@/lib/clock";
import { setEnvironmentForTests } from "@/lib/settings/settings";
import { db, disconnectDb } from "@/lib/db/client";
import { logger } from "@/lib/log/logger";
import { recordLlmUsage } from "./record-usage";
import { freshDatabaseUrl } from "@/tests/kits/db/temp-database";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dsa-usage-"));
const file = path.join(dir, "test.db");
let databaseUrl = "";

beforeAll(async () => {
  databaseUrl = await freshDatabaseUrl(file);
  setEnvironmentForTests({ ENV_FILE: path.join(dir, "missing.env"), DATABASE_URL: databaseUrl });
});

afterAll(async () => {
  await disconnectDb();
  setEnvironmentForTests(process.env);
  setClock(null);
  vi.restoreAllMocks();
  fs.rmSync(dir, { recursive: true, force: true });
});

beforeEach(async () => {
  await db().llmUsage.deleteMany();
});

describe("recordLlmUsage", () => {
  it("writes one row per call with tokens, duration, success and the clock's time", async () => {
    setClock(() => new Date("2026-11-20T08:00:00Z"));
    expect(
      await recordLlmUsage({
        callType: "analysis",
        channel: "deepseek",
        model: "deepseek-chat",
        stockCode: "600519",
        queryId: "q1",
        promptTokens: 100,
        completionTokens: 50,
        totalTokens: 150,
        durationMs: 1234.6,
        success: true,
      }),
    ).toBe(true);
    expect(
      await recordLlmUsage({
        callType: "analysis",
        model: "m",
        promptTokens: 7,
        completionTokens: 3,
        durationMs: 5,
        success: false,
        error: "x".repeat(900),
      }),
    ).toBe(true);
    const rows = await db().llmUsage.findMany({ orderBy: { id: "asc" } });
    expect(rows[0]).toMatchObject({
      callType: "analysis",
      channel: "deepseek",
      model: "deepseek-chat",
      stockCode: "600519",
      queryId: "q1",
      promptTokens: 100,
      completionTokens: 50,
      totalTokens: 150,
      durationMs: 1235,
      success: true,
      error: null,
    });
    expect(rows[0]!.calledAt.toISOString()).toBe("2026-11-20T08:00:00.000Z");
    // A missing total is prompt + completion; long errors are cut.
    expect(rows[1]).toMatchObject({ channel: null, totalTokens: 10, success: false });
    expect(rows[1]!.error).toHaveLength(500);
  });

  it("a failure to record is logged and never thrown", async () => {
    const warn = vi.spyOn(logger, "warn").mockImplementation(() => undefined);
    const create = vi.spyOn(db().llmUsage, "create").mockRejectedValueOnce(new Error("database is locked"));
    await expect(recordLlmUsage({ callType: "analysis", model: "m", durationMs: 1, success: true })).resolves.toBe(
      false,
    );
    expect(create).toHaveBeenCalledTimes(1);
    expect(warn).toHaveBeenCalledWith(
      expect.objectContaining({ err: "database is locked", model: "m" }),
      "llm usage not recorded",
    );
  });
});
