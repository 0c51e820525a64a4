import fs from "node:fs/promises";
import path from "node:path";

// The share PNG's fonts: Noto Sans SC from the @fontsource/noto-sans-sc package (no system font, no
// network), its `latin` and `chinese-simplified` subsets in two weights (research/toolchain.md §3: about
// 3 MB, no tofu for the rare characters of stock names). Every subset gets its own family name: given one
// shared name, satori would use a single file and draw every other glyph as a box.

export interface ShareFont {
  name: string;
  weight: 400 | 700;
  style: "normal";
  data: Buffer;
}

export const FONT_SUBSETS = ["latin", "chinese-simplified"] as const;
const WEIGHTS = [400, 700] as const;

/** The family list for the card's root style: each subset is its own family, tried in this order. */
export const SHARE_FONT_FAMILY = FONT_SUBSETS.map((s) => `sc-${s}`).join(", ");

export function defaultFontDir(): string {
  return path.join(process.cwd(), "node_modules", "@fontsource", "noto-sans-sc", "files");
}

async function readFonts(dir: string): Promise<ShareFont[]> {
  const jobs = FONT_SUBSETS.flatMap((subset) =>
    WEIGHTS.map(
      async (weight): Promise<ShareFont> => ({
        name: `sc-${subset}`,
        weight,
        style: "normal",
        data: await fs.readFile(path.join(dir, `noto-sans-sc-${subset}-${weight}-normal.woff`)),
      }),
    ),
  );
  return Promise.all(jobs);
}

// Read once per process (globalThis: Next may load this module more than once) and kept; a failed read
// is forgotten, so the next request tries again.
const cache = globalThis as typeof globalThis & { dsaShareFonts?: Map<string, Promise<ShareFont[]>> };

export function loadShareFonts(dir: string = defaultFontDir()): Promise<ShareFont[]> {
  const fonts = (cache.dsaShareFonts ??= new Map());
  let pending = fonts.get(dir);
  if (!pending) {
    pending = readFonts(dir);
    fonts.set(dir, pending);
    pending.catch(() => fonts.delete(dir));
  }
  return pending;
}
