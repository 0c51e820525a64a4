import type { PriceColors } from "@/lib/theme/price-colors";
import type { CardBlock, CardListItem, CardSection, CardTile, Light, ShareCard, Tone } from "./card";

// One layout for both outputs: the share card as a tree of boxes with inline styles, in the subset of CSS
// that satori understands (flexbox only, explicit widths). html.ts serialises the tree as an HTML page and
// png.ts hands the same tree to satori, so the page and the picture show the same card. Every container
// states display and flexDirection (satori and browsers default differently), and every text box gets an
// explicit width (satori does not wrap long text inside a flex item otherwise; research/toolchain.md §3).

export type StyleValue = string | number;
export type CardStyle = Record<string, StyleValue>;

export interface CardNode {
  type: "div";
  style: CardStyle;
  /** Either boxes, or exactly one text string. */
  children: CardNode[] | [string];
}

export const CARD_WIDTH = 1080;
const PAD = 48;
const INNER = CARD_WIDTH - 2 * PAD;
const SECTION_PAD = 32;
const SECTION_INNER = INNER - 2 * SECTION_PAD;
const GAP = 16;

// Price colours follow the card's convention: red up and green down in red_up (the A-share way),
// green up and red down in green_up. good/bad (the market temperature) keep their traffic-light meaning.
const RED = "#d92d20";
const GREEN = "#079455";
type ToneColors = Record<Tone, string>;

export function toneColors(colors: PriceColors): ToneColors {
  const [up, down] = colors === "red_up" ? [RED, GREEN] : [GREEN, RED];
  return { up, down, flat: "#475467", neutral: "#101828", good: GREEN, warn: "#dc6803", bad: RED };
}
const LIGHT_COLORS: Record<Light, string> = { green: "#12b76a", yellow: "#fdb022", red: "#f04438" };
const STATUS_COLORS: Record<NonNullable<CardListItem["status"]>, string> = {
  pass: "#12b76a",
  warn: "#f79009",
  fail: "#f04438",
  unknown: "#98a2b3",
};
const MUTED = "#667085";

// Widths include padding and border everywhere (satori's default differs from the browser's).
function box(style: CardStyle, children: CardNode[]): CardNode {
  return { type: "div", style: { boxSizing: "border-box", ...style }, children };
}

function column(style: CardStyle, children: CardNode[]): CardNode {
  return box({ display: "flex", flexDirection: "column", ...style }, children);
}

function row(style: CardStyle, children: CardNode[]): CardNode {
  return box({ display: "flex", flexDirection: "row", ...style }, children);
}

function text(value: string, width: number, style: CardStyle = {}): CardNode {
  return { type: "div", style: { boxSizing: "border-box", width, ...style }, children: [value] };
}

const RULE = "#eaecf0";

/**
 * A row over a 1 px rule. The rule is a box of its own rather than the row's bottom border: satori writes a one-sided
 * border as a stroke inside two clip paths, and a plain box is one rectangle in the SVG; the pixels are the same.
 */
function ruled(width: number, style: CardStyle, children: CardNode[]): CardNode {
  // The row grows to the column's height, so a shorter cell beside a taller one keeps its rule at the bottom.
  return column({ width }, [
    row({ width, flexGrow: 1, ...style }, children),
    box({ width, height: 1, backgroundColor: RULE }, []),
  ]);
}

/** Width of each of n boxes sharing `total` with GAP between them. */
function share(total: number, n: number, gap = GAP): number {
  return Math.floor((total - gap * (n - 1)) / n);
}

