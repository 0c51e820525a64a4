import { formatPct, formatPrice } from "@/lib/analysis/engine/language";
import { reviewMarkets } from "@/lib/market-review/rules";
import { ZMarketReviewPayload, type TMarketReviewPayload, type TReviewMarket } from "@/lib/market-review/schemas";
import { storedPayloadOf } from "@/lib/market-review/stored-payload";
import { priceColorsForLanguage, type PriceColors } from "@/lib/theme/price-colors";
import { MARKDOWN_TEXT } from "../markdown";
import type { TAnalysisReport } from "../schemas";
import {
  parseMarkdownDocument,
  type MarkdownBlock,
  type MarkdownDocument,
  type MarkdownSection,
} from "./markdown-blocks";

// The share card's content (spec 4.3 rules 5 and 6): what one poster shows, as data.
// The HTML page and the PNG are both drawn from this model by the same layout (layout.ts), so the two
// cannot drift. Built from the Markdown report plus the stored structured payload: the structured parts
// (action, score, price, levels; a market review's payload) give the headline figures, the Markdown gives
// the sections in the record's language. Nothing is inferred: a missing value hides its tile.

export type Lang = "zh" | "en";
/** up/down take the card's price colours (ShareCard.colors) in layout.ts: red up in red_up, green up in green_up. */
export type Tone = "up" | "down" | "flat" | "neutral" | "good" | "warn" | "bad";
export type Light = "green" | "yellow" | "red";

export interface CardTile {
  label: string;
  value: string;
  tone?: Tone;
  /** Smaller text under the value (a change, a label). */
  note?: string | null;
  noteTone?: Tone;
}

export interface CardListItem {
  label: string | null;
  text: string;
  status: "pass" | "warn" | "fail" | "unknown" | null;
}

export type CardBlock =
  | { kind: "text"; text: string; strong?: boolean }
  | { kind: "notice"; text: string }
  | { kind: "tiles"; tiles: CardTile[] }
  | { kind: "pairs"; pairs: { label: string; value: string }[] }
  | { kind: "list"; items: CardListItem[]; more: string | null }
  | { kind: "table"; header: string[]; rows: string[][] }
  | { kind: "breadth"; advancers: number; flat: number; decliners: number; caption: string }
  | { kind: "columns"; columns: { title: string; rows: { label: string; value: string; tone: Tone }[] }[] };

export interface CardMark {
  text: string;
  tone: "warn" | "info";
}

export interface CardSection {
  title: string;
  blocks: CardBlock[];
}

export interface ShareCard {
  lang: Lang;
  /** The price colour convention: asked for by the request, else the report language's (zh red up, en green up). */
  colors: PriceColors;
  variant: "stock" | "market";
  title: string;
  subtitle: string | null;
  badge: string | null;
  meta: string | null;
  /** Marks in the header: sample data, stale data (warn) and the price's source and date (info). */
  marks: CardMark[];
  notices: string[];
  /** Market reviews: the traffic light of the market temperature. */
  light: Light | null;
  hero: CardTile[];
  sections: CardSection[];
  footer: string[];
  brand: string;
}

export interface ShareCardInput {
  report: TAnalysisReport;
  markdown: string;
  /** The caller's convention (the UI passes the user's); absent: the report language decides. */
  colors?: PriceColors;
}

const CARD_TEXT = {
  zh: {
    brand: "DSA 智能股票分析",
    record: "记录",
    more: (n: number) => `另有 ${n} 条`,
    temperature: "市场温度",
    outlook: "展望",
    avgChange: (label: string) => `${label}指数均值`,
    indices: "主要指数",
    breadth: "涨跌家数",
    breadthCaption: (a: number, f: number, d: number) => `上涨 ${a} · 平盘 ${f} · 下跌 ${d}`,
    advancePct: (pct: string) => `上涨占比 ${pct}`,
    limits: (up: number, down: number) => `涨停 ${up} · 跌停 ${down}`,
    leaders: "领涨板块",
    laggards: "领跌板块",
    summary: "摘要",
    plan: "策略",
    risks: "风险提示",
    news: "相关新闻",
    reviewTitle: "大盘复盘",
    sampleMark: "示例数据 · 非真实行情",
    staleMark: (date: string) => `数据截至 ${date}（已过期）`,
    priceMark: (source: string, date: string, live: boolean) => `价格 ${source} · ${date}${live ? " 实时" : " 收盘"}`,
  },
  en: {
    brand: "DSA stock analysis",
    record: "Record",
    more: (n: number) => `+${n} more`,
    temperature: "Temperature",
    outlook: "Outlook",
    avgChange: (label: string) => `${label} avg. index`,
    indices: "Main indices",
    breadth: "Breadth",
    breadthCaption: (a: number, f: number, d: number) => `${a} up · ${f} flat · ${d} down`,
    advancePct: (pct: string) => `${pct} advancing`,
    limits: (up: number, down: number) => `limit up ${up} · limit down ${down}`,
    leaders: "Leading sectors",
    laggards: "Lagging sectors",
    summary: "Summary",
    plan: "Plan",
    risks: "Risks",
    news: "News",
    reviewTitle: "Market review",
    sampleMark: "Sample data · not real prices",
    staleMark: (date: string) => `Data end ${date} (stale)`,
    priceMark: (source: string, date: string, live: boolean) => `Price ${source} · ${date}${live ? " live" : " close"}`,
  },
} as const;

