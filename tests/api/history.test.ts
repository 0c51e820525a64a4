import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ZRunDiagnosticSummary, ZRunFlowSnapshot } from "@/lib/analysis/run-schemas";
import {
  ZAnalysisReport,
  ZHistoryListResponse,
  ZMarkdownReportResponse,
  ZNewsIntelResponse,
  ZStockBarResponse,
} from "@/lib/history/schemas";
import { startTestServer, type TestServer } from "../setup/api-server";
import {
  addNews as addNewsTo,
  analyzeRecord,
  cloneRecord as cloneRecordInto,
  type MadeRecord,
} from "../setup/history-records";
import { openServerDatabase, type ServerDatabase } from "../setup/server-database";

// Both databases: list paging, filters and the delete of 10,000+ records are raw SQL and transactions of each dialect.
// Spec 4.3 over HTTP: a real server on sample market data; records come from real analyses, plus rows
// written straight into the database where a case needs what an analysis cannot produce (news, market
// reviews, old dates, 10,000+ records).

let server: TestServer;
let database: ServerDatabase;

type Made = MadeRecord;
const made: Record<string, Made> = {};

const HISTORY_ITEM_FIELDS = [
  "id",
  "query_id",
  "stock_code",
  "stock_name",
  "report_type",
  "region",
  "trend_prediction",
  "analysis_summary",
  "sentiment_score",
  "operation_advice",
  "action",
  "action_label",
  "current_price",
  "change_pct",
  "volume_ratio",
  "turnover_rate",
  "model_used",
  "created_at",
  "market_phase_summary",
  "asset_type",
];
const STOCK_BAR_FIELDS = [
  "id",
  "stock_code",
  "stock_name",
  "report_type",
  "sentiment_score",
  "operation_advice",
  "action",
  "action_label",
  "analysis_count",
  "last_analysis_time",
  "model_used",
  "market_phase_summary",
  "asset_type",
];

const analyze = (body: Record<string, unknown>): Promise<Made> => analyzeRecord(server.baseUrl, body);

function api(pathAndQuery: string, init?: RequestInit) {
  return fetch(`${server.baseUrl}/api/v1/history${pathAndQuery}`, init);
}

async function getJson(pathAndQuery: string, status = 200): Promise<unknown> {
  const res = await api(pathAndQuery);
  expect(res.status, pathAndQuery).toBe(status);
  return res.json();
}

async function list(query: string) {
  return ZHistoryListResponse.parse(await getJson(`?${query}`));
}

