/**
 * Monospace for codes that may be Chinese (a market review's region, "A股"): the system monospace fonts, then
 * the page's CJK web font, so the characters never fall through to a missing glyph.
 */
export const MONO_WITH_CJK = {
  fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace, "Noto Sans SC", sans-serif',
} as const;
