import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadShareFonts } from "./fonts";
import { SharePool } from "./render-pool";

// The renderer threads. Real threads (satori + resvg) for the drawing; a stand-in thread for the
// failures: one that exits mid-card, one that hangs, a worker file that does not exist, fonts that cannot be read.

const FAKE = path.resolve("lib/history/share/test-workers/fake-worker.mjs");
const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const pools: SharePool[] = [];
const pool = (options: ConstructorParameters<typeof SharePool>[0]) => {
  const created = new SharePool(options);
  pools.push(created);
  return created;
};
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

const line = (text: string) => ({
  type: "div",
  key: null,
  props: { style: { display: "flex", fontSize: 24 }, children: text },
});

describe("share renderer threads", () => {
  it("draw each element as a PNG of the asked width, cards side by side on the threads", async () => {
    const threads = pool({ size: 2 });
    const pngs = await Promise.all(
      ["贵州茅台 600519", "Ag", "观望", "+1.23%"].map((text) => threads.render(line(text), 200)),
    );
    for (const png of pngs) {
      expect([...png.subarray(0, 8)]).toEqual(PNG_MAGIC);
      const view = Buffer.from(png);
      expect(view.readUInt32BE(16)).toBe(200);
      expect(view.readUInt32BE(20)).toBeGreaterThan(20);
    }
  }, 60_000);

  it("a thread that exits mid-card fails only that card; the next card gets a new thread", async () => {
    const threads = pool({ size: 1, workerFile: FAKE, loadFonts: async () => [] });
    await expect(threads.render({}, 13)).rejects.toThrow();
    expect((await threads.render({}, 8)).byteLength).toBe(8);
  });

  it("a thread that does not answer in time is stopped and its card fails; the pool goes on", async () => {
    const threads = pool({ size: 1, workerFile: FAKE, loadFonts: async () => [], timeoutMs: 500 });
    await expect(threads.render({}, 14)).rejects.toThrow(/abort/i);
    expect((await threads.render({}, 5)).byteLength).toBe(5);
    // The hung thread was replaced: the new one has served one card.
    expect((await threads.render({ countServed: true }, 1)).byteLength).toBe(2);
  }, 15_000);

  it("a missing worker file and unreadable fonts fail the render; the fonts are read again next time", async () => {
    await expect(pool({ size: 1, workerFile: path.resolve("no-such-worker.mjs") }).render({}, 10)).rejects.toThrow();
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
    await expect(flaky.render({}, 10)).rejects.toThrow("ENOENT font");
    expect((await flaky.render({}, 10)).byteLength).toBe(10);
    expect(reads).toBe(2);
  });

  it("the threads run at a lower CPU priority than the event loop (Linux: each thread's own nice value)", async () => {
    /** Each thread of this process (task id) with its nice value. */
    const niceOf = () =>
      new Map(
        fs.readdirSync("/proc/self/task").map((tid) => {
          // The fields after the command's closing parenthesis; nice is the 19th field of the whole line.
          const stat = fs.readFileSync(`/proc/self/task/${tid}/stat`, "utf8");
          return [tid, Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16])] as const;
        }),
      );
    const before = niceOf();
    const threads = pool({ size: 1, workerFile: FAKE, loadFonts: async () => [] });
    await threads.render({}, 1);
    const started = [...niceOf()].filter(([tid]) => !before.has(tid));
    // The renderer thread (and the threads Node starts for it) run at nice +10; the test's own thread did not move.
    expect(started.some(([, nice]) => nice === 10)).toBe(true);
    expect(niceOf().get(String(process.pid))).toBe(before.get(String(process.pid)));
  });

  it("a closed pool draws nothing", async () => {
    const threads = pool({ size: 1, workerFile: FAKE, loadFonts: async () => [] });
    expect((await threads.render({}, 3)).byteLength).toBe(3);
    await threads.close();
    await expect(threads.render({}, 3)).rejects.toThrow("closed");
  });
});
