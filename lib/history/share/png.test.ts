import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/errors/api-error";
import { buildMarkdownReport, type MarkdownNewsItem } from "../markdown";
import type { TAnalysisReport } from "../schemas";
import { storedMarketReview, storedReport } from "@/tests/kits/stored-reports";
import { buildShareCard } from "./card";
import { loadShareFonts } from "./fonts";
import { renderSharePng } from "./png";
import { SharePool } from "./render-pool";
import { WARM_CARD } from "./warm-card";

// Spec 4.3 rule 6: the card as a PNG (real satori + resvg + the shipped font). The pictures are written
// under test-results/ so a reviewer can open them (the Chinese text must show).

const OUT = path.resolve("test-results");
const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

const NEWS: MarkdownNewsItem[] = [
  {
    title: "贵州茅台发布一季度报告：营收同比增长",
    snippet: "渠道库存健康",
    url: "https://news.example.com/1",
    source: "财联社",
    publishedAt: "2026-05-05",
  },
  { title: "白酒板块午后走强，鑫璟昇晟珑鋆等个股活跃", snippet: "短讯", url: "https://news.example.com/2" },
];

function cardOf(report: TAnalysisReport, news: MarkdownNewsItem[] = NEWS) {
  const markdown = buildMarkdownReport({
    report,
    news,
    dataSource: "eastmoney",
    region: "cn",
    volumeRatio: 1.23,
    turnoverRate: 0.45,
  });
  return buildShareCard({ report, markdown });
}

function ihdr(png: Uint8Array): { width: number; height: number } {
  const view = Buffer.from(png);
  expect(view.subarray(12, 16).toString("ascii")).toBe("IHDR");
  return { width: view.readUInt32BE(16), height: view.readUInt32BE(20) };
}

function save(name: string, png: Uint8Array): void {
  fs.mkdirSync(OUT, { recursive: true });
  fs.writeFileSync(path.join(OUT, name), png);
}

describe("share image PNG (spec 4.3 rule 6)", () => {
  it("a Chinese stock report renders as a 1080 px wide PNG as tall as its content (test-results/share-zh.png)", async () => {
    const png = await renderSharePng(cardOf(storedReport("zh")));
    expect([...png.subarray(0, 8)]).toEqual(PNG_MAGIC);
    const { width, height } = ihdr(png);
    expect(width).toBe(1080);
    expect(height).toBeGreaterThan(1500); // header, hero, eight sections: far taller than one screen
    save("share-zh.png", png);
  }, 30_000);

  it("the height follows the content: fewer news items, a shorter picture", async () => {
    const long = ihdr(await renderSharePng(cardOf(storedReport("zh")))).height;
    const short = ihdr(await renderSharePng(cardOf(storedReport("zh"), []))).height;
    expect(short).toBeLessThan(long);
  }, 30_000);

  it("an English report and a market review render too (test-results/share-en.png, share-market-zh.png)", async () => {
    const en = await renderSharePng(
      cardOf(storedReport("en"), [
        { title: "Moutai posts Q1 results", snippet: "", url: "https://news.example.com/b" },
      ]),
    );
    expect(ihdr(en).width).toBe(1080);
    save("share-en.png", en);
    const { report } = await storedMarketReview("zh");
    const review = await renderSharePng(cardOf(report, []));
    expect(ihdr(review).width).toBe(1080);
    save("share-market-zh.png", review);
  }, 30_000);

  it("rendering is deterministic: the same card gives the same bytes", async () => {
    const card = cardOf(storedReport("zh"));
    expect(Buffer.from(await renderSharePng(card)).equals(Buffer.from(await renderSharePng(card)))).toBe(true);
  }, 30_000);

  it("a missing renderer, a thread that fails while drawing, or fonts that cannot be read are 503 share_image_unavailable", async () => {
    const card = cardOf(storedReport("zh"));
    const missing = new SharePool({ size: 1, workerFile: path.join(OUT, "no-such-renderer.mjs") });
    const error = await renderSharePng(card, { pool: missing }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 503, code: "share_image_unavailable" });
    const crashing = new SharePool({
      size: 1,
      workerFile: path.resolve("lib/history/share/test-workers/failing-worker.mjs"),
    });
    await expect(renderSharePng(card, { pool: crashing })).rejects.toMatchObject({
      status: 503,
      code: "share_image_unavailable",
    });
    const noFonts = new SharePool({ size: 1, loadFonts: () => loadShareFonts(path.join(OUT, "no-such-font-dir")) });
    await expect(renderSharePng(card, { pool: noFonts })).rejects.toMatchObject({
      status: 503,
      code: "share_image_unavailable",
    });
    await Promise.all([missing.close(), crashing.close(), noFonts.close()]);
  }, 30_000);

  it("a long report renders whole, and two cards drawn side by side on two threads are the same bytes as drawn alone", async () => {
    const news = Array.from({ length: 8 }, (_, i) => ({
      ...NEWS[i % 2]!,
      title: `${NEWS[i % 2]!.title}（${i + 1}）`,
      url: `https://news.example.com/long-${i}`,
    }));
    const long = cardOf(storedReport("zh"), news);
    const en = cardOf(storedReport("en"), []);
    const alone = [await renderSharePng(long), await renderSharePng(en)];
    const threads = new SharePool({ size: 2 });
    try {
      const together = await Promise.all([
        renderSharePng(long, { pool: threads }),
        renderSharePng(en, { pool: threads }),
      ]);
      expect(ihdr(alone[0]!).height).toBeGreaterThan(3000);
      expect(Buffer.from(together[0]!).equals(Buffer.from(alone[0]!))).toBe(true);
      expect(Buffer.from(together[1]!).equals(Buffer.from(alone[1]!))).toBe(true);
      save("share-zh-long.png", alone[0]!);
    } finally {
      await threads.close();
    }
  }, 60_000);

  it("the start-up warm-up card (every block kind, both scripts and weights) renders", async () => {
    const png = await renderSharePng(WARM_CARD);
    expect(ihdr(png).width).toBe(1080);
    expect(ihdr(png).height).toBeGreaterThan(1000);
  }, 30_000);

  it("fonts are read once and shared; both subsets in two weights, each subset its own family", async () => {
    const first = loadShareFonts();
    expect(loadShareFonts()).toBe(first);
    const fonts = await first;
    expect(fonts.map((f) => `${f.name}/${f.weight}`)).toEqual([
      "sc-latin/400",
      "sc-latin/700",
      "sc-chinese-simplified/400",
      "sc-chinese-simplified/700",
    ]);
    expect(fonts.every((f) => f.data.subarray(0, 4).toString("ascii") === "wOFF")).toBe(true);
  });
});