/** The news list of a stock card, the indices per market and the lists of a review card stay short. */
export const CARD_LIMITS = { news: 5, indices: 4, sectors: 3, reviewRisks: 3, reviewNews: 3 } as const;

const DASH = "—";

function toneOf(value: number | null | undefined): Tone {
  if (value === null || value === undefined || value === 0) return "flat";
  return value > 0 ? "up" : "down";
}

const ACTION_TONES: Record<string, Tone> = {
  buy: "up",
  add: "up",
  hold: "neutral",
  watch: "neutral",
  alert: "warn",
  reduce: "down",
  sell: "down",
  avoid: "down",
};

/** The requested convention, else the report language's default: share images are fetched without the UI's cookie. */
function cardColors(input: ShareCardInput, lang: Lang): PriceColors {
  return input.colors ?? priceColorsForLanguage(lang);
}

function brandLine(report: TAnalysisReport, lang: Lang): string {
  const t = CARD_TEXT[lang];
  const id = report.meta.id === null ? "" : ` #${report.meta.id}`;
  return `${t.brand} · ${t.record}${id}`;
}

function metaAndNotices(doc: MarkdownDocument): { meta: string | null; notices: string[] } {
  const quotes = doc.preamble
    .filter((b): b is Extract<MarkdownBlock, { kind: "quote" }> => b.kind === "quote")
    .map((b) => b.text);
  return { meta: quotes[0] ?? null, notices: quotes.slice(1) };
}

// ---- Markdown sections to card sections ----

function tableBlock(header: string[], rows: string[][]): CardBlock {
  if (rows.length === 1 && header.length >= 2 && header.length <= 4) {
    return { kind: "tiles", tiles: header.map((label, i) => ({ label, value: rows[0]![i] || DASH })) };
  }
  if (header.length === 2)
    return { kind: "pairs", pairs: rows.map((r) => ({ label: r[0] ?? "", value: r[1] || DASH })) };
  return { kind: "table", header, rows };
}

function cardBlocks(blocks: MarkdownBlock[], listLimit: number | null, lang: Lang): CardBlock[] {
  const out: CardBlock[] = [];
  for (const block of blocks) {
    switch (block.kind) {
      case "paragraph":
        if (block.text) out.push({ kind: "text", text: block.text });
        break;
      case "heading":
        out.push({ kind: "text", text: block.text, strong: true });
        break;
      case "quote":
        if (block.text) out.push({ kind: "notice", text: block.text });
        break;
      case "table":
        out.push(tableBlock(block.header, block.rows));
        break;
      case "list": {
        const shown = listLimit === null ? block.items : block.items.slice(0, listLimit);
        const hidden = block.items.length - shown.length;
        out.push({ kind: "list", items: shown, more: hidden > 0 ? CARD_TEXT[lang].more(hidden) : null });
        break;
      }
      case "rule":
        break;
    }
  }
  return out;
}

// ---- stock card ----

function stockHero(report: TAnalysisReport, lang: Lang): CardTile[] {
  const t = MARKDOWN_TEXT[lang];
  const { summary, meta } = report;
  const tiles: CardTile[] = [];
  const action = summary.action_label ?? summary.action;
  if (action) tiles.push({ label: t.action, value: action, tone: ACTION_TONES[summary.action ?? ""] ?? "neutral" });
  if (summary.sentiment_score !== null) {
    tiles.push({
      label: t.score,
      value: `${summary.sentiment_score}`,
      note: summary.sentiment_label ? `/ 100 · ${summary.sentiment_label}` : "/ 100",
    });
  }
  if (meta.current_price !== null) {
    tiles.push({
      label: t.price,
      value: formatPrice(meta.current_price),
      tone: toneOf(meta.change_pct),
      note: meta.change_pct === null ? null : formatPct(meta.change_pct),
      noteTone: toneOf(meta.change_pct),
    });
  }
  if (summary.trend_prediction) tiles.push({ label: t.trend, value: summary.trend_prediction });
  return tiles;
}

