import { afterAll, describe, expect, it } from "vitest";
import { ZPaperAccount, ZPaperRecord, ZPaperRunResult } from "@/lib/paper/schemas";
import { startTestServer, type TestServer } from "../setup/api-server";
import { openServerDatabase } from "../setup/server-database";

// Both databases: a session's day row, fills and state are one transaction in each dialect.
// docs/api.md §15: two identical paper accounts over a year of sample sessions with calls on eight stocks. The run of
// the first is cut by kill -9 part way; after a restart its next run finishes the year. Its record must equal, fill
// for fill and day for day, the second account's, run once without a crash: nothing filled twice, nothing lost.

const CODES = ["600519", "000001", "300750", "601318", "000858", "601398", "600900", "600036"];
const ENV = { MARKET_DATA_SOURCES: "sample" };

let server: TestServer | undefined;
afterAll(() => server?.stop());

async function call(method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${server!.baseUrl}${path}`, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

async function sql(statement: string, ...args: unknown[]): Promise<void> {
  const database = await openServerDatabase(server!);
  try {
    await database.run(statement, ...args);
  } finally {
    await database.close();
  }
}

async function record(id: number) {
  return ZPaperRecord.parse(await (await call("GET", `/api/v1/paper/accounts/${id}`)).json());
}

describe("paper accounts after kill -9", () => {
  it("a run killed part way finishes after a restart with the record of an uninterrupted run", async () => {
    server = await startTestServer(ENV);
    const history = (await (await call("GET", "/api/v1/stocks/600519/history?days=260")).json()) as {
      data: { date: string }[];
    };
    const days = history.data.map((b) => b.date);
    const ids: number[] = [];
    for (const name of ["crashed", "reference"]) {
      const res = await call("POST", "/api/v1/paper/accounts", {
        name,
        market: "cn",
        starting_cash: 2_000_000,
        follow: { kind: "codes", codes: CODES },
        sizing: { kind: "equal_weight", max_positions: 4 },
      });
      expect(res.status).toBe(201);
      const id = ZPaperAccount.parse(await res.json()).id;
      ids.push(id);
      await sql(
        "UPDATE paper_account SET created_at = ?, start_session = ? WHERE id = ?",
        `${days[0]}T00:00:00.000+00:00`,
        days[1],
        id,
      );
    }
    // A buy on each stock every 40 sessions, a sell 20 sessions later, staggered by stock.
    for (const [k, code] of CODES.entries()) {
      for (let i = 2 + k * 3; i < days.length - 2; i += 40) {
        for (const [action, at] of [
          ["buy", i],
          ["sell", i + 20],
        ] as const) {
          if (at >= days.length - 1) continue;
          const made = await call("POST", "/api/v1/decision-signals", {
            stock_code: code,
            market: "cn",
            source_type: "manual",
            trigger_source: `crash-${code}-${at}`,
            action,
          });
          expect(made.status).toBe(200);
          const id = ((await made.json()) as { item: { id: number } }).item.id;
          await sql("UPDATE decision_signal SET created_at = ? WHERE id = ?", `${days[at]}T08:00:00.000+00:00`, id);
        }
      }
    }

    // The first account's run, killed once some sessions are written and before all are.
    const [crashed, reference] = ids as [number, number];
    // Watched on the database itself: the walk writes a session in about a millisecond.
    const watch = await openServerDatabase(server);
    const running = call("POST", `/api/v1/paper/accounts/${crashed}/run`).catch(() => null);
    for (;;) {
      const [row] = await watch.all<{ n: number }>("SELECT count(*) AS n FROM paper_day WHERE account_id = ?", crashed);
      if (Number(row!.n) > 0) break;
      await new Promise((r) => setTimeout(r, 1));
    }
    await server.kill();
    await watch.close();
    await running;
    const { dataDir } = server;
    const atCrash = await openServerDatabase(server);
    const partial = await atCrash.all<{ n: number }>(
      "SELECT count(*) AS n FROM paper_day WHERE account_id = ?",
      crashed,
    );
    await atCrash.close();
    server = await startTestServer(ENV, { dataDir });

    const resumed = ZPaperRunResult.parse(await (await call("POST", `/api/v1/paper/accounts/${crashed}/run`)).json());
    const once = ZPaperRunResult.parse(await (await call("POST", `/api/v1/paper/accounts/${reference}/run`)).json());
    expect(once.processed.length).toBeGreaterThan(200);
    const cut = Number(partial[0]!.n);
    expect(cut, "the crash came part way through the year").toBeGreaterThan(0);
    expect(cut).toBeLessThan(once.processed.length);
    // The restart took up where the crash left off: the sessions written before it are not walked again.
    expect(resumed.processed).toEqual(once.processed.slice(cut));

    const [a, b] = [await record(crashed), await record(reference)];
    const strip = (rows: typeof a.fills) => rows.map((f) => ({ ...f, id: 0 }));
    expect(b.fills.length).toBeGreaterThan(20);
    expect(strip(a.fills)).toEqual(strip(b.fills));
    expect(a.days).toEqual(b.days);
    expect(a.account.equity).toBe(b.account.equity);
    // Two servers (the killed one and its restart) and a year walked twice: 17 s alone, past the default 30 s
    // with another PostgreSQL file on the second core.
  }, 90_000);
});
