import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServiceProcess } from "../../scripts/server-process";
import { startTestServer, type TestServer } from "../setup/api-server";
import { addNews, analyzeRecord, cloneRecord, marketReviewRecord, type MadeRecord } from "../setup/history-records";
import { openServerDatabase, type ServerDatabase } from "../setup/server-database";
import { settledServerLog } from "../setup/server-log";

// Spec 4.3 rules 5 and 6 over HTTP: the share card as HTML and PNG on a real
// server with sample market data; a second server with a small SHARE_IMAGE_MAX_CHARS (413) and a third
// with the PNG renderer turned off (503).

const CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'";
const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const HOSTILE = '<script>alert("share")</script>';

let server: TestServer;
let small: TestServer;
let noRenderer: TestServer;
let database: ServerDatabase;
const made: Record<"moutai" | "apple" | "hostile" | "review" | "small" | "noRenderer", MadeRecord> = {} as never;

function get(base: TestServer, pathAndQuery: string) {
  return fetch(`${base.baseUrl}/api/v1/history${pathAndQuery}`);
}

function pngSize(bytes: Buffer): { width: number; height: number } {
  expect(bytes.subarray(12, 16).toString("ascii")).toBe("IHDR");
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

function expectCommonHeaders(res: Response) {
  expect(res.headers.get("cache-control")).toBe("no-store");
  expect(res.headers.get("x-content-type-options")).toBe("nosniff");
}

beforeAll(async () => {
  [server, small, noRenderer] = await Promise.all([
    // The service's own defaults (startServiceProcess, not startTestServer): its renderer warms up after start.
    startServiceProcess({ MARKET_DATA_SOURCES: "sample" }),
    startTestServer({ MARKET_DATA_SOURCES: "sample", SHARE_IMAGE_MAX_CHARS: "500" }),
    startTestServer({ MARKET_DATA_SOURCES: "sample", SHARE_IMAGE_PNG_ENABLED: "false" }),
  ]);
  made.moutai = await analyzeRecord(server.baseUrl, { stock_code: "600519" });
  made.apple = await analyzeRecord(server.baseUrl, { stock_code: "AAPL", report_language: "en" });
  made.review = await marketReviewRecord(server.baseUrl, { region: "cn", send_notification: false });
  made.small = await analyzeRecord(small.baseUrl, { stock_code: "600519" });
  made.noRenderer = await analyzeRecord(noRenderer.baseUrl, { stock_code: "600519" });
  database = await openServerDatabase(server);
  const hostileId = await cloneRecord(database, made.moutai.id, {
    query_id: "share-hostile-0001",
    stock_name: `茅台${HOSTILE}`,
  });
  made.hostile = { id: hostileId, queryId: "share-hostile-0001" };
  await addNews(database, hostileId, [
    { title: `利好${HOSTILE}`, snippet: "<b>bold</b> & more", url: "https://news.example.com/1" },
    { title: "正常新闻", snippet: "短讯", url: "javascript:alert(1)" },
  ]);
}, 180_000);

afterAll(async () => {
  await database?.close();
  await Promise.all([server?.stop(), small?.stop(), noRenderer?.stop()]);
});

describe("GET /api/v1/history/{record_id}/share-image-html (spec 4.3 rule 5)", () => {
  it("200 text/html with no-store, nosniff and a CSP allowing only data: images and inline styles", async () => {
    const res = await get(server, `/${made.moutai.id}/share-image-html`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(res.headers.get("content-security-policy")).toBe(CSP);
    expectCommonHeaders(res);
    const html = await res.text();
    expect(html.startsWith("<!DOCTYPE html>")).toBe(true);
    expect(html).toContain("贵州茅台");
    expect(html).toContain(">600519<");
  });

  it("deterministic: the same record gives byte-identical pages, by id and by query_id", async () => {
    const first = await (await get(server, `/${made.moutai.id}/share-image-html`)).text();
    const second = await (await get(server, `/${made.moutai.id}/share-image-html`)).text();
    const byQueryId = await (await get(server, `/${made.moutai.queryId}/share-image-html`)).text();
    expect(second).toBe(first);
    expect(byQueryId).toBe(first);
  });

  it("every record text is escaped: a <script> stock name and news title stay text", async () => {
    const html = await (await get(server, `/${made.hostile.id}/share-image-html`)).text();
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<b>/);
    expect(html).not.toContain("javascript:");
    expect(html).toContain("茅台&lt;script&gt;alert(&quot;share&quot;)&lt;/script&gt;");
    expect(html).toContain("利好&lt;script&gt;");
  });

  it("the record's language: an English report gives an English page", async () => {
    const html = await (await get(server, `/${made.apple.id}/share-image-html`)).text();
    expect(html).toContain('<html lang="en">');
    expect(html).toContain(">Action<");
    expect(html).toContain("AAPL");
  });

  it("a market review gets the review card from its stored payload", async () => {
    const report = (await (await get(server, `/${made.review.id}`)).json()) as {
      details: { context_snapshot: { market_review_payload: { title: string } } };
    };
    const html = await (await get(server, `/${made.review.queryId}/share-image-html`)).text();
    expect(html).toContain(report.details.context_snapshot.market_review_payload.title);
    expect(html).toContain(">市场温度<");
    expect(html).toContain(">大盘复盘<");
    expect(html).not.toContain(">核心结论<");
  });

  it("404 not_found for an unknown record", async () => {
    const res = await get(server, "/99999999/share-image-html");
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: "not_found" });
  });

  it("413 share_image_too_large when the Markdown is longer than SHARE_IMAGE_MAX_CHARS", async () => {
    const res = await get(small, `/${made.small.id}/share-image-html`);
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ error: "share_image_too_large", detail: { max_chars: 500 } });
  });
});