function header(card: ShareCard): CardNode {
  const inner = INNER - 2 * 36;
  const badgeWidth = card.badge ? 180 : 0;
  const titleRow: CardNode[] = [
    column({ width: inner - badgeWidth }, [
      text(card.title, inner - badgeWidth, { fontSize: 52, fontWeight: 700, lineHeight: 1.25 }),
      ...(card.subtitle
        ? [text(card.subtitle, inner - badgeWidth, { fontSize: 30, color: "#cbd5e1", marginTop: 4 })]
        : []),
    ]),
  ];
  if (card.badge) {
    titleRow.push(
      row({ width: badgeWidth, justifyContent: "flex-end" }, [
        box(
          {
            display: "flex",
            padding: "6px 18px",
            borderRadius: 999,
            backgroundColor: "#1e3a8a",
            color: "#dbeafe",
            fontSize: 22,
          },
          [{ type: "div", style: {}, children: [card.badge] }],
        ),
      ]),
    );
  }
  const lines: CardNode[] = [
    row({ width: inner, alignItems: "flex-start", justifyContent: "space-between" }, titleRow),
  ];
  if (card.meta) lines.push(text(card.meta, inner, { fontSize: 22, color: "#94a3b8", marginTop: 14 }));
  if (card.marks.length > 0)
    lines.push(
      row(
        { width: inner, flexWrap: "wrap", gap: 12, marginTop: 16 },
        card.marks.map((mark) =>
          box(
            {
              display: "flex",
              padding: "6px 16px",
              borderRadius: 999,
              fontSize: 22,
              ...(mark.tone === "warn"
                ? { backgroundColor: "#fef0c7", color: "#93370d" }
                : { backgroundColor: "#1e293b", color: "#e2e8f0" }),
            },
            [{ type: "div", style: {}, children: [mark.text] }],
          ),
        ),
      ),
    );
  return column({ width: INNER, padding: 36, borderRadius: 20, backgroundColor: "#0f172a", color: "#ffffff" }, lines);
}

function notice(value: string, width: number): CardNode {
  // The 1 px border is the outer box's colour showing round the inner one (for the same reason as `ruled`).
  return column({ width, padding: 1, borderRadius: 10, backgroundColor: "#fedf89" }, [
    column({ width: width - 2, padding: "14px 20px", borderRadius: 9, backgroundColor: "#fffaeb", color: "#93370d" }, [
      text(value, width - 42, { fontSize: 22 }),
    ]),
  ]);
}

function tile(t: CardTile, width: number, big: boolean, light: Light | null, tones: ToneColors): CardNode {
  const pad = big ? 24 : 18;
  const inner = width - 2 * pad;
  const value: CardNode[] = [];
  if (light)
    value.push(
      box({ width: 26, height: 26, borderRadius: 13, backgroundColor: LIGHT_COLORS[light], marginRight: 12 }, []),
    );
  const valueSize = big ? (t.value.length > 12 ? 30 : 40) : t.value.length > 10 ? 24 : 30;
  value.push(
    text(t.value, inner - (light ? 38 : 0), {
      fontSize: valueSize,
      fontWeight: 700,
      lineHeight: 1.25,
      color: tones[t.tone ?? "neutral"],
    }),
  );
  const children: CardNode[] = [
    text(t.label, inner, { fontSize: big ? 22 : 20, color: MUTED }),
    row({ width: inner, alignItems: "center", marginTop: 6 }, value),
  ];
  if (t.note)
    children.push(
      text(t.note, inner, { fontSize: big ? 22 : 20, marginTop: 4, color: t.noteTone ? tones[t.noteTone] : MUTED }),
    );
  return column(
    { width, padding: pad, borderRadius: big ? 16 : 12, backgroundColor: big ? "#ffffff" : "#f8fafc" },
    children,
  );
}

function tiles(list: CardTile[], width: number, big: boolean, tones: ToneColors, light: Light | null = null): CardNode {
  const perRow = Math.min(4, list.length);
  const w = share(width, perRow);
  const rows: CardNode[] = [];
  for (let i = 0; i < list.length; i += perRow) {
    const cells = list.slice(i, i + perRow).map((t, j) => tile(t, w, big, i === 0 && j === 0 ? light : null, tones));
    rows.push(row({ width, gap: GAP, marginTop: i === 0 ? 0 : GAP }, cells));
  }
  return column({ width }, rows);
}