function stockSections(doc: MarkdownDocument, lang: Lang): CardSection[] {
  const t = MARKDOWN_TEXT[lang];
  const inHero = new Set<string>([t.action, t.score, t.trend]);
  const sections: CardSection[] = [];
  for (const section of doc.sections) {
    let blocks = section.blocks;
    if (section.title === t.conclusion) {
      // Action, score and trend are the hero tiles; the conclusion keeps advice and position advice.
      blocks = blocks.map((b) =>
        b.kind === "list" ? { ...b, items: b.items.filter((i) => !i.label || !inHero.has(i.label)) } : b,
      );
      blocks = blocks.filter((b) => b.kind !== "list" || b.items.length > 0);
    }
    const card = cardBlocks(blocks, section.title === t.news ? CARD_LIMITS.news : null, lang);
    if (card.length > 0) sections.push({ title: section.title, blocks: card });
  }
  return sections;
}

/**
 * The header's marks: whether any number shown comes from sample data, whether the bars are stale, and the price's
 * source and date, from the report's own data quality and as-of (records stored before them have what they kept).
 */
function stockMarks(report: TAnalysisReport, lang: Lang): CardMark[] {
  const t = CARD_TEXT[lang];
  const quality = report.details.data_quality;
  const snapshot = report.details.context_snapshot ?? {};
  const codes = new Set(quality?.reasons.map((r) => r.code) ?? []);
  const marks: CardMark[] = [];
  if (codes.has("sample_data") || snapshot.is_sample_data === true) marks.push({ text: t.sampleMark, tone: "warn" });
  if (codes.has("stale_bars") && quality?.last_bar_date)
    marks.push({ text: t.staleMark(quality.last_bar_date), tone: "warn" });
  const asOf = snapshot.as_of as { date?: unknown; live?: unknown; basis?: unknown } | undefined;
  const quoteSource = (snapshot.quote as { source?: unknown } | null | undefined)?.source;
  const barsSource = quality?.source ?? (typeof snapshot.data_source === "string" ? snapshot.data_source : null);
  const source = asOf?.basis === "quote" && typeof quoteSource === "string" ? quoteSource : barsSource;
  if (source && typeof asOf?.date === "string") {
    const live = typeof asOf.live === "boolean" ? asOf.live : asOf.basis === "quote";
    marks.push({ text: t.priceMark(source, asOf.date, live), tone: "info" });
  }
  return marks;
}

function stockCard(input: ShareCardInput, doc: MarkdownDocument, lang: Lang): ShareCard {
  const { report } = input;
  const t = MARKDOWN_TEXT[lang];
  const name = report.meta.stock_name?.trim();
  return {
    lang,
    colors: cardColors(input, lang),
    variant: "stock",
    title: name || report.meta.stock_code,
    subtitle: name ? report.meta.stock_code : null,
    badge: t.reportTypes[report.meta.report_type] ?? report.meta.report_type,
    ...metaAndNotices(doc),
    marks: stockMarks(report, lang),
    light: null,
    hero: stockHero(report, lang),
    sections: stockSections(doc, lang),
    footer: doc.footer,
    brand: brandLine(report, lang),
  };
}

// ---- market review card ----

/** The stored market review payload, when it is a valid one of the current version. */
export function storedReviewPayload(report: TAnalysisReport): TMarketReviewPayload | null {
  const parsed = ZMarketReviewPayload.safeParse(
    storedPayloadOf(report.details.context_snapshot, report.details.raw_result),
  );
  return parsed.success ? parsed.data : null;
}

function pctOrDash(value: number | null): string {
  return value === null ? DASH : formatPct(value);
}

function marketSection(market: TReviewMarket, lang: Lang): CardSection {
  const t = CARD_TEXT[lang];
  const blocks: CardBlock[] = [];
  const indices = market.indices.slice(0, CARD_LIMITS.indices);
  if (indices.length > 0) {
    blocks.push({
      kind: "tiles",
      tiles: indices.map((i) => ({
        label: i.name,
        value: i.current === null ? DASH : formatPrice(i.current),
        tone: toneOf(i.change_pct),
        note: pctOrDash(i.change_pct),
        noteTone: toneOf(i.change_pct),
      })),
    });
  }
  const b = market.breadth;
  if (b) {
    const parts = [t.breadthCaption(b.up_count, b.flat_count, b.down_count)];
    if (b.advance_pct !== null) parts.push(t.advancePct(`${b.advance_pct.toFixed(1)}%`));
    if (b.limit_up_count !== null && b.limit_down_count !== null)
      parts.push(t.limits(b.limit_up_count, b.limit_down_count));
    blocks.push({
      kind: "breadth",
      advancers: b.up_count,
      flat: b.flat_count,
      decliners: b.down_count,
      caption: parts.join(" · "),
    });
  } else if (market.breadth_note) {
    blocks.push({ kind: "notice", text: market.breadth_note });
  }
  if (market.sectors && (market.sectors.top.length > 0 || market.sectors.bottom.length > 0)) {
    const rows = (list: typeof market.sectors.top) =>
      list
        .slice(0, CARD_LIMITS.sectors)
        .map((s) => ({ label: s.name, value: formatPct(s.change_pct), tone: toneOf(s.change_pct) }));
    blocks.push({
      kind: "columns",
      columns: [
        { title: t.leaders, rows: rows(market.sectors.top) },
        { title: t.laggards, rows: rows(market.sectors.bottom) },
      ],
    });
  } else if (market.sectors_note) {
    blocks.push({ kind: "notice", text: market.sectors_note });
  }
  const title = market.date ? `${market.label} · ${market.date}` : market.label;
  return { title, blocks };
}

