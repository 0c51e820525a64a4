import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ZAnalysisResultResponse } from "@/lib/analysis/schemas";
import { startTestServer, type TestServer } from "../setup/api-server";
import { openServerDatabase } from "../setup/server-database";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ MARKET_DATA_SOURCES: "sample" });
});
afterAll(() => server?.stop());

function analyze(body: unknown) {
  return fetch(`${server.baseUrl}/api/v1/analysis/analyze`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

async function expectError(body: unknown, status: number, code: string): Promise<string> {
  const res = await analyze(body);
  expect(res.status, JSON.stringify(body)).toBe(status);
  const json = (await res.json()) as { error: string; message: string };
  expect(json.error).toBe(code);
  return json.message;
}

describe("POST /api/v1/analysis/analyze (sync, sample data, no LLM key)", () => {
  it("spec 4.2 rule 6: one code answers 200 AnalysisResultResponse with a complete rule-based report, stored", async () => {
    const res = await analyze({ stock_code: "600519" });
    expect(res.status).toBe(200);
    const body = ZAnalysisResultResponse.parse(await res.json());
    expect(body.stock_code).toBe("600519");
    expect(body.stock_name).toBe("贵州茅台");
    const { meta, summary, strategy, details } = body.report;
    expect(meta).toMatchObject({
      query_id: body.query_id,
      stock_code: "600519",
      report_type: "detailed",
      report_language: "zh",
      asset_type: "stock",
    });
    expect(typeof meta.current_price).toBe("number");
    expect(typeof meta.change_pct).toBe("number");
    expect(summary.sentiment_score).toBeGreaterThanOrEqual(0);
    expect(summary.sentiment_score).toBeLessThanOrEqual(100);
    expect(summary.operation_advice).toBeTruthy();
    expect(summary.analysis_summary).toContain("样本数据");
    expect(Object.values(strategy).some((v) => v !== null) || summary.action === "watch").toBe(true);
    expect(details.empty_news_disclosure).toBeTruthy();
    expect(details.news_content).toBeNull();
    expect(details.context_snapshot).toMatchObject({ data_source: "sample", is_sample_data: true });
    expect(body.diagnostic_summary).toMatchObject({
      query_id: body.query_id,
      components: { llm: { status: "not_configured" } },
    });

    const database = await openServerDatabase(server);
    try {
      const row = (await database.get<Record<string, string>>(
        "SELECT stock_code, target_key, report_type, diagnostics, flow FROM analysis_history WHERE query_id = ?",
        body.query_id,
      ))!;
      expect(row).toMatchObject({ stock_code: "600519", target_key: "stock:cn:600519", report_type: "detailed" });
      expect(JSON.parse(row.flow!).nodes.length).toBeGreaterThan(2);
      expect(JSON.parse(row.diagnostics!).query_id).toBe(body.query_id);
    } finally {
      await database.close();
    }
  });

  it("spec 2.6 rule 3: an index is reported with its display code and asset_type index; 000001 stays Ping An Bank", async () => {
    const index = ZAnalysisResultResponse.parse(await (await analyze({ stock_code: "sh000001" })).json());
    expect(index.report.meta.asset_type).toBe("index");
    expect(index.report.meta.stock_name).toBe("上证指数");
    const stock = ZAnalysisResultResponse.parse(await (await analyze({ stock_code: "000001" })).json());
    expect(stock.report.meta).toMatchObject({ asset_type: "stock", stock_code: "000001", stock_name: "平安银行" });
  });

  it("docs/api.md §7: report_language en (or an alias) gives an English report; brief is accepted", async () => {
    const res = await analyze({ stock_code: "AAPL", report_language: "English", report_type: "brief" });
    const body = ZAnalysisResultResponse.parse(await res.json());
    expect(body.report.meta).toMatchObject({
      report_language: "en",
      report_type: "brief",
      stock_code: "AAPL",
      stock_name: "Apple",
    });
    expect(body.report.summary.analysis_summary).toMatch(/Sample data/);
  });

  it("spec 4.2 rules 1-6: each bad request is 400 validation_error with its reason", async () => {
    await expectError({}, 400, "validation_error");
    await expectError({ stock_code: "   " }, 400, "validation_error");
    const tooMany = await expectError(
      { stock_codes: Array.from({ length: 51 }, () => "600519") },
      400,
      "validation_error",
    );
    expect(tooMany).toMatch(/51/);
    expect(await expectError({ stock_code: "abc123" }, 400, "validation_error")).toMatch(/^abc123: /);
    expect(await expectError({ stock_code: "csi999999" }, 400, "validation_error")).toMatch(/^csi999999: /);
    // The reason as a code with its values too, for clients that word it in their own language.
    const coded = (await (await analyze({ stock_code: "不存在的公司" })).json()) as Record<string, unknown>;
    expect(coded).toMatchObject({
      error: "validation_error",
      stock_code: "不存在的公司",
      reason_code: "unknown_name",
      reason_params: { name: "不存在的公司" },
    });
    expect(await expectError({ stock_codes: ["600519", "AAPL"] }, 400, "validation_error")).toMatch(/async_mode/);
    expect(await expectError({ stock_codes: ["600519", "不存在的公司名称"] }, 400, "validation_error")).toMatch(
      /^不存在的公司名称: /,
    );
  });

  it("spec 2.6 rule 4: an English report names the stock in English", async () => {
    const body = ZAnalysisResultResponse.parse(
      await (await analyze({ stock_code: "600519", report_language: "en" })).json(),
    );
    expect(body.report.meta.stock_name).toBe("Kweichow Moutai");
    expect(body.stock_name).toBe("Kweichow Moutai");
  });

  it("spec 4.2 rule 4: 600519 and 600519.SH merge into one target, so sync mode accepts them", async () => {
    const res = await analyze({ stock_code: "600519", stock_codes: ["600519.SH", "sh600519"] });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { stock_code: string }).stock_code).toBe("600519");
  });

  it("a malformed field is 422 validation_error with the location", async () => {
    const res = await analyze({ stock_code: "600519", report_type: "huge" });
    expect(res.status).toBe(422);
    const body = (await res.json()) as { detail: { loc: string[] }[] };
    expect(body.detail[0]!.loc).toEqual(["body", "report_type"]);
  });

  it("spec 4.2 rule 6: a valid code without market data is 500 analysis_failed with the failure text", async () => {
    const message = await expectError({ stock_code: "600036" }, 500, "analysis_failed");
    expect(message).toMatch(/600036/);
  });

  it("the failure carries a reason a UI can word: only local data asked, with the sample codes of the market", async () => {
    const res = await analyze({ stock_code: "600036" });
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      error: "analysis_failed",
      stock_code: "600036",
      reason_code: "not_in_local_data",
      reason_params: { code: "600036", sources: "sample" },
    });
    const samples = String((body.reason_params as Record<string, string>).samples).split(", ");
    expect(samples).toContain("600519");
    expect(samples.every((c) => /^\d{6}$/.test(c))).toBe(true);
  });
});
