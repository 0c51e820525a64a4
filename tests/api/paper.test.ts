import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ZPaperAccount, ZPaperRecord, ZPaperRunResult } from "@/lib/paper/schemas";
import { startReceiver, type Receiver } from "@/tests/kits/notify-receiver";
import { startTestServer, type TestServer } from "../setup/api-server";
import { openServerDatabase } from "../setup/server-database";

// Both databases: each session is written once, guarded by a unique key and the account's last session.
// docs/api.md §15 over HTTP on the sample provider: an A-share paper account following the watchlist, made 31 sessions ago (moved back in
// the database, as only calls made after an account exists count), decision signals made on past evenings (their
// created_at moved back likewise), then one run that walks the 30 sessions. The test works out every fill and the
// final equity itself from the bars the API serves and the rules as docs/api.md words them.

type Bar = { date: string; open: number; high: number; low: number; close: number };

let server: TestServer;
// The notification channels' stand-in: a run that fills tells them (a phone's Web Push among them).
let channel: Receiver;
const r2 = (v: number) => Math.round(v * 100) / 100;
const r4 = (v: number) => Math.round(v * 10_000) / 10_000;

beforeAll(async () => {
  channel = await startReceiver();
  server = await startTestServer({
    MARKET_DATA_SOURCES: "sample",
    STOCK_LIST: "600519,000001",
    CUSTOM_WEBHOOK_URLS: `${channel.baseUrl}/hook`,
    OUTBOUND_ALLOW_PRIVATE: "true",
  });
});
afterAll(async () => {
  await server?.stop();
  await channel?.close();
});