function pairs(list: { label: string; value: string }[], width: number): CardNode {
  const cell = share(width, 2, 24);
  const labelWidth = Math.floor(cell * 0.45);
  const rows: CardNode[] = [];
  for (let i = 0; i < list.length; i += 2) {
    const cells = list
      .slice(i, i + 2)
      .map((p) =>
        ruled(cell, { padding: "8px 0" }, [
          text(p.label, labelWidth, { fontSize: 22, color: MUTED }),
          text(p.value, cell - labelWidth, { fontSize: 22, fontWeight: 700 }),
        ]),
      );
    rows.push(row({ width, gap: 24 }, cells));
  }
  return column({ width }, rows);
}

function listItem(item: CardListItem, width: number): CardNode {
  const marker = item.status
    ? box({ width: 14, height: 14, borderRadius: 7, marginTop: 12, backgroundColor: STATUS_COLORS[item.status] }, [])
    : box(
        {
          width: 8,
          height: 8,
          borderRadius: 4,
          marginTop: 15,
          marginLeft: 3,
          marginRight: 3,
          backgroundColor: "#98a2b3",
        },
        [],
      );
  const body = width - 30;
  const content: CardNode[] = item.label
    ? [
        row({ width: body }, [
          text(item.label, 190, { fontSize: 24, fontWeight: 700, color: "#344054" }),
          text(item.text, body - 190, { fontSize: 24 }),
        ]),
      ]
    : [text(item.text, body, { fontSize: 24 })];
  return row({ width, marginTop: 6 }, [column({ width: 30 }, [marker]), column({ width: body }, content)]);
}

function list(items: CardListItem[], more: string | null, width: number): CardNode {
  const children = items.map((i) => listItem(i, width));
  if (more) children.push(text(more, width, { fontSize: 22, color: MUTED, marginTop: 6, paddingLeft: 30 }));
  return column({ width }, children);
}

function table(headerCells: string[], rows: string[][], width: number): CardNode {
  const n = Math.max(1, headerCells.length);
  const cell = Math.floor(width / n);
  const line = (cells: string[], head: boolean) =>
    ruled(
      width,
      { padding: "8px 0" },
      Array.from({ length: n }, (_, i) =>
        text(cells[i] ?? "", cell - 8, {
          fontSize: head ? 20 : 22,
          color: head ? MUTED : "#101828",
          fontWeight: head ? 400 : 700,
          marginRight: 8,
        }),
      ),
    );
  return column({ width }, [line(headerCells, true), ...rows.map((r) => line(r, false))]);
}

/**
 * Widths of the breadth bar's segments for counts `parts` (none zero): proportional, each at least 2 px so a small
 * count stays visible, summing to exactly `width` (the largest segment takes up the rounding).
 */
export function segmentWidths(parts: readonly number[], width: number): number[] {
  const total = parts.reduce((a, b) => a + b, 0);
  const widths = parts.map((n) => Math.max(2, Math.round((width * n) / total)));
  const largest = widths.indexOf(Math.max(...widths));
  widths[largest]! += width - widths.reduce((a, b) => a + b, 0);
  return widths;
}

function breadth(block: Extract<CardBlock, { kind: "breadth" }>, width: number, tones: ToneColors): CardNode {
  const parts = (
    [
      [block.advancers, tones.up],
      [block.flat, "#d0d5dd"],
      [block.decliners, tones.down],
    ] as [number, string][]
  ).filter(([n]) => n > 0);
  // The bar is boxes whose outer ends are rounded, not a rounded container clipping its segments: no clip path in
  // the SVG, and the HTML page draws the same boxes.
  const widths = segmentWidths(
    parts.map(([n]) => n),
    width,
  );
  const segments =
    parts.length === 0
      ? [box({ width, height: 18, borderRadius: 9, backgroundColor: "#eaecf0" }, [])]
      : parts.map(([, color], i) => {
          const ends: CardStyle = {};
          if (i === 0) Object.assign(ends, { borderTopLeftRadius: 9, borderBottomLeftRadius: 9 });
          if (i === parts.length - 1) Object.assign(ends, { borderTopRightRadius: 9, borderBottomRightRadius: 9 });
          return box({ width: widths[i]!, height: 18, backgroundColor: color, ...ends }, []);
        });
  return column({ width }, [
    row({ width, height: 18 }, segments),
    text(block.caption, width, { fontSize: 22, color: MUTED, marginTop: 8 }),
  ]);
}

