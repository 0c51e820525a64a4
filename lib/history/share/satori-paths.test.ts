import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import stockSatori from "satori";
import { describe, expect, it } from "vitest";
import { buildMarkdownReport } from "../markdown";
import { storedMarketReview, storedReport } from "../test-records";
import { buildShareCard } from "./card";
import { loadShareFonts, SHARE_FONT_FAMILY } from "./fonts";
import { CARD_WIDTH, layoutShareCard } from "./layout";
import { toSatoriElement } from "./png";
import { fastPathSource, fastSatoriFile, loadSatori, STOCK_ALIGNMENT_MAPS, STOCK_CONTENT_MASK, STOCK_ENGINE_HEAD, STOCK_PATH_WRITER, STOCK_SHAPED_RUN_LOOKUP, STOCK_SHAPED_RUNS, stockSatoriFile, writeFastSatori, writeTenths } from "./satori-paths.mjs";
import { splitCard } from "./strips";
import { WARM_CARD } from "./warm-card";
import { warmReportCards } from "./warm-reports";

// The renderer threads' satori writes glyph outlines with its own coordinate text and leaves out the
// content masks nothing points to; the card's SVG must not change by a byte otherwise.

/** Stock satori's SVG without its content masks (`satori_om-…`) that nothing in it points to. */
function withoutUnusedContentMasks(svg: string): string {
  return svg.replace(/<mask id="(satori_om-[^"]*)">.*?<\/mask>/g, (mask, id: string) => (svg.includes(`url(#${id})`) ? mask : ""));
}

// 2,000 generated values each in the suite; `npm run test:exhaustive` (DSA_EXHAUSTIVE=1) tries 20,000.
const PROPERTY_RUNS = process.env.DSA_EXHAUSTIVE === "1" ? 20_000 : 2_000;

/** satori's own rounding and text of a path coordinate (its module's `nr` inside a template literal). */
const stockText = (value: number) => `${(value < 0 ? -Math.round(-value * 10) : Math.round(value * 10)) / 10}`;

/** writeTenths' text for one value, written at an offset into a buffer that holds other bytes around it. */
function tenthsText(value: number): string {
  const bytes = Buffer.alloc(64, 0x7c);
  const end = writeTenths(bytes, 3, value);
  expect(bytes.subarray(0, 3).toString("latin1")).toBe("|||");
  expect(bytes[end]).toBe(0x7c);
  return bytes.toString("latin1", 3, end);
}