function limitedList(items: string[], limit: number, lang: Lang): CardBlock {
  const shown = items.slice(0, limit);
  const hidden = items.length - shown.length;
  return {
    kind: "list",
    items: shown.map((text) => ({ label: null, text, status: null })),
    more: hidden > 0 ? CARD_TEXT[lang].more(hidden) : null,
  };
}

function reviewCard(
  input: ShareCardInput,
  doc: MarkdownDocument,
  payload: TMarketReviewPayload,
  lang: Lang,
): ShareCard {
  const t = CARD_TEXT[lang];
  const temp = payload.market_light;
  const markets = reviewMarkets(payload);
  const hero: CardTile[] = [
    {
      label: t.temperature,
      value: temp.score === null ? DASH : `${temp.score}`,
      tone:
        temp.light === "green" ? "good" : temp.light === "yellow" ? "warn" : temp.light === "red" ? "bad" : "neutral",
      note: temp.label ? `/ 100 · ${temp.label}` : "/ 100",
    },
    { label: t.outlook, value: payload.outlook.label },
    ...markets.map((m) => ({
      label: t.avgChange(m.label),
      value: pctOrDash(m.index_stats.avg_change_pct),
      tone: toneOf(m.index_stats.avg_change_pct),
    })),
  ];
  const sections: CardSection[] = [{ title: t.summary, blocks: [{ kind: "text", text: payload.summary }] }];
  sections.push(...markets.map((m) => marketSection(m, lang)));
  sections.push({ title: t.plan, blocks: [{ kind: "text", text: payload.outlook.text }] });
  if (payload.risks.length > 0)
    sections.push({ title: t.risks, blocks: [limitedList(payload.risks, CARD_LIMITS.reviewRisks, lang)] });
  if (payload.news.length > 0)
    sections.push({
      title: t.news,
      blocks: [
        limitedList(
          payload.news.map((n) => n.title),
          CARD_LIMITS.reviewNews,
          lang,
        ),
      ],
    });
  const { meta } = metaAndNotices(doc);
  return {
    lang,
    colors: cardColors(input, lang),
    variant: "market",
    title: payload.title,
    subtitle: null,
    badge: MARKDOWN_TEXT[lang].reportTypes.market_review ?? null,
    meta,
    marks: [],
    notices: payload.sample_notice ? [payload.sample_notice] : [],
    light: temp.light,
    hero: hero.slice(0, 4),
    sections,
    footer: [payload.disclaimer],
    brand: brandLine(input.report, lang),
  };
}

/** A review stored without a valid payload (older records): its own header, the Markdown sections below. */
function reviewCardFromMarkdown(input: ShareCardInput, doc: MarkdownDocument, lang: Lang): ShareCard {
  const { meta, notices } = metaAndNotices(doc);
  const sections = doc.sections
    .map((s: MarkdownSection) => ({ title: s.title, blocks: cardBlocks(s.blocks, null, lang) }))
    .filter((s) => s.blocks.length > 0);
  return {
    lang,
    colors: cardColors(input, lang),
    variant: "market",
    title: doc.title ?? CARD_TEXT[lang].reviewTitle,
    subtitle: null,
    badge: MARKDOWN_TEXT[lang].reportTypes.market_review ?? null,
    meta,
    marks: [],
    notices,
    light: null,
    hero: [],
    sections,
    footer: doc.footer,
    brand: brandLine(input.report, lang),
  };
}

export function isMarketReview(report: TAnalysisReport): boolean {
  return report.meta.report_type === "market_review";
}

/** The card of one record: a market review gets the review layout, every other record the stock layout. */
export function buildShareCard(input: ShareCardInput): ShareCard {
  const lang: Lang = input.report.meta.report_language === "en" ? "en" : "zh";
  const doc = parseMarkdownDocument(input.markdown);
  if (!isMarketReview(input.report)) return stockCard(input, doc, lang);
  const payload = storedReviewPayload(input.report);
  return payload ? reviewCard(input, doc, payload, lang) : reviewCardFromMarkdown(input, doc, lang);
}