function columns(block: Extract<CardBlock, { kind: "columns" }>, width: number, tones: ToneColors): CardNode {
  const w = share(width, block.columns.length, 24);
  return row(
    { width, gap: 24 },
    block.columns.map((c) =>
      column({ width: w }, [
        text(c.title, w, { fontSize: 20, color: MUTED, marginBottom: 4 }),
        ...c.rows.map((r) =>
          ruled(w, { padding: "6px 0", justifyContent: "space-between" }, [
            text(r.label, w - 130, { fontSize: 22 }),
            text(r.value, 130, { fontSize: 22, fontWeight: 700, color: tones[r.tone], textAlign: "right" }),
          ]),
        ),
      ]),
    ),
  );
}

function block(b: CardBlock, width: number, tones: ToneColors): CardNode {
  switch (b.kind) {
    case "text":
      return text(b.text, width, b.strong ? { fontSize: 24, fontWeight: 700, color: "#344054" } : { fontSize: 24 });
    case "notice":
      return notice(b.text, width);
    case "tiles":
      return tiles(b.tiles, width, false, tones);
    case "pairs":
      return pairs(b.pairs, width);
    case "list":
      return list(b.items, b.more, width);
    case "table":
      return table(b.header, b.rows, width);
    case "breadth":
      return breadth(b, width, tones);
    case "columns":
      return columns(b, width, tones);
  }
}

function section(s: CardSection, tones: ToneColors): CardNode {
  const title = row({ width: SECTION_INNER, alignItems: "center" }, [
    box({ width: 6, height: 28, borderRadius: 3, backgroundColor: "#2563eb", marginRight: 14 }, []),
    text(s.title, SECTION_INNER - 20, { fontSize: 30, fontWeight: 700 }),
  ]);
  const blocks = s.blocks.map((b) => column({ width: SECTION_INNER, marginTop: 14 }, [block(b, SECTION_INNER, tones)]));
  return column({ width: INNER, padding: SECTION_PAD, marginTop: 20, borderRadius: 16, backgroundColor: "#ffffff" }, [
    title,
    ...blocks,
  ]);
}

function footer(card: ShareCard): CardNode {
  return column({ width: INNER, marginTop: 24 }, [
    ...card.footer.map((line) => text(line, INNER, { fontSize: 20, color: MUTED })),
    text(card.brand, INNER, { fontSize: 20, color: "#98a2b3", marginTop: 8 }),
  ]);
}

/** The whole card, CARD_WIDTH wide; its height follows the content. */
export function layoutShareCard(card: ShareCard, fontFamily: string): CardNode {
  const tones = toneColors(card.colors);
  const children: CardNode[] = [header(card)];
  for (const n of card.notices) children.push(column({ width: INNER, marginTop: 20 }, [notice(n, INNER)]));
  if (card.hero.length > 0)
    children.push(column({ width: INNER, marginTop: 20 }, [tiles(card.hero, INNER, true, tones, card.light)]));
  children.push(...card.sections.map((s) => section(s, tones)), footer(card));
  return column(
    {
      width: CARD_WIDTH,
      padding: PAD,
      backgroundColor: "#f2f4f7",
      color: "#101828",
      fontFamily,
      fontSize: 24,
      lineHeight: 1.5,
      wordBreak: "break-word",
    },
    children,
  );
}