describe("satori's glyph paths written faster, the same SVG", () => {
  it("a coordinate's text is satori's own for every double", () => {
    fc.assert(fc.property(fc.double(), (value) => tenthsText(value) === stockText(value)), { numRuns: PROPERTY_RUNS });
    // Card-sized coordinates, and the halves and near-halves where rounding turns.
    const nearTenths = fc.tuple(fc.integer({ min: -20_000_000, max: 20_000_000 }), fc.constantFrom(0, 0.05, 0.049999, 0.050001, -0.05, 1e-9, -1e-9));
    fc.assert(fc.property(nearTenths, ([tenths, offset]) => {
      const value = tenths / 10 + offset;
      return tenthsText(value) === stockText(value);
    }), { numRuns: PROPERTY_RUNS });
    for (const value of [0, -0, 0.04, -0.04, 0.05, -0.05, 0.25, -3.25, 99_999_999.94, -99_999_999.96, 1e8, 123_456_789.05, 1e21, -1e300, NaN, Infinity, -Infinity]) {
      expect(tenthsText(value), String(value)).toBe(stockText(value));
    }
  });

  it("the install wrote the fast copy beside stock satori, and the renderer threads load it", async () => {
    const stock = fs.readFileSync(stockSatoriFile(), "utf8");
    expect(fastPathSource(stock)).not.toBeNull();
    expect(fs.existsSync(fastSatoriFile())).toBe(true);
    // The copy keeps 4,096 shaped text runs where stock satori keeps 256 (a card shapes some 400).
    const copy = fs.readFileSync(fastSatoriFile(), "utf8");
    expect(stock).toContain(STOCK_SHAPED_RUNS);
    expect(copy).not.toContain(STOCK_SHAPED_RUNS);
    expect(copy).not.toContain(STOCK_ENGINE_HEAD);
    expect(copy).toContain(STOCK_ENGINE_HEAD.replace("getEngine(", "__dsaNewEngine("));
    expect(copy).toContain(STOCK_SHAPED_RUN_LOOKUP.replace("x=", "__dsaShape="));
    STOCK_ALIGNMENT_MAPS.forEach((map, i) => expect(copy).toContain(`(__dsaAlignment${i}??=${map})`));
    expect(copy).toContain("var ld=4096;");
    const loaded = await loadSatori();
    expect(loaded.fastPaths).toBe(true);
    expect(loaded.satori).not.toBe(stockSatori);
    const missing = await loadSatori(path.join(os.tmpdir(), "no-such-satori-copy.mjs"));
    expect(missing).toMatchObject({ fastPaths: false, satori: stockSatori });
    expect(missing.failure).toBeUndefined();
  });

  it("a copy that is there but does not load falls back to stock satori, saying why", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dsa-satori-copy-"));
    try {
      const cut = path.join(dir, "cut-short.mjs");
      fs.writeFileSync(cut, fs.readFileSync(fastSatoriFile(), "utf8").slice(0, 5_000));
      const broken = await loadSatori(cut);
      expect(broken).toMatchObject({ fastPaths: false, satori: stockSatori });
      expect(broken.failure).toMatch(/cut-short\.mjs does not load: /);
      const empty = path.join(dir, "no-default.mjs");
      fs.writeFileSync(empty, "export const satori = 1;\n");
      const wrong = await loadSatori(empty);
      expect(wrong).toMatchObject({ fastPaths: false, satori: stockSatori });
      expect(wrong.failure).toMatch(/no-default\.mjs has no satori function/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("every share card's strips come out as the same SVG, byte for byte, as stock satori draws them", async () => {
    const { satori } = await loadSatori();
    const fonts = await loadShareFonts();
    const news = Array.from({ length: 6 }, (_, i) => ({ title: `白酒板块午后走强，鑫璟昇晟珑鋆等个股活跃（${i + 1}）`, snippet: "短讯", url: `https://news.example.com/${i}` }));
    // Characters the shipped fonts lack (traditional forms, kana, emoji, CJK beyond the BMP), in several text nodes: a
    // kept font engine picks their fallback as a new one does.
    news.push({ title: "港股騰訊控股、ソニー📈😀，𠀀𠀁𪚥", snippet: "騰訊 📈 𠀁", url: "https://news.example.com/x" });
    const report = storedReport("zh");
    const markdown = buildMarkdownReport({ report, news, dataSource: "eastmoney", region: "cn", volumeRatio: 1.23, turnoverRate: 0.45 });
    const review = (await storedMarketReview("en")).report;
    const cards = [
      WARM_CARD,
      buildShareCard({ report, markdown }),
      buildShareCard({ report: review, markdown: buildMarkdownReport({ report: review, news: [], dataSource: "sample", region: "us" }) }),
      ...(await warmReportCards()),
    ];
    let glyphPaths = 0;
    for (const card of cards) {
      for (const strip of splitCard(layoutShareCard(card, SHARE_FONT_FAMILY), 4).map(toSatoriElement)) {
        const expected = await stockSatori(strip as Parameters<typeof stockSatori>[0], { width: CARD_WIDTH, fonts });
        const actual = await satori(strip as Parameters<typeof stockSatori>[0], { width: CARD_WIDTH, fonts });
        expect(expected).toContain('<mask id="satori_om-'); // stock satori writes them; the copy leaves them out
        expect(actual).toBe(withoutUnusedContentMasks(expected));
        glyphPaths += (expected.match(/ d="M[-\d.]+ [-\d.]+[QLC]/g) ?? []).length;
      }
    }
    expect(glyphPaths).toBeGreaterThan(100); // the cards' text really is drawn as outlines, through the replaced writer
  }, 60_000);

  it("content masks something points to are written as stock satori writes them: hidden overflow, a clip path", async () => {
    const { satori } = await loadSatori();
    const fonts = await loadShareFonts();
    const box = (style: Record<string, unknown>, children: unknown = []) => ({ type: "div", key: null, props: { style: { display: "flex", ...style }, children } });
    const text = { type: "div", key: null, props: { style: { fontSize: 24, fontFamily: SHARE_FONT_FAMILY }, children: "收盘 1660.50 (+1.2%) 🎉" } };
    const trees = [
      box({ width: 400, height: 200, backgroundColor: "#fff" }, [
        box({ width: 300, height: 80, overflow: "hidden", borderRadius: 16, padding: 10, backgroundColor: "#eef" }, [box({ width: 500, height: 120, backgroundColor: "#f00", borderRadius: 8 }, [text])]),
        box({ width: 200, height: 60, clipPath: "circle(40px at 50% 50%)", backgroundColor: "#0f0" }, [box({ width: 180, height: 50, overflow: "hidden" }, [text])]),
      ]),
    ];
    for (const tree of trees) {
      const expected = await stockSatori(tree as Parameters<typeof stockSatori>[0], { width: 400, height: 200, fonts });
      const actual = await satori(tree as Parameters<typeof stockSatori>[0], { width: 400, height: 200, fonts });
      expect(expected.match(/mask="url\(#satori_om-/g)?.length ?? 0).toBeGreaterThan(0); // masks really are pointed to here
      expect(actual).toBe(withoutUnusedContentMasks(expected));
    }
  });

  it("a satori whose path writer is not the known one is left alone: nothing written, an older copy removed", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dsa-satori-"));
    try {
      const stock = fs.readFileSync(stockSatoriFile(), "utf8");
      const changed = path.join(dir, "index.js");
      fs.writeFileSync(changed, stock.replace(STOCK_PATH_WRITER, STOCK_PATH_WRITER.replace('i+="Z"', 'i+="z"')));
      expect(writeFastSatori(changed, path.join(dir, "fast.mjs"))).toBe(false);
      expect(fs.existsSync(path.join(dir, "fast.mjs"))).toBe(false);
      // Nor one where any other stock text the copy replaces differs: the shaped-run bound (the copy must not change a
      // bound satori moved), the font-engine method (the kept engines' key must be all it depends on), its shaped-run
      // lookup, the content-mask code, an alignment keyword map (a map built once must be the one satori builds).
      const variants: [string, string, string][] = [
        ["bound", STOCK_SHAPED_RUNS, "var ld=512;"],
        ["engine", STOCK_ENGINE_HEAD, STOCK_ENGINE_HEAD.replace("fontStyle:E=", "fontStretch:X,fontStyle:E=")],
        ["lookup", STOCK_SHAPED_RUN_LOOKUP, STOCK_SHAPED_RUN_LOOKUP.replace("let K=", "const K=")],
        ["mask", STOCK_CONTENT_MASK, STOCK_CONTENT_MASK.replace("borderOnly:!o", "borderOnly:o")],
        ["alignment", STOCK_ALIGNMENT_MAPS[3]!, STOCK_ALIGNMENT_MAPS[3]!.replace("auto:null", 'auto:"auto"')],
      ];
      for (const [name, known, other] of variants) {
        const file = path.join(dir, `${name}.js`);
        fs.writeFileSync(file, stock.replace(known, other));
        expect(writeFastSatori(file, path.join(dir, "fast.mjs")), name).toBe(false);
        fs.rmSync(file);
      }
      const known = path.join(dir, "known.js");
      fs.writeFileSync(known, stock);
      expect(writeFastSatori(known, path.join(dir, "fast.mjs"))).toBe(true);
      expect(fs.readFileSync(path.join(dir, "fast.mjs"), "utf8")).toContain(fastPathSource(stock)!);
      expect(fs.readdirSync(dir).sort()).toEqual(["fast.mjs", "index.js", "known.js"]); // no temporary file left
      // An upgrade to a satori we do not know removes the copy made from the earlier one.
      expect(writeFastSatori(changed, path.join(dir, "fast.mjs"))).toBe(false);
      expect(fs.existsSync(path.join(dir, "fast.mjs"))).toBe(false);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
