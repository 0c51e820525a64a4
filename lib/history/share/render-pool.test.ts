import path from "node:path";
import zlib from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { loadShareFonts } from "./fonts";
import { SharePool } from "./render-pool";

// The renderer threads. Real threads (satori + resvg) for the drawing; a stand-in thread for the
// failures: one that exits mid-job, one that hangs, a worker file that does not exist, fonts that cannot be read.

const FAKE = path.resolve("lib/history/share/test-workers/fake-worker.mjs");
const pools: SharePool[] = [];
const pool = (options: ConstructorParameters<typeof SharePool>[0]) => {
  const created = new SharePool(options);
  pools.push(created);
  return created;
};
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

const line = (text: string) => ({ type: "div", key: null, props: { style: { display: "flex", fontSize: 24 }, children: text } });

describe("share renderer threads", () => {
  it("draw each element on a free thread and answer its PNG scanlines, deflated, in the elements' order", async () => {
    const threads = pool({ size: 2 });
    const strips = await threads.render([line("贵州茅台 600519"), line("Ag"), line("观望"), line("+1.23%")], 200);
    expect(strips).toHaveLength(4);
    for (const strip of strips) {
      expect(strip.width).toBe(200);
      expect(strip.height).toBeGreaterThan(20);
      const scanlines = zlib.inflateRawSync(strip.deflated, { finishFlush: zlib.constants.Z_SYNC_FLUSH });
      expect(scanlines.length).toBe(strip.height * (200 * 3 + 1)); // RGB rows
      expect(strip.length).toBe(scanlines.length);
      // Every row starts with filter type 0, and black text was drawn on white (the element has no background).
      for (let y = 0; y < strip.height; y++) expect(scanlines[y * (200 * 3 + 1)]).toBe(0);
      expect(scanlines[1]).toBe(255);
      expect(scanlines.some((byte) => byte < 64)).toBe(true);
    }
  }, 60_000);

  it("with weights, hands the heaviest elements out first and still answers in the elements' order", async () => {
    const threads = pool({ size: 1, workerFile: FAKE, loadFonts: async () => [] });
    const element = { countServed: true };
    const strips = await threads.render([element, element, element, element], 3, [5, 9, 1, 7]);
    // One thread takes them in the order 9, 7, 5, 1: the second element first, the third last.
    expect(strips.map((strip) => strip.height)).toEqual([3, 1, 4, 2]);
    const unweighted = await threads.render([element, element, element], 3);
    expect(unweighted.map((strip) => strip.height)).toEqual([5, 6, 7]);
  });

  it("a thread that exits mid-job fails only that job; the next job gets a new thread", async () => {
    const threads = pool({ size: 1, workerFile: FAKE, loadFonts: async () => [] });
    await expect(threads.render([{}], 13)).rejects.toThrow(/exited/);
    const [strip] = await threads.render([{}], 8);
    expect(strip).toMatchObject({ width: 8, height: 1 });
  });

  it("a thread that does not answer in time is stopped and its job fails; the pool goes on", async () => {
    // The limit also covers starting the new thread for the next job: generous for a loaded machine.
    const threads = pool({ size: 1, workerFile: FAKE, loadFonts: async () => [], timeoutMs: 1500 });
    await expect(threads.render([{}], 14)).rejects.toThrow(/took over 1500 ms/);
    expect((await threads.render([{}], 5))[0]!.width).toBe(5);
  }, 15_000);

  it("a missing worker file and unreadable fonts fail the render; the fonts are read again next time", async () => {
    await expect(pool({ size: 1, workerFile: path.resolve("no-such-worker.mjs") }).render([{}], 10)).rejects.toThrow();
    let reads = 0;
    const flaky = pool({
      size: 1,
      workerFile: FAKE,
      loadFonts: async () => {
        reads += 1;
        if (reads === 1) throw new Error("ENOENT font");
        return loadShareFonts();
      },
    });
    await expect(flaky.render([{}], 10)).rejects.toThrow("ENOENT font");
    expect((await flaky.render([{}], 10))[0]!.width).toBe(10);
    expect(reads).toBe(2);
  });
});
