import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../setup/api-server";
import { expectKeys, loginCookie, referenceClient, type Call, type Wire } from "./reference-client";

// docs/api.md §12.3: the market-review payload as the reference's client reads it, from the task status and
// from the history detail's context snapshot, for one region and for "both" (per-region `markets`).

const INDEX_KEYS = [
  "code",
  "name",
  "current",
  "change",
  "change_pct",
  "open",
  "high",
  "low",
  "volume",
  "amount",
  "amplitude",
];
const BREADTH_KEYS = [
  "up_count",
  "down_count",
  "flat_count",
  "limit_up_count",
  "limit_down_count",
  "total_amount",
  "turnover_unit",
];
const PAYLOAD_KEYS = [
  "version",
  "kind",
  "region",
  "language",
  "title",
  "generated_at",
  "date",
  "market_scope",
  "market_light",
  "breadth",
  "indices",
  "sectors",
  "news",
  "sections",
];

async function runReview(call: Call, region: string): Promise<{ status: Wire; detail: Wire }> {
  const accepted = await call("POST", "/api/v1/analysis/market-review", { region });
  expect(accepted.status).toBe(202);
  const taskId = accepted.body.task_id as string;
  const deadline = Date.now() + 30_000;
  let status: Wire;
  do {
    await new Promise((r) => setTimeout(r, 200));
    status = (await call("GET", `/api/v1/analysis/status/${taskId}`)).body;
  } while (status.status !== "completed" && status.status !== "failed" && Date.now() < deadline);
  expect(status.status, status.error).toBe("completed");
  const detail = await call("GET", `/api/v1/history/${taskId}`);
  expect(detail.status).toBe(200);
  return { status, detail: detail.body };
}

function expectRegionShape(payload: Wire) {
  expectKeys(payload, PAYLOAD_KEYS);
  expect(payload.kind).toBe("market_review");
  expect(payload.indices.length).toBeGreaterThan(0);
  for (const index of payload.indices) {
    expectKeys(index, INDEX_KEYS);
    expect(typeof index.current).toBe("number");
    // change_pct is a percent, as the client prints it with "%": |x| < 20 on an index day, not a fraction.
    expect(Math.abs(index.change_pct)).toBeLessThan(20);
    expect(index.high).toBeGreaterThanOrEqual(index.low);
  }
  expectKeys(payload.breadth, BREADTH_KEYS);
  expect(payload.breadth.up_count + payload.breadth.down_count + payload.breadth.flat_count).toBe(
    payload.breadth.total,
  );
  // Every section the client renders as a card has a title and some Markdown.
  expect(payload.sections.length).toBeGreaterThan(0);
  for (const section of payload.sections) {
    expectKeys(section, ["key", "title", "markdown"]);
    expect(section.markdown.trim()).not.toBe("");
  }
}

function suite(mode: "auth off" | "auth on") {
  describe(`§12.3 market review payload with ${mode}`, () => {
    let server: TestServer;
    let call: Call;

    beforeAll(async () => {
      server = await startTestServer({
        MARKET_DATA_SOURCES: "sample",
        ...(mode === "auth on" ? { ADMIN_AUTH_ENABLED: "true" } : {}),
      });
      call = referenceClient(server.baseUrl, mode === "auth on" ? await loginCookie(server.baseUrl) : undefined);
    });
    afterAll(() => server?.stop());

    it("one region: indices, breadth and sections at the top, no `markets`; status and history detail serve the same payload", async () => {
      const { status, detail } = await runReview(call, "cn");
      const payload = status.market_review_payload;
      expectRegionShape(payload);
      expect(payload).toMatchObject({ version: 2, region: "cn", market_scope: "cn" });
      expect(payload.markets).toBeUndefined();
      expect(payload.root_title).toBe(payload.title);
      expect(payload.markdown_report).toBe(status.market_review_report);
      // cn has daily limits, so the sample breadth counts them; the turnover is the sample quotes' sum.
      expect(typeof payload.breadth.limit_up_count).toBe("number");
      expect(payload.breadth.turnover_unit).toBe("亿元");
      expect(detail.details.context_snapshot.market_review_payload).toEqual(payload);
      expect(detail.summary.sentiment_score).toBe(payload.market_light.score);
    });

    it("both: per-region payloads under `markets` (cn and us), each with its own indices, breadth and sections", async () => {
      const { status, detail } = await runReview(call, "both");
      const payload = status.market_review_payload;
      expect(payload).toMatchObject({ region: "both", market_scope: "cn,us", indices: [], breadth: null });
      expect(Object.keys(payload.markets)).toEqual(["cn", "us"]);
      for (const region of ["cn", "us"]) {
        const market = payload.markets[region];
        expectRegionShape(market);
        expect(market.region).toBe(region);
        expect(market.title).toMatch(/A股|美股/);
      }
      // US stocks have no daily limit: the counts are null, not zero.
      expect(payload.markets.us.breadth.limit_up_count).toBeNull();
      expect(detail.details.context_snapshot.market_review_payload.markets.us.indices).toEqual(
        payload.markets.us.indices,
      );
    });
  });
}

suite("auth off");
suite("auth on");
