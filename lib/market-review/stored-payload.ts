function dict(value: unknown): Record<string, unknown> | null {
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

/**
 * The stored payload: the context snapshot's (docs/api.md §12.3, version 2), else the raw result's (version 1
 * records, written before §12.3), served as stored.
 */
export function storedPayloadOf(contextSnapshot: unknown, rawResult: unknown): Record<string, unknown> | null {
  return dict(dict(contextSnapshot)?.market_review_payload) ?? dict(dict(rawResult)?.market_review_payload);
}
