import { SNIPPET_MAX, ZNewsItem, type TNewsItem } from "./types";

// Text, URL and date normalisation shared by the provider parsers.

const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const TITLE_MAX = 200;

/**
 * Cut `text` to at most `max` UTF-16 code units, on a grapheme-cluster boundary (never inside a surrogate
 * pair, an emoji ZWJ sequence or a base+combining mark), ending with "…" when something was cut. Counting
 * code units keeps the limit true however a reader counts characters (code points or JS length).
 */
export function clipText(text: string, max: number = SNIPPET_MAX): string {
  const clean = text.replace(LONE_SURROGATE, "\uFFFD");
  if (clean.length <= max) return clean;
  const budget = max - 1;
  let out = "";
  for (const { segment } of graphemes.segment(clean)) {
    if (out.length + segment.length > budget) break;
    out += segment;
  }
  return `${out.trimEnd()}…`;
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " ", "#39": "'" };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]{2,6}|#39);/gi, (whole, name: string) => {
    const lower = name.toLowerCase();
    if (lower.startsWith("#x") || /^#\d+$/.test(lower)) {
      const code = lower.startsWith("#x") ? parseInt(lower.slice(2), 16) : parseInt(lower.slice(1), 10);
      return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[lower] ?? whole;
  });
}

/** Provider text → plain text: tags removed (Brave wraps matches in <strong>), entities decoded, whitespace folded. */
export function plainText(value: unknown): string {
  if (typeof value !== "string") return "";
  return decodeEntities(value.replace(/<[^>]*>/g, ""))
    .replace(/\s+/g, " ")
    .trim();
}

/** A usable http(s) URL, or null. */
export function httpUrl(value: unknown): string | null {
  if (typeof value !== "string" || value.trim() === "") return null;
  try {
    const url = new URL(value.trim());
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : null;
  } catch {
    return null;
  }
}

export function hostOf(url: string): string {
  try {
    return new URL(url).hostname.replace(/^www\./, "");
  } catch {
    return "";
  }
}

const TRACKING_PARAM = /^(utm_[a-z]+|fbclid|gclid|msclkid|spm|scm|pvid|ref|ref_src)$/i;

/**
 * The de-duplication key of a URL: scheme, "www.", default port, trailing slash, tracking parameters and
 * parameter order do not make a different article. A "#!" fragment is kept (hash-bang sites route on it).
 */
export function urlKey(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url.trim().toLowerCase();
  }
  const host = parsed.hostname.toLowerCase().replace(/^www\./, "");
  const port = parsed.port ? `:${parsed.port}` : "";
  const path = parsed.pathname.replace(/\/+$/, "");
  const params = [...parsed.searchParams.entries()]
    .filter(([name]) => !TRACKING_PARAM.test(name))
    .sort(([a, av], [b, bv]) => (a === b ? (av < bv ? -1 : av > bv ? 1 : 0) : a < b ? -1 : 1));
  const query = params.length > 0 ? `?${new URLSearchParams(params).toString()}` : "";
  const hash = parsed.hash.startsWith("#!") ? parsed.hash : "";
  return `${host}${port}${path}${query}${hash}`;
}

const EARLIEST = Date.UTC(1990, 0, 1);

function isoOf(ms: number): string | null {
  return Number.isFinite(ms) && ms >= EARLIEST ? new Date(ms).toISOString() : null;
}

/** A date text with its own zone (ISO 8601 with Z/offset, RFC 1123) → ISO UTC, or null. */
export function instant(value: unknown): string | null {
  if (typeof value !== "string" || value.trim() === "") return null;
  const text = value.trim();
  // A date without a zone would be read in the server's zone: refuse it here (see naiveUtcInstant).
  if (/^\d{4}-\d{2}-\d{2}T[\d:.]+$/.test(text)) return null;
  return isoOf(Date.parse(text));
}

/** ISO date-time without a zone, read as UTC (Brave's page_age); with a zone, as that zone. */
export function naiveUtcInstant(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const text = value.trim();
  if (/^\d{4}-\d{2}-\d{2}(T[\d:.]+)?$/.test(text))
    return isoOf(Date.parse(text.includes("T") ? `${text}Z` : `${text}T00:00:00Z`));
  return instant(text);
}

/** Bocha's dateLastCrawled: its "Z" means Beijing time, not UTC (per its documentation). */
export function beijingZInstant(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const match = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)Z$/.exec(value.trim());
  return match ? isoOf(Date.parse(`${match[1]}+08:00`)) : naiveUtcInstant(value);
}

/** SerpApi's display date "09/28/2026, 01:53 AM, +0000 UTC" (used when iso_date is missing). */
export function serpApiDate(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const m = /^(\d{2})\/(\d{2})\/(\d{4}), (\d{1,2}):(\d{2}) (AM|PM), ([+-])(\d{2})(\d{2})/.exec(value.trim());
  if (!m) return null;
  const [, mm, dd, yyyy, hh, min, ampm, sign, oh, om] = m as unknown as string[];
  let hour = Number(hh) % 12;
  if (ampm === "PM") hour += 12;
  const offsetMin = (sign === "-" ? -1 : 1) * (Number(oh) * 60 + Number(om));
  return isoOf(Date.UTC(Number(yyyy), Number(mm) - 1, Number(dd), hour, Number(min)) - offsetMin * 60_000);
}

export interface RawNewsFields {
  title: unknown;
  url: unknown;
  snippet?: unknown;
  source?: unknown;
  published_at?: string | null;
}

/** One provider result → a normalised item, or null when it has no title or no usable URL. */
export function newsItem(raw: RawNewsFields): TNewsItem | null {
  const url = httpUrl(raw.url);
  const title = clipText(plainText(raw.title), TITLE_MAX);
  if (!url || title === "") return null;
  const source = plainText(raw.source) || hostOf(url);
  const item = {
    title,
    snippet: clipText(plainText(raw.snippet)),
    url,
    source,
    published_at: raw.published_at ?? null,
  };
  const parsed = ZNewsItem.safeParse(item);
  return parsed.success ? parsed.data : null;
}

export function asObject(value: unknown): Record<string, unknown> | null {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

export function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}
