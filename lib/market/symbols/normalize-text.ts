// Text normalisation shared by the resolver, the registry and the name index, so that a name typed with
// full-width characters, odd spacing or another case meets the stored spelling.

const WHITESPACE_RUN = /\s+/g;
// Characters that separate words in names but carry no meaning for matching ("Nasdaq-100", "S&P·500").
const KEY_SEPARATORS = /[\s\-_·・]+/g;

/**
 * Canonical surface form of a token: NFKC folds full-width letters, digits and punctuation to ASCII
 * (６００５１９ → 600519, ＳＨ → SH, （） → ()) and the ideographic space to a space; outer space is trimmed
 * and inner runs collapse to one space.
 */
export function normalizeToken(raw: string): string {
  return raw.normalize("NFKC").replace(WHITESPACE_RUN, " ").trim();
}

/** Lookup key for names and aliases: normalised, lower-cased, separators removed. */
export function nameKey(text: string): string {
  return normalizeToken(text).toLowerCase().replace(KEY_SEPARATORS, "");
}
