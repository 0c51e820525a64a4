import { describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "@/lib/openapi/document";
import { OPERATIONS } from "@/lib/openapi/operations";
import { Validator } from "@seriousme/openapi-schema-validator";
import { createdAtRange, startOfDay, startOfNextDay } from "./dates";
import { HISTORY_OPERATIONS } from "./operations";
import { isCalendarDay, ZHistoryListQuery } from "./schemas";
import { clipSnippet } from "./serialize";
import { historyTargetFilter } from "./target-filter";

describe("history helpers", () => {
  it("4.3 rules 1-2: code variants resolve to one target filter; indices by canonical identity", () => {
    const moutai = { targetKey: "stock:cn:600519" };
    for (const code of ["600519", "600519.SH", "sh600519", " SH600519 "])
      expect(historyTargetFilter(code)).toEqual(moutai);
    expect(historyTargetFilter("sh000001")).toEqual({ targetKey: "index:000001.SH" });
    expect(historyTargetFilter("000001")).toEqual({ targetKey: "stock:cn:000001" });
    expect(historyTargetFilter("MARKET")).toEqual({ stockCode: { in: ["MARKET"] } });
    expect(historyTargetFilter("  ")).toBeNull();
  });

  it("spec 8: a news snippet holds at most 50 characters", () => {
    const long = "这是一条非常长的新闻摘要".repeat(10);
    expect(Array.from(clipSnippet(long)).length).toBe(50);
    expect(clipSnippet(long).endsWith("…")).toBe(true);
    expect(clipSnippet("short  text\n")).toBe("short text");
    expect(Array.from(clipSnippet("😀".repeat(60))).length).toBe(50);
  });

  it("4.3 list: days are Shanghai days; the end date is inclusive", () => {
    expect(startOfDay("2024-05-01").toISOString()).toBe("2024-04-30T16:00:00.000Z");
    expect(startOfNextDay("2024-05-31").toISOString()).toBe("2024-05-31T16:00:00.000Z");
    expect(startOfDay("2024-03-10", "America/New_York").toISOString()).toBe("2024-03-10T05:00:00.000Z");
    expect(createdAtRange(undefined, undefined)).toBeUndefined();
  });

  it("4.3 list: malformed dates, an end before the start and bad paging are validation errors", () => {
    expect(isCalendarDay("2024-02-29")).toBe(true);
    expect(isCalendarDay("2023-02-29")).toBe(false);
    for (const bad of [
      { start_date: "2024-13-01" },
      { end_date: "yesterday" },
      { start_date: "2024-05-02", end_date: "2024-05-01" },
      { page: "0" },
      { limit: "101" },
    ]) {
      expect(ZHistoryListQuery.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
    expect(ZHistoryListQuery.parse({ start_date: "" })).toMatchObject({ page: 1, limit: 20 });
  });

  it("9: the history operations document as valid OpenAPI with the spec's record names", async () => {
    const doc = buildOpenApiDocument([...OPERATIONS, ...HISTORY_OPERATIONS]) as {
      components: { schemas: Record<string, unknown> };
    };
    const result = await new Validator().validate(doc as never);
    expect(result.errors ?? []).toEqual([]);
    for (const name of [
      "HistoryListResponse",
      "HistoryItem",
      "StockBarItem",
      "StockBarResponse",
      "NewsIntelItem",
      "NewsIntelResponse",
      "DeleteHistoryRequest",
      "DeleteHistoryResponse",
      "MarkdownReportResponse",
      "AnalysisReport",
      "RunDiagnosticSummaryResponse",
      "RunFlowSnapshot",
    ]) {
      expect(Object.keys(doc.components.schemas)).toContain(name);
    }
  });
});
