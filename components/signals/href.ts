// The Signals page URL: every filter, the page and the open signal live in the query string, so a view can be
// bookmarked and the server component renders it from the URL alone.

export const SIGNAL_URL_FIELDS = [
  "market",
  "stock_code",
  "action",
  "status",
  "created_from",
  "created_to",
  "holding_only",
  "page",
  "page_size",
  "signal",
] as const;

export type SignalUrlField = (typeof SIGNAL_URL_FIELDS)[number];
export type SignalUrlState = Partial<Record<SignalUrlField, string | number | boolean | null | undefined>>;

const DEFAULTS: Partial<Record<SignalUrlField, string>> = { page: "1", page_size: "20", holding_only: "false" };

export function signalsHref(state: SignalUrlState, changes: SignalUrlState = {}): string {
  const merged = { ...state, ...changes };
  const params = new URLSearchParams();
  for (const field of SIGNAL_URL_FIELDS) {
    const value = merged[field];
    if (value === null || value === undefined || value === "" || value === false) continue;
    const text = String(value);
    if (DEFAULTS[field] === text) continue;
    params.set(field, text);
  }
  const text = params.toString();
  return text ? `/signals?${text}` : "/signals";
}
