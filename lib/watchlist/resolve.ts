import { dedupKey, isRejection, resolveToken, type TResolvedSymbol } from "@/lib/market/symbols";
import type { TImportConfidence, TImportItem, TImportResult } from "./schemas";

// One resolution for everything an import reads (file, pasted text, screenshot): each entry goes through the analyze
// token rules (lib/market/symbols), so nothing that does not resolve can reach `codes`.

/** One entry read from the input: a code cell and/or a name cell, or one token of free text. */
export interface Candidate {
  code?: string;
  name?: string;
  /**
   * "column": a column headed code/代码 says the cell is a code; "free": a token that may be a guess; "image": what a
   * model read, so a code the stock list does not know (a misread digit, an invented code) is only a guess.
   */
  source: "column" | "free" | "image";
  /** What was done to the code text before resolving (Excel's dropped leading zeros put back). */
  note?: string;
  /** The text as read, when `code` was changed from it. */
  raw?: string;
}

/** Entry text compared as text (NFKC, trimmed, upper case): for entries that do not resolve. */
export function normalizeWatchToken(text: string): string {
  return text.normalize("NFKC").trim().replace(/\s+/g, " ").toUpperCase();
}

/** The stock list knows it: a registered index, or a stock it has a name for. */
function known(symbol: TResolvedSymbol): boolean {
  return symbol.kind === "index" || symbol.name !== undefined;
}

interface Resolved {
  item: TImportItem;
  /** Identity of the stock or index; absent for a rejected entry. */
  key?: string;
}

function accepted(
  symbol: TResolvedSymbol,
  confidence: TImportConfidence,
  raw: string,
  givenName: string | undefined,
  reasons: string[],
): Resolved {
  const item: TImportItem = { code: symbol.displayCode, confidence, raw };
  const name = symbol.name ?? givenName;
  if (name) item.name = name;
  if (reasons.length > 0) item.reason = reasons.join("; ");
  return { item, key: dedupKey(symbol) };
}

function rejected(raw: string, name: string | undefined, reason: string): Resolved {
  const item: TImportItem = { confidence: "low", raw, reason };
  if (name) item.name = name;
  return { item };
}

/**
 * Why a free-text token that resolved to a stock the list does not know is only a guess, or null: a 1–3 digit number
 * reads as a Hong Kong code (a quantity often does too), and a word in lower or mixed case as a US ticker ("Price").
 */
function guessReason(token: string, symbol: TResolvedSymbol): string | null {
  const text = token.normalize("NFKC").trim();
  if (symbol.market === "hk" && /^\d{1,3}$/.test(text)) {
    return `a bare number: read as the Hong Kong code ${symbol.displayCode}, which the stock list does not know`;
  }
  if (symbol.market === "us" && /^[A-Za-z]+$/.test(text) && text !== text.toUpperCase()) {
    return `"${text}" is not in the stock list; read as the ticker ${symbol.displayCode}`;
  }
  return null;
}

function fromCode(candidate: Candidate, code: string, symbol: TResolvedSymbol, raw: string): Resolved {
  const reasons = candidate.note ? [candidate.note] : [];
  const byName = candidate.name ? resolveToken(candidate.name) : null;
  if (byName && !isRejection(byName) && known(byName) && dedupKey(byName) !== dedupKey(symbol)) {
    reasons.push(
      `the name "${candidate.name}" belongs to ${byName.displayCode}${byName.name ? ` (${byName.name})` : ""}`,
    );
    return accepted(symbol, "medium", raw, candidate.name, reasons);
  }
  if (known(symbol)) return accepted(symbol, "high", raw, candidate.name, reasons);
  const guess =
    candidate.source === "image"
      ? `${symbol.displayCode} is not in the stock list; check it against the image`
      : candidate.source === "column"
        ? null
        : guessReason(code, symbol);
  if (guess) return accepted(symbol, "low", raw, candidate.name, [...reasons, guess]);
  return accepted(symbol, "medium", raw, candidate.name, [
    ...reasons,
    `${symbol.displayCode} is a well-formed code the stock list does not know`,
  ]);
}

function fromName(name: string, raw: string, source: Candidate["source"]): Resolved {
  const symbol = resolveToken(name);
  if (isRejection(symbol)) return rejected(raw, name, symbol.reason);
  if (known(symbol)) return accepted(symbol, "high", raw, undefined, []);
  const guess =
    source === "column"
      ? `"${name}" is not a name the stock list knows; read as the ticker ${symbol.displayCode}`
      : guessReason(name, symbol);
  return guess ? accepted(symbol, "low", raw, undefined, [guess]) : accepted(symbol, "medium", raw, undefined, []);
}

export function resolveCandidate(candidate: Candidate): Resolved {
  const code = candidate.code?.trim() || undefined;
  const name = candidate.name?.trim() || undefined;
  const raw = candidate.raw ?? [code, name].filter(Boolean).join(" ");
  if (!code) return name ? fromName(name, raw, candidate.source) : rejected(raw, undefined, "empty entry");
  const symbol = resolveToken(code);
  if (!isRejection(symbol)) return fromCode({ ...candidate, name }, code, symbol, raw);
  if (name) {
    const byName = resolveToken(name);
    if (!isRejection(byName) && known(byName)) {
      return accepted(byName, "medium", raw, undefined, [
        `the code "${code}" does not read (${symbol.reason}); matched by the name`,
      ]);
    }
  }
  return rejected(raw, name, symbol.reason);
}

const RANK: Record<TImportConfidence, number> = { low: 0, medium: 1, high: 2 };

/**
 * Every candidate resolved, one item per stock or index (a later, surer reading of the same one replaces a guess in
 * place) and one per distinct rejected text, in input order; `codes` are the items that are not guesses.
 */
export function resolveCandidates(candidates: readonly Candidate[]): TImportResult {
  const items: TImportItem[] = [];
  const slotOf = new Map<string, number>();
  for (const candidate of candidates) {
    const { item, key } = resolveCandidate(candidate);
    const identity = key ?? `rejected:${normalizeWatchToken(item.raw ?? "")}`;
    const slot = slotOf.get(identity);
    if (slot === undefined) {
      slotOf.set(identity, items.length);
      items.push(item);
    } else if (RANK[item.confidence] > RANK[items[slot]!.confidence]) {
      items[slot] = item;
    }
  }
  const codes = items.flatMap((item) => (item.code !== undefined && item.confidence !== "low" ? [item.code] : []));
  return { codes, items };
}