function del(pathAndQuery: string, body?: unknown) {
  return api(pathAndQuery, {
    method: "DELETE",
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

const cloneRecord = (sourceId: number, overrides: Record<string, unknown>) =>
  cloneRecordInto(database, sourceId, overrides);
const addNews = (historyId: number, items: { title: string; snippet: string; url: string }[]) =>
  addNewsTo(database, historyId, items);

async function newsCount(historyId: number): Promise<number> {
  return (await database.get<{ n: number }>("SELECT COUNT(*) AS n FROM analysis_news WHERE history_id = ?", historyId))!
    .n;
}

/** Moves a record to another instant for the duration of `work`, then puts it back. */
async function withCreatedAt(changes: [number, string][], work: () => Promise<void>): Promise<void> {
  const write = (at: string, id: number) =>
    database.run("UPDATE analysis_history SET created_at = ? WHERE id = ?", at, id);
  const saved: (readonly [number, string])[] = [];
  for (const [id] of changes) {
    saved.push([
      id,
      (await database.get<{ at: string }>("SELECT created_at AS at FROM analysis_history WHERE id = ?", id))!.at,
    ] as const);
  }
  // Prisma's SQLite adapter stores DateTime as ISO text with an explicit offset; PostgreSQL's timestamp (UTC,
  // without zone) takes the same text and drops the +00:00.
  for (const [id, iso] of changes) await write(iso.replace("Z", "+00:00"), id);
  try {
    await work();
  } finally {
    for (const [id, at] of saved) await write(at, id);
  }
}

const ids = (items: { id: number }[]) => items.map((i) => i.id);

beforeAll(async () => {
  server = await startTestServer({ MARKET_DATA_SOURCES: "sample" });
  made.moutai = await analyze({ stock_code: "600519" });
  made.moutaiBrief = await analyze({ stock_code: "600519.SH", report_type: "brief" });
  made.moutaiEn = await analyze({ stock_code: "sh600519", report_language: "en" });
  made.sseIndex = await analyze({ stock_code: "sh000001" });
  made.pingAn = await analyze({ stock_code: "000001" });
  made.apple = await analyze({ stock_code: "AAPL", report_language: "en" });
  database = await openServerDatabase(server);
  // A market review as its task stores it (docs/api.md §7): code MARKET, report_type market_review.
  const reviewId = await cloneRecord(made.sseIndex.id, {
    query_id: "review-task-0001",
    stock_code: "MARKET",
    display_code: "MARKET",
    stock_name: "大盘复盘",
    target_key: "market:cn",
    report_type: "market_review",
    asset_type: null,
    action: null,
  });
  made.review = { id: reviewId, queryId: "review-task-0001" };
  await addNews(made.moutai.id, [
    {
      title: "贵州茅台发布一季度报告",
      snippet:
        "公司一季度营业收入同比增长，净利润保持稳定增长，渠道库存健康，直销占比继续提升，高端白酒需求稳健，分红率维持高位，机构普遍上调全年盈利预测。",
      url: "https://news.example.com/1",
    },
    { title: "白酒板块午后走强", snippet: "短讯", url: "https://news.example.com/2" },
    { title: "茅台批价回升 [快讯]", snippet: "批价 | 回升", url: "https://news.example.com/3" },
  ]);
}, 180_000);

afterAll(async () => {
  await database?.close();
  await server?.stop();
});

describe("GET /api/v1/history (spec 4.3)", () => {
  it("4.3 rule 2: the code filter matches every variant of one stock (600519, 600519.SH, sh600519), newest first", async () => {
    const expected = [made.moutaiEn!.id, made.moutaiBrief!.id, made.moutai!.id];
    for (const code of ["600519", "600519.SH", "sh600519", "SH600519"]) {
      const page = await list(`stock_code=${encodeURIComponent(code)}`);
      expect(page.total, code).toBe(3);
      expect(ids(page.items), code).toEqual(expected);
    }
  });

  it("4.3 rule 2 / 3.1: an index and a stock sharing digits are different targets", async () => {
    expect(ids((await list("stock_code=sh000001")).items)).toEqual([made.sseIndex!.id]);
    expect(ids((await list("stock_code=000001.SH")).items)).toEqual([made.sseIndex!.id]);
    expect(ids((await list("stock_code=000001")).items)).toEqual([made.pingAn!.id]);
    expect((await list("stock_code=MARKET")).total).toBe(1);
    expect((await list("stock_code=688981")).total).toBe(0);
  });

  it("4.3 rule 4: without report_type every type is listed, market reviews included; report_type narrows", async () => {
    const all = await list("limit=100");
    expect(all.total).toBe(7);
    expect(ids(all.items)).toContain(made.review!.id);
    expect(ids((await list("report_type=market_review")).items)).toEqual([made.review!.id]);
    expect(ids((await list("report_type=brief")).items)).toEqual([made.moutaiBrief!.id]);
    expect((await list("report_type=")).total).toBe(7);
  });

  it("4.3: ordering newest first and pagination (page, limit) with a stable total", async () => {
    const items = (await list("limit=100")).items;
    const all = ids(items);
    const newestFirst = [...items].sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id - a.id);
    expect(all).toEqual(ids(newestFirst));
    const first = await list("limit=3&page=1");
    const second = await list("limit=3&page=2");
    const third = await list("limit=3&page=3");
    expect([first.total, second.total, third.total]).toEqual([7, 7, 7]);
    expect([first.page, first.limit, second.page]).toEqual([1, 3, 2]);
    expect([...ids(first.items), ...ids(second.items), ...ids(third.items)]).toEqual(all);
    expect((await list("limit=3&page=9")).items).toEqual([]);
    expect((await list("")).limit).toBe(20);
  });

  it("spec 2.6: every HistoryItem field is present; action_label follows the record's language", async () => {
    const page = await list("limit=100");
    for (const item of page.items) expect(Object.keys(item).sort()).toEqual([...HISTORY_ITEM_FIELDS].sort());
    const byId = new Map(page.items.map((i) => [i.id, i]));
    const zh = byId.get(made.moutai!.id)!;
    const en = byId.get(made.moutaiEn!.id)!;
    expect(zh).toMatchObject({
      stock_code: "600519",
      stock_name: "贵州茅台",
      report_type: "detailed",
      asset_type: "stock",
      region: "cn",
    });
    expect(zh.action_label).toMatch(/^[\u4e00-\u9fff]+$/);
    expect(en.action_label).toMatch(/^[A-Z][a-z]+$/);
    expect(en.stock_name).toBe("Kweichow Moutai"); // spec 2.6 rule 4: the language drives the stock name
    expect(typeof zh.current_price).toBe("number");
    expect(zh.market_phase_summary).toMatchObject({ market: "cn" });
    expect(byId.get(made.sseIndex!.id)).toMatchObject({
      asset_type: "index",
      stock_code: "sh000001",
      stock_name: "上证指数",
    });
    expect(byId.get(made.review!.id)).toMatchObject({
      asset_type: null,
      action: null,
      action_label: null,
      report_type: "market_review",
    });
  });

  it("4.3: start_date/end_date are inclusive service-time-zone (Asia/Shanghai) days", async () => {
    const pingAn = made.pingAn!.id;
    const apple = made.apple!.id;
    const moved: [number, string][] = [
      [pingAn, "2024-05-01T15:59:59.000Z"], // 23:59:59 on 1 May in Shanghai
      [apple, "2024-05-01T16:00:00.000Z"], // 00:00 on 2 May in Shanghai
    ];
    await withCreatedAt(moved, async () => {
      expect(ids((await list("start_date=2024-05-01&end_date=2024-05-01")).items)).toEqual([pingAn]);
      expect(ids((await list("start_date=2024-05-02&end_date=2024-05-02")).items)).toEqual([apple]);
      expect(ids((await list("end_date=2024-05-02")).items)).toEqual([apple, pingAn]);
      expect((await list("start_date=2024-05-03")).total).toBe(5);
      expect(ids((await list("stock_code=000001&start_date=2024-04-30&end_date=2024-05-01")).items)).toEqual([pingAn]);
      // Newest first means by created_at: the two old records now come last.
      expect(ids((await list("limit=100")).items).slice(-2)).toEqual([apple, pingAn]);
    });
  });

  it("4.3 / 7: malformed dates and paging values are 422 validation_error naming the parameter", async () => {
    const cases: [string, string][] = [
      ["start_date=2024-13-01", "start_date"],
      ["start_date=2024/05/01", "start_date"],
      ["end_date=2023-02-29", "end_date"],
      ["end_date=yesterday", "end_date"],
      ["start_date=2024-05-02&end_date=2024-05-01", "end_date"],
      ["page=0", "page"],
      ["page=x", "page"],
      ["limit=0", "limit"],
      ["limit=101", "limit"],
    ];
    for (const [query, field] of cases) {
      const body = (await getJson(`?${query}`, 422)) as { error: string; detail: { loc: unknown[] }[] };
      expect(body.error, query).toBe("validation_error");
      expect(body.detail[0]!.loc, query).toEqual(["query", field]);
    }
  });
});

describe("GET /api/v1/history/stocks (spec 4.3 rule 3)", () => {
  it("4.3 rule 3: one row per stock (variants merged), latest record wins, counts, market reviews excluded", async () => {
    const body = ZStockBarResponse.parse(await getJson("/stocks"));
    expect(body.total).toBe(4);
    expect(ids(body.items)).toEqual([made.apple!.id, made.pingAn!.id, made.sseIndex!.id, made.moutaiEn!.id]);
    for (const item of body.items) expect(Object.keys(item).sort()).toEqual([...STOCK_BAR_FIELDS].sort());
    const moutai = body.items.find((i) => i.stock_code === "600519")!;
    expect(moutai).toMatchObject({
      id: made.moutaiEn!.id,
      analysis_count: 3,
      stock_name: "Kweichow Moutai",
      asset_type: "stock",
    });
    expect(moutai.action_label).toMatch(/^[A-Z]/); // the latest record is the English one
    expect(body.items.find((i) => i.stock_code === "sh000001")).toMatchObject({
      asset_type: "index",
      analysis_count: 1,
    });
    expect(body.items.map((i) => i.stock_code)).not.toContain("MARKET");
  });

  it("4.3 rule 3: the limit (1-500, default 200) is filled, total counts every stock; dates filter; bad values 422", async () => {
    const limited = ZStockBarResponse.parse(await getJson("/stocks?limit=2"));
    expect(ids(limited.items)).toEqual([made.apple!.id, made.pingAn!.id]);
    expect(limited.total).toBe(4);
    expect(ZStockBarResponse.parse(await getJson("/stocks?start_date=2000-01-01&end_date=2000-01-02"))).toEqual({
      total: 0,
      items: [],
    });
    await withCreatedAt([[made.moutai!.id, "2024-05-01T02:00:00.000Z"]], async () => {
      const may = ZStockBarResponse.parse(await getJson("/stocks?start_date=2024-05-01&end_date=2024-05-01"));
      expect(may.items).toEqual([expect.objectContaining({ id: made.moutai!.id, analysis_count: 1 })]);
    });
    for (const query of ["limit=0", "limit=501", "start_date=2024-02-30"]) await getJson(`/stocks?${query}`, 422);
  });
});

describe("GET /api/v1/history/{record_id} and its parts (spec 4.3)", () => {
  it("4.3: record_id accepts the integer id or the query_id and rebuilds the AnalysisReport", async () => {
    const byId = ZAnalysisReport.parse(await getJson(`/${made.moutai!.id}`));
    const byQueryId = ZAnalysisReport.parse(await getJson(`/${made.moutai!.queryId}`));
    expect(byQueryId).toEqual(byId);
    expect(byId.meta).toMatchObject({
      id: made.moutai!.id,
      query_id: made.moutai!.queryId,
      stock_code: "600519",
      report_language: "zh",
    });
    expect(ZAnalysisReport.parse(await getJson(`/${made.sseIndex!.id}`)).meta).toMatchObject({
      stock_code: "sh000001",
      asset_type: "index",
    });
  });

  it("4.3: an integer form is tried as an id first, then as a query_id", async () => {
    const shadow = await cloneRecord(made.pingAn!.id, { query_id: String(made.moutai!.id) });
    const numericQuery = await cloneRecord(made.pingAn!.id, { query_id: "987654321" });
    try {
      expect(ZAnalysisReport.parse(await getJson(`/${made.moutai!.id}`)).meta.id).toBe(made.moutai!.id);
      expect(ZAnalysisReport.parse(await getJson("/987654321")).meta.id).toBe(numericQuery);
    } finally {
      await database.run("DELETE FROM analysis_history WHERE id IN (?, ?)", shadow, numericQuery);
    }
  });

  it("7: an unknown record is 404 not_found on the report, diagnostics, flow and markdown", async () => {
    for (const suffix of ["", "/diagnostics", "/flow", "/markdown"]) {
      for (const key of ["99999999", "no-such-query-id"]) {
        const body = (await getJson(`/${key}${suffix}`, 404)) as { error: string };
        expect(body.error).toBe("not_found");
      }
    }
  });

  it("4.3 rule 7: literal segments (stocks, by-code) take precedence over {record_id}", async () => {
    const viaId = await cloneRecord(made.pingAn!.id, { query_id: "stocks" });
    try {
      expect(ZStockBarResponse.safeParse(await getJson("/stocks")).success).toBe(true);
      const byCode = await api("/by-code/600519");
      expect(byCode.status).toBe(405); // the by-code route (DELETE only), not a record lookup
      expect(ZAnalysisReport.parse(await getJson(`/${viaId}`)).meta.query_id).toBe("stocks");
    } finally {
      await database.run("DELETE FROM analysis_history WHERE id = ?", viaId);
    }
  });

  it("docs/api.md §5: diagnostics and flow are the ones stored with the run", async () => {
    const diagnostics = ZRunDiagnosticSummary.parse(await getJson(`/${made.moutai!.queryId}/diagnostics`));
    expect(diagnostics).toMatchObject({
      query_id: made.moutai!.queryId,
      components: { llm: { status: "not_configured" } },
    });
    const flow = ZRunFlowSnapshot.parse(await getJson(`/${made.moutai!.id}/flow`));
    expect(flow.stock_code).toBe("600519");
    expect(flow.nodes.length).toBeGreaterThan(2);
  });

  it("4.3 news / spec 8: news in order, limit 1-100, snippets of at most 50 characters; none is still 200", async () => {
    const news = ZNewsIntelResponse.parse(await getJson(`/${made.moutai!.id}/news`));
    expect(news.total).toBe(3);
    expect(news.items.map((n) => n.url)).toEqual([
      "https://news.example.com/1",
      "https://news.example.com/2",
      "https://news.example.com/3",
    ]);
    for (const item of news.items) expect(Array.from(item.snippet).length).toBeLessThanOrEqual(50);
    expect(news.items[0]!.snippet.endsWith("…")).toBe(true);
    const limited = ZNewsIntelResponse.parse(await getJson(`/${made.moutai!.queryId}/news?limit=1`));
    expect([limited.total, limited.items.length]).toEqual([3, 1]);
    expect(ZNewsIntelResponse.parse(await getJson(`/${made.moutaiBrief!.id}/news`))).toEqual({ total: 0, items: [] });
    expect(ZNewsIntelResponse.parse(await getJson("/99999999/news"))).toEqual({ total: 0, items: [] });
    for (const query of ["limit=0", "limit=101", "limit=abc"]) await getJson(`/${made.moutai!.id}/news?${query}`, 422);
  });

  it("the zh record's Markdown is a complete Chinese report with its news links", async () => {
    const { content } = ZMarkdownReportResponse.parse(await getJson(`/${made.moutai!.id}/markdown`));
    expect(content.startsWith("# 贵州茅台 (600519) 分析报告\n")).toBe(true);
    for (const part of [
      "## 核心结论",
      "**操作建议**：",
      "/ 100",
      "## 行情",
      "## 摘要",
      "## 策略点位",
      "## 技术指标",
      "| MA20 |",
      "## 相关新闻",
      "## 风险提示",
      "## 数据来源与模型",
      "样本数据",
      "规则引擎",
      "免责声明",
    ]) {
      expect(content, part).toContain(part);
    }
    expect(content).toContain("- [贵州茅台发布一季度报告](https://news.example.com/1)");
    expect(content).toContain("[茅台批价回升 \\[快讯\\]](https://news.example.com/3)");
  });

  it("an en record's Markdown is English; no news shows the empty-news disclosure", async () => {
    const { content } = ZMarkdownReportResponse.parse(await getJson(`/${made.apple!.queryId}/markdown`));
    expect(content.startsWith("# Apple (AAPL) analysis report\n")).toBe(true);
    for (const part of [
      "## Conclusion",
      "**Action**: ",
      "## Strategy levels",
      "## Indicators",
      "## News",
      "No news evidence",
      "## Risks",
      "Disclaimer:",
    ]) {
      expect(content, part).toContain(part);
    }
    expect(content).not.toMatch(/[\u4e00-\u9fff]/);
  });

  it("7: a record whose report cannot be read gives 500 generation_failed for the Markdown", async () => {
    const broken = await cloneRecord(made.pingAn!.id, { query_id: "broken-report", report_json: "{not json" });
    try {
      const body = (await getJson(`/${broken}/markdown`, 500)) as { error: string };
      expect(body.error).toBe("generation_failed");
      expect(((await getJson(`/${broken}`, 500)) as { error: string }).error).toBe("internal_error");
    } finally {
      await database.run("DELETE FROM analysis_history WHERE id = ?", broken);
    }
  });
});

describe("DELETE /api/v1/history and /by-code/{stock_code} (spec 4.3 rule 1)", () => {
  it("7: an empty record_ids (or no body) is 400 invalid_request; a non-integer id is 422", async () => {
    for (const body of [{ record_ids: [] }, {}, undefined]) {
      const res = await del("", body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(((await res.json()) as { error: string }).error).toBe("invalid_request");
    }
    expect((await del("", { record_ids: ["x"] })).status).toBe(422);
  });

  it("4.3 rule 1: each distinct id is removed once, with its news; unknown ids are ignored", async () => {
    const a = await cloneRecord(made.moutai!.id, { query_id: "delete-me-a" });
    const b = await cloneRecord(made.moutai!.id, { query_id: "delete-me-b" });
    await addNews(a, [{ title: "t", snippet: "s", url: "https://news.example.com/a" }]);
    expect(await newsCount(a)).toBe(1);
    const res = await del("", { record_ids: [a, a, b, 99999999] });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ deleted: 2 });
    expect(await newsCount(a)).toBe(0);
    await getJson(`/${a}`, 404);
    expect(await (await del("", { record_ids: [a] })).json()).toEqual({ deleted: 0 });
  });

  it("7: a blank code is 400 invalid_request", async () => {
    const res = await del("/by-code/%20%20");
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe("invalid_request");
  });

  it("4.3 rule 1: delete by code removes every variant's records and their news; none left gives 0", async () => {
    expect(await (await del("/by-code/688981")).json()).toEqual({ deleted: 0 });
    expect(await newsCount(made.moutai!.id)).toBe(3);
    const res = await del("/by-code/sh600519");
    expect(await res.json()).toEqual({ deleted: 3 });
    expect(await newsCount(made.moutai!.id)).toBe(0);
    expect((await list("stock_code=600519")).total).toBe(0);
    expect((await list("stock_code=sh000001")).total).toBe(1); // other targets untouched
    expect(await (await del("/by-code/600519.SH")).json()).toEqual({ deleted: 0 });
  });

  it("4.3 rule 1 / spec 8: more than 10,000 records of one code go in 10,000-record passes, all of them", async () => {
    const count = 10_050;
    const template = (await database.get("SELECT * FROM analysis_history WHERE id = ?", made.apple!.id))!;
    // Multi-row inserts of 1,000 records (4,000 parameters, within both databases' limits), in one transaction;
    // the first record of each batch (every 1,000th) gets a news item.
    const row = "(?, 'AAPL', ?, ?, 'us', 'stock', 'stock:us:AAPL', 'detailed', 'en', '{}', ?)";
    await database.run("BEGIN");
    try {
      for (let start = 0; start < count; start += 1000) {
        const batch = Array.from({ length: Math.min(1000, count - start) }, (_, k) => start + k);
        await database.run(
          `INSERT INTO analysis_history (query_id, stock_code, display_code, stock_name, market, asset_type, target_key, report_type, report_language, report_json, created_at)
           VALUES ${batch.map(() => row).join(", ")}`,
          ...batch.flatMap((i) => [`bulk-${i}`, template.display_code, template.stock_name, template.created_at]),
        );
        await database.run(
          "INSERT INTO analysis_news (history_id, position, title, snippet, url) SELECT id, 0, 't', 's', 'https://n.example.com' FROM analysis_history WHERE query_id = ?",
          `bulk-${start}`,
        );
      }
      await database.run("COMMIT");
    } catch (error) {
      await database.run("ROLLBACK");
      throw error;
    }
    expect((await list("stock_code=AAPL&limit=1")).total).toBe(count + 1);
    const res = await del("/by-code/aapl");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ deleted: count + 1 });
    expect((await list("stock_code=AAPL")).total).toBe(0);
    const orphans = (await database.get<{ n: number }>(
      "SELECT COUNT(*) AS n FROM analysis_news WHERE history_id NOT IN (SELECT id FROM analysis_history)",
    ))!;
    expect(orphans.n).toBe(0);
  }, 120_000);
});