/** The server's log lines with this message about this record. */
async function logged(base: TestServer, msg: string, recordId: number): Promise<number> {
  const lines = (await settledServerLog(base)).split("\n").filter((line) => line.startsWith("{"));
  return lines
    .map((line) => JSON.parse(line) as { msg?: string; record_id?: number })
    .filter((entry) => entry.msg === msg && entry.record_id === recordId).length;
}

describe("GET /api/v1/history/{record_id}/share-image (spec 4.3 rule 6)", () => {
  it("SHARE_IMAGE_PRERENDER (on by default): a stored report's PNG is drawn in the background; the request reads it", async () => {
    const deadline = Date.now() + 60_000;
    while (
      (await logged(server, "share image drawn in the background", made.apple.id)) === 0 &&
      Date.now() < deadline
    ) {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(await logged(server, "share image drawn in the background", made.apple.id)).toBe(1);
    const res = await get(server, `/${made.apple.id}/share-image`);
    expect(res.status).toBe(200);
    expect(pngSize(Buffer.from(await res.arrayBuffer())).width).toBe(1080);
    // Drawn once, in the background: the request was a read.
    expect(await logged(server, "share image drawn", made.apple.id)).toBe(1);
  });

  it("200 image/png attachment <code>-report-<id>.png, no-store, nosniff; a PNG 1080 px wide", async () => {
    const res = await get(server, `/${made.moutai.id}/share-image`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="600519-report-${made.moutai.id}.png"`);
    expectCommonHeaders(res);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect([...bytes.subarray(0, 8)]).toEqual(PNG_MAGIC);
    const { width, height } = pngSize(bytes);
    expect(width).toBe(1080);
    expect(height).toBeGreaterThan(1500);
  });

  it("by query_id the file is still named by the record id; the same record gives the same bytes", async () => {
    const a = await get(server, `/${made.moutai.queryId}/share-image`);
    expect(a.headers.get("content-disposition")).toBe(`attachment; filename="600519-report-${made.moutai.id}.png"`);
    const b = await get(server, `/${made.moutai.id}/share-image`);
    expect(Buffer.from(await a.arrayBuffer()).equals(Buffer.from(await b.arrayBuffer()))).toBe(true);
  });

  it("a market review renders its own card (MARKET-report-<id>.png)", async () => {
    const res = await get(server, `/${made.review.id}/share-image`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="MARKET-report-${made.review.id}.png"`);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(pngSize(bytes).width).toBe(1080);
    fs.mkdirSync("test-results", { recursive: true });
    fs.writeFileSync(path.join("test-results", "share-api-market.png"), bytes);
  });

  it("a hostile stock name cannot break the header: the file name stays the safe code", async () => {
    const res = await get(server, `/${made.hostile.id}/share-image`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="600519-report-${made.hostile.id}.png"`);
  });

  it("404 not_found for an unknown record", async () => {
    const res = await get(server, "/no-such-query-id/share-image");
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: "not_found" });
  });

  it("413 share_image_too_large on the server with a small SHARE_IMAGE_MAX_CHARS", async () => {
    const res = await get(small, `/${made.small.id}/share-image`);
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ error: "share_image_too_large" });
  });

  it("SHARE_IMAGE_WARMUP: the renderer warms up in the background after start by default, and not when it is false (every other test server)", async () => {
    const deadline = Date.now() + 60_000;
    let log = await settledServerLog(server);
    while (!log.includes("share image renderer warmed") && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      log = await settledServerLog(server);
    }
    expect(log).toContain("share image renderer warmed");
    // The small server (SHARE_IMAGE_WARMUP=false, as every other test server) has drawn no card: its only share
    // request answered 413 before drawing.
    const smallLog = await settledServerLog(small);
    expect(smallLog).not.toContain("share image renderer warmed");
    expect(smallLog).not.toContain("share image renderer warm-up failed");
  });

  it("503 share_image_unavailable when the renderer is unavailable; the HTML card still works there", async () => {
    const res = await get(noRenderer, `/${made.noRenderer.id}/share-image`);
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ error: "share_image_unavailable" });
    expect((await get(noRenderer, `/${made.noRenderer.id}/share-image-html`)).status).toBe(200);
  });
});
