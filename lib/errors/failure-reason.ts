// A failure that names its cause as a code and params, so a UI can word it in its own language while the message
// stays the English text for logs and API clients (an analysis without market data, ...).

export interface FailureReason {
  code: string;
  params: Record<string, string>;
}

/** The reason an error carries in its `reason` field, if any. */
export function failureReasonOf(error: unknown): FailureReason | null {
  if (typeof error !== "object" || error === null || !("reason" in error)) return null;
  const reason = (error as { reason: unknown }).reason;
  if (typeof reason !== "object" || reason === null) return null;
  const { code, params } = reason as { code?: unknown; params?: unknown };
  if (typeof code !== "string") return null;
  const clean: Record<string, string> = {};
  if (typeof params === "object" && params !== null)
    for (const [k, v] of Object.entries(params)) if (typeof v === "string") clean[k] = v;
  return { code, params: clean };
}