async function api(method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${server.baseUrl}${path}`, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

async function json(res: Response, status: number): Promise<unknown> {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  return JSON.parse(text);
}

async function bars(code: string): Promise<Bar[]> {
  const body = (await json(await api("GET", `/api/v1/stocks/${code}/history?days=40`), 200)) as { data: Bar[] };
  return body.data;
}

/** A signal made through the API, then dated to 16:00 Shanghai (after the close) of `date`. */
async function signal(code: string, action: string, date: string, levels: { stop?: number } = {}): Promise<number> {
  const made = (await json(
    await api("POST", "/api/v1/decision-signals", {
      stock_code: code,
      market: "cn",
      source_type: "manual",
      trigger_source: "paper-test",
      action,
      stop_loss: levels.stop ?? null,
    }),
    200,
  )) as { item: { id: number } };
  await sql("UPDATE decision_signal SET created_at = ? WHERE id = ?", `${date}T08:00:00.000+00:00`, made.item.id);
  return made.item.id;
}

async function sql(statement: string, ...args: unknown[]): Promise<void> {
  const database = await openServerDatabase(server);
  try {
    await database.run(statement, ...args);
  } finally {
    await database.close();
  }
}

describe("paper accounts (docs/api.md §15)", () => {
  it("30 sessions: fills at the next open in lots, T+1 before a stop, a sell at the open; equity to the cent", async () => {
    const moutai = await bars("600519");
    const pingan = await bars("000001");
    const days = moutai.slice(-31).map((b) => b.date);
    expect(pingan.slice(-31).map((b) => b.date)).toEqual(days);
    const [d0, sessions] = [days[0]!, days.slice(1)];
    const bar = (list: Bar[], date: string) => list.find((b) => b.date === date)!;

    const created = ZPaperAccount.parse(
      await json(
        await api("POST", "/api/v1/paper/accounts", {
          name: "The watchlist",
          market: "cn",
          starting_cash: 1_000_000,
          follow: { kind: "watchlist" },
          sizing: { kind: "equal_weight", max_positions: 2 },
        }),
        201,
      ),
    );
    expect(created).toMatchObject({
      currency: "CNY",
      lot_size: 100,
      t_plus_one: true,
      status: "active",
      cash: 1_000_000,
    });
    expect(created.fees).toEqual({
      commission_rate: 0.00025,
      min_commission: 5,
      buy_tax_rate: 0,
      sell_tax_rate: 0.0005,
      slippage_bps: 5,
    });
    await sql(
      "UPDATE paper_account SET created_at = ?, start_session = ? WHERE id = ?",
      `${d0}T00:00:00.000+00:00`,
      sessions[0],
      created.id,
    );

    // Calls: buy 600519 on the evening of session 2 with a stop one cent above the lowest low of sessions 4–12
    // (so it is touched there, never on the buy session 3); buy 000001 on session 7's evening; sell it on session
    // 20's; a call made before the account existed never counts.
    const s = (i: number) => sessions[i - 1]!;
    const lows = sessions.slice(3, 12).map((d) => bar(moutai, d).low);
    const stop = r2(Math.min(...lows) + 0.01);
    const buyA = await signal("600519", "buy", s(2), { stop });
    const buyB = await signal("000001", "buy", s(7));
    const sellB = await signal("000001", "sell", s(20));
    const early = await signal("000001", "buy", d0);
    await sql("UPDATE decision_signal SET created_at = ? WHERE id = ?", `${d0}T00:00:00.000+00:00`, early);

    const run = ZPaperRunResult.parse(await json(await api("POST", `/api/v1/paper/accounts/${created.id}/run`), 200));
    expect(run.processed).toEqual(sessions);

    // The same rules, worked out here session by session: exits at the open, buys at the open (sized on the
    // equity at the previous close), then the stop in the session's range, then the close.
    const slip = 0.0005;
    const buyFees = (n: number) => r2(Math.max(5, n * 0.00025));
    const sellFees = (n: number) => r2(Math.max(5, n * 0.00025) + n * 0.0005);
    type Fill = {
      session: string;
      code: string;
      side: string;
      quantity: number;
      price: number;
      fees: number;
      reason: string;
      signal_id: number;
    };
    const expected: Fill[] = [];
    let cash = 1_000_000;
    let qa = 0;
    let qb = 0;
    let hit: string | null = null;
    let lastA = 0;
    let lastB = 0;
    const sell = (session: string, code: string, quantity: number, raw: number, reason: string, signalId: number) => {
      const price = r4(raw * (1 - slip));
      const notional = r2(quantity * price);
      cash = r2(cash + notional - sellFees(notional));
      expected.push({
        session,
        code,
        side: "sell",
        quantity,
        price,
        fees: sellFees(notional),
        reason,
        signal_id: signalId,
      });
    };
    const buy = (session: string, code: string, open: number, budget: number, signalId: number): number => {
      const price = r4(open * (1 + slip));
      let lots = Math.floor(Math.min(budget, cash) / (price * 100));
      while (lots > 0 && r2(lots * 100 * price) + buyFees(r2(lots * 100 * price)) > cash) lots -= 1;
      const notional = r2(lots * 100 * price);
      cash = r2(cash - notional - buyFees(notional));
      expected.push({
        session,
        code,
        side: "buy",
        quantity: lots * 100,
        price,
        fees: buyFees(notional),
        reason: "buy_call",
        signal_id: signalId,
      });
      return lots * 100;
    };
    for (const d of sessions) {
      const a = bar(moutai, d);
      const b = bar(pingan, d);
      const equityBefore = cash + qa * lastA + qb * lastB;
      if (d === s(21) && qb > 0) {
        sell(d, "000001", qb, b.open, "sell_call", sellB);
        qb = 0;
      }
      if (d === s(3)) qa = buy(d, "600519", a.open, equityBefore / 2, buyA);
      if (d === s(8)) qb = buy(d, "000001", b.open, equityBefore / 2, buyB);
      if (qa > 0 && d > s(3) && a.low <= stop) {
        sell(d, "600519", qa, Math.min(a.open, stop), "stop", buyA);
        qa = 0;
        hit = d;
      }
      lastA = a.close;
      lastB = b.close;
    }
    expect(hit, "the stop is touched in sessions 4–12").not.toBeNull();

    const record = ZPaperRecord.parse(await json(await api("GET", `/api/v1/paper/accounts/${created.id}`), 200));
    expect(record.fills).toEqual(expected.map((e) => expect.objectContaining(e)));
    expect(record.days.map((d) => d.session)).toEqual(sessions);
    expect(record.account.positions).toEqual([]);
    expect(record.account.equity).toBe(cash);
    // The record in figures: the return against the starting cash, each sell a closed trade, the index beside it.
    const sells = expected.filter((f) => f.side === "sell");
    expect(record.stats).toMatchObject({ sessions: 30, return_pct: r2((cash / 1_000_000 - 1) * 100), trades: 2 });
    expect(record.trades.map((t) => [t.code, t.exit_session, t.exit_reason])).toEqual(
      sells.map((f) => [f.code, f.session, f.reason]),
    );
    const index = await bars("000300.SH");
    const base = bar(index, sessions[0]!).close;
    expect(record.benchmark?.points).toEqual(
      record.days.map((d) => ({
        session: d.session,
        value: r2((record.days[0]!.equity * bar(index, d.session).close) / base),
      })),
    );
    expect(record.stats.benchmark_return_pct).toBe(r2((bar(index, s(30)).close / base - 1) * 100));
    // 29 daily excess returns: above the 20 needed to judge, so the verdict follows the interval.
    expect(record.stats.daily_excess?.n).toBe(29);
    const { ci95_low_pct: low, ci95_high_pct: high } = record.stats.daily_excess!;
    expect(record.stats.verdict).toBe(low > 0 ? "edge" : high < 0 ? "adverse" : "no_measurable_edge");
    expect(record.days.at(-1)!.equity).toBe(cash);
    // While 600519 alone was held, each day's equity is the cash plus its shares at that close.
    const shares = expected[0]!.quantity;
    for (const d of sessions.filter((x) => x >= s(3) && x < hit! && x < s(8))) {
      const day = record.days.find((x) => x.session === d)!;
      expect(day.equity, d).toBe(r2(day.cash + shares * bar(moutai, d).close));
    }
    // The run's fills went out as one message, each fill a line, linking the account.
    const deadline = Date.now() + 10_000;
    while (channel.requests.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const notice = channel.requests[0]!.json as { title: string; content: string };
    expect(notice.title).toBe(`模拟盘 ${created.name}：${expected.length} 笔成交`);
    expect(notice.content.split("\n").filter((l) => l.startsWith("- "))).toHaveLength(expected.length);
    expect(notice.content).toContain(`/paper?account=${created.id}`);
  });

  it("two runs at once write each session once; a paused account is skipped; delete removes the record", async () => {
    const made = ZPaperAccount.parse(
      await json(
        await api("POST", "/api/v1/paper/accounts", {
          name: "Race",
          market: "cn",
          starting_cash: 100_000,
          follow: { kind: "watchlist" },
        }),
        201,
      ),
    );
    const list = await bars("600519");
    const days = list.slice(-11).map((b) => b.date);
    await sql(
      "UPDATE paper_account SET created_at = ?, start_session = ? WHERE id = ?",
      `${days[0]}T00:00:00.000+00:00`,
      days[1],
      made.id,
    );
    const runs = await Promise.all(
      [1, 2].map(async () =>
        ZPaperRunResult.parse(await json(await api("POST", `/api/v1/paper/accounts/${made.id}/run`), 200)),
      ),
    );
    const processed = runs.flatMap((r) => r.processed).sort();
    expect(processed).toEqual(days.slice(1));
    const record = ZPaperRecord.parse(await json(await api("GET", `/api/v1/paper/accounts/${made.id}`), 200));
    expect(record.days.map((d) => d.session)).toEqual(days.slice(1));

    await json(await api("PUT", `/api/v1/paper/accounts/${made.id}/status`, { status: "paused" }), 200);
    expect(
      ZPaperRunResult.parse(await json(await api("POST", `/api/v1/paper/accounts/${made.id}/run`), 200)).processed,
    ).toEqual([]);
    await json(await api("DELETE", `/api/v1/paper/accounts/${made.id}`), 200);
    await json(await api("GET", `/api/v1/paper/accounts/${made.id}`), 404);
  });

  it("following a screening strategy: only calls on its candidates, from the run that listed them on", async () => {
    // A stored run of the strategy whose candidates are known: the first built-in strategy with any on sample data.
    const strategies = (await json(await api("GET", "/api/v1/screening/strategies"), 200)) as {
      strategies: { id: string }[];
    };
    let found: { strategy: string; runId: string; code: string } | null = null;
    for (const { id } of strategies.strategies) {
      const run = (await json(
        await api("POST", "/api/v1/screening/screen", { market: "cn", strategy: id, max_results: 5 }),
        200,
      )) as { run_id: string; candidates: { code: string }[] };
      if (run.candidates.length > 0) {
        found = { strategy: id, runId: run.run_id, code: run.candidates[0]!.code };
        break;
      }
    }
    expect(found, "a strategy with a candidate on sample data").not.toBeNull();
    const { strategy, runId, code } = found!;
    const days = (await bars(code)).slice(-12).map((b) => b.date);
    const other = code === "600519" ? "000001" : "600519";
    const made = ZPaperAccount.parse(
      await json(
        await api("POST", "/api/v1/paper/accounts", {
          name: "Screened",
          market: "cn",
          starting_cash: 1_000_000,
          follow: { kind: "screening", strategy },
        }),
        201,
      ),
    );
    await sql(
      "UPDATE paper_account SET created_at = ?, start_session = ? WHERE id = ?",
      `${days[0]}T00:00:00.000+00:00`,
      days[1],
      made.id,
    );
    // The run listed the candidate on the evening of session 3: a buy before that does not count, one after it does,
    // and a buy of a stock it never listed does not.
    await sql("UPDATE screening_run SET created_at = ? WHERE run_id = ?", `${days[3]}T08:00:00.000+00:00`, runId);
    const before = await signal(code, "buy", days[2]!);
    const after = await signal(code, "buy", days[5]!);
    await signal(other, "buy", days[5]!);
    await json(await api("POST", `/api/v1/paper/accounts/${made.id}/run`), 200);
    const record = ZPaperRecord.parse(await json(await api("GET", `/api/v1/paper/accounts/${made.id}`), 200));
    expect(record.fills.map((f) => [f.code, f.session, f.signal_id])).toEqual([[code, days[6], after]]);
    expect(record.fills.map((f) => f.signal_id)).not.toContain(before);
    await json(await api("DELETE", `/api/v1/paper/accounts/${made.id}`), 200);
    const unknown = (await json(
      await api("POST", "/api/v1/paper/accounts", {
        name: "x",
        market: "cn",
        starting_cash: 1000,
        follow: { kind: "screening", strategy: "moonshot" },
      }),
      400,
    )) as { error: string };
    expect(unknown.error).toBe("validation_error");
  });

  it("refuses a code of another market, a bad sizing, and an unknown account", async () => {
    const bad = async (body: unknown, status: number) =>
      json(await api("POST", "/api/v1/paper/accounts", body), status);
    await bad({ name: "x", market: "cn", starting_cash: 1000, follow: { kind: "codes", codes: ["AAPL"] } }, 400);
    await bad(
      {
        name: "x",
        market: "cn",
        starting_cash: 1000,
        follow: { kind: "watchlist" },
        sizing: { kind: "equal_weight", max_positions: 0 },
      },
      422,
    );
    await bad({ name: "x", market: "jp", starting_cash: 1000, follow: { kind: "watchlist" } }, 422);
    await json(await api("POST", "/api/v1/paper/accounts/999999/run"), 404);
  });
});
