import { beforeEach, describe, expect, it } from "vitest";
import { buildMarkdownReport } from "@/lib/history/markdown";
import { storedReport } from "@/tests/kits/stored-reports";
import { buildShareCard } from "./card";
import { cachedSharePng, cardKey, clearSharePngCache } from "./png-cache";
import { warmShareRenderer } from "./png";
import { SharePool } from "./render-pool";

// One render per card content; a changed report is a new image; a failure is not remembered.

function card(language: "zh" | "en") {
  const report = storedReport(language);
  return buildShareCard({
    report,
    markdown: buildMarkdownReport({
      report,
      news: [],
      dataSource: "sample",
      region: "cn",
      volumeRatio: null,
      turnoverRate: null,
    }),
  });
}

beforeEach(() => clearSharePngCache());

describe("share PNG cache", () => {
  it("renders a card once; repeat and concurrent requests get the same bytes", async () => {
    let renders = 0;
    const render = async () => {
      renders += 1;
      await new Promise((r) => setTimeout(r, 20));
      return new Uint8Array([renders]);
    };
    const zh = card("zh");
    const [a, b] = await Promise.all([cachedSharePng(zh, render), cachedSharePng(zh, render)]);
    const c = await cachedSharePng(card("zh"), render);
    expect(renders).toBe(1);
    expect([a[0], b[0], c[0]]).toEqual([1, 1, 1]);
  });

  it("a different card content is a different image", async () => {
    expect(cardKey(card("zh"))).not.toBe(cardKey(card("en")));
    let renders = 0;
    const render = async () => new Uint8Array([++renders]);
    await cachedSharePng(card("zh"), render);
    await cachedSharePng(card("en"), render);
    expect(renders).toBe(2);
  });

  it("a failed render is not cached", async () => {
    const zh = card("zh");
    await expect(cachedSharePng(zh, () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect((await cachedSharePng(zh, async () => new Uint8Array([7])))[0]).toBe(7);
  });

  it("the warm-up starts every renderer thread and never throws", async () => {
    const pool = new SharePool({ size: 2 });
    await warmShareRenderer({ pool });
    expect(pool.running).toBe(2);
    await pool.close();
    await expect(
      warmShareRenderer({ pool: new SharePool({ size: 1, workerFile: "/no/such/renderer.mjs" }) }),
    ).resolves.toBeUndefined();
  }, 30_000);
});
