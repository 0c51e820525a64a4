import { describe, expect, it } from "vitest";
import { currentPrice, getDailyBars } from "@/lib/market";
import { marketOverview } from "@/lib/market/overview";
import { withTempDatabase } from "@/tests/kits/db/temp-database";
import { createAccount, createTrade } from "@/lib/portfolio/store";
import { resolveSingleTarget } from "@/lib/analysis/request";
import type { AgentStreamEvent } from "./schemas";
import { ToolRecorder, buildAgentTools, TOOL_DISPLAY_NAMES, TOOL_NAMES } from "./tools";
import { runCommand } from "./commands";

// Every tool is a thin call into an existing domain function. On sample data each tool's figures are
// the domain's own figures, and every call is recorded with its start and end.

withTempDatabase("agent-tools", { MARKET_DATA_SOURCES: "sample", REPORT_LANGUAGE: "zh" });

function setup(language: "zh" | "en" = "zh") {
  const events: AgentStreamEvent[] = [];
  const recorder = new ToolRecorder((e) => events.push(e), language);
  const tools = buildAgentTools(recorder);
  const call = async (name: string, input: Record<string, unknown>) => {
    const t = tools[name]!;
    const parsed = (t.inputSchema as { parse: (v: unknown) => unknown }).parse(input);
    return (await t.execute!(parsed as never, { toolCallId: `t-${name}`, messages: [] })) as Record<string, unknown>;
  };
  return { events, recorder, call };
}

const moutai = resolveSingleTarget("600519");

describe("agent tools on sample data", () => {
  it("offers exactly the named tools, each with a display name in both languages", () => {
    const { recorder } = setup();
    expect(Object.keys(buildAgentTools(recorder)).sort()).toEqual([...TOOL_NAMES].sort());
    for (const name of TOOL_NAMES) expect(TOOL_DISPLAY_NAMES[name].zh && TOOL_DISPLAY_NAMES[name].en).toBeTruthy();
  });

  it("get_realtime_quote returns the one price of lib/market and reports start and end", async () => {
    const { call, events, recorder } = setup();
    const out = await call("get_realtime_quote", { code: "贵州茅台" });
    const price = await currentPrice(moutai);
    expect(out).toMatchObject({
      code: "600519",
      name: "贵州茅台",
      price: price.price,
      change_pct: price.change_pct,
      date: price.date,
      source: "sample",
      is_sample_data: true,
    });
    expect(events.map((e) => e.type)).toEqual(["tool_start", "tool_done"]);
    expect(events[1]).toMatchObject({ tool: "get_realtime_quote", display_name: "获取实时行情", success: true });
    expect(recorder.calls[0]).toMatchObject({ tool: "get_realtime_quote", input: { code: "贵州茅台" }, success: true });
  });

  it("get_daily_history returns the cached daily bars of the window", async () => {
    const { call } = setup();
    const out = await call("get_daily_history", { code: "AAPL", days: 30 });
    const bars = (await getDailyBars(resolveSingleTarget("AAPL"), 30)).bars;
    expect(out.count).toBe(30);
    expect((out.bars as { close: number }[]).map((b) => b.close)).toEqual(bars.map((b) => b.close));
    expect(out.period_high).toBe(Math.max(...bars.map((b) => b.high)));
    expect(out.last_date).toBe(bars.at(-1)!.date);
  });

  it("analyze_trend returns the rule engine's indicators, action, score and plan", async () => {
    const { call } = setup("en");
    const out = await call("analyze_trend", { code: "00700" });
    expect(out).toMatchObject({ code: "00700", market: "hk", is_sample_data: true });
    expect(typeof out.score).toBe("number");
    expect(["buy", "add", "hold", "reduce", "sell", "watch", "avoid", "alert"]).toContain(out.action);
    const plan = out.plan as Record<string, number | null>;
    expect(Object.keys(plan)).toEqual(["ideal_buy", "secondary_buy", "stop_loss", "take_profit"]);
    expect((out.ma as Record<string, number>).ma20).toBeGreaterThan(0);
  });

  it("get_market_indices returns the market overview's index quotes and breadth", async () => {
    const { call } = setup();
    const out = await call("get_market_indices", { region: "us" });
    const overview = await marketOverview("us");
    expect((out.indices as { code: string }[]).map((i) => i.code)).toEqual(overview.indices.map((i) => i.display_code));
    expect((out.indices as { price: number | null }[]).map((i) => i.price)).toEqual(
      overview.indices.map((i) => i.quote?.price ?? null),
    );
    expect(out.breadth).toMatchObject({
      advancers: overview.breadth!.advancers,
      decliners: overview.breadth!.decliners,
    });
  });

  it("search_stock_news says so when no news key is configured", async () => {
    const { call } = setup();
    const out = await call("search_stock_news", { code: "600519" });
    expect(out).toMatchObject({ code: "600519", items: [], note: "no news search key configured" });
  });

  it("the stored-report, signal and backtest tools read what an analysis stored", async () => {
    const { call, recorder } = setup();
    const answer = await runCommand("/analyze 600519", recorder);
    expect(answer).toContain("贵州茅台");
    const reports = await call("get_latest_report", { code: "sh600519", limit: 1 });
    expect(reports.count).toBe(1);
    const report = (reports.reports as Record<string, unknown>[])[0]!;
    expect(answer).toContain(`/history/${report.record_id}`);
    expect(report.price).toBe((await currentPrice(moutai)).price);
    // The report's own evidence travels with it (sample data: no record computed, and it says so).
    expect(report.evidence_statement).toMatch(/^示例数据是合成的价格/);
    expect(report.data_quality).toBe("degraded");

    const signals = await call("get_decision_signals", { code: "600519" });
    expect(signals.total).toBeGreaterThanOrEqual(0);
    for (const s of signals.signals as { code: string }[]) expect(s.code).toBe("600519");

    const backtest = await call("get_stock_backtest_summary", { code: "600519" });
    expect(backtest).toMatchObject({ code: "600519", evaluated: false });
  });

  it("get_portfolio returns the snapshot's positions and the risk figures", async () => {
    const account = await createAccount({ name: "Main", market: "cn", base_currency: "CNY" });
    await createTrade({
      account_id: account.id,
      symbol: "600519",
      trade_date: "2026-01-05",
      side: "buy",
      quantity: 100,
      price: 1400,
    });
    const { call } = setup();
    const out = await call("get_portfolio", {});
    const positions = out.positions as { symbol: string; quantity: number; avg_cost: number; last_price: number }[];
    expect(positions).toHaveLength(1);
    expect(positions[0]).toMatchObject({ symbol: "600519", quantity: 100 });
    expect(positions[0]!.last_price).toBe((await currentPrice(moutai)).price);
    expect((out.risk as { top_positions: unknown[] }).top_positions).toHaveLength(1);
  });

  it("a code that cannot be resolved is a failed call with the reason, never a stack", async () => {
    const { call, events, recorder } = setup();
    await expect(call("get_realtime_quote", { code: "510300" })).rejects.toThrow();
    expect(events.at(-1)).toMatchObject({ type: "tool_done", success: false });
    const reason = (recorder.calls[0]!.output as { error: string }).error;
    expect(reason).not.toMatch(/at .*\.ts/);
    expect(reason.length).toBeGreaterThan(5);
  });
});
