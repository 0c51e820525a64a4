// Diagnostics, flow snapshots and context snapshots leave the process (API, share images): anything shaped
// like a credential is masked before it is stored. Providers already keep keys out; this is the backstop.
const PATTERNS: [RegExp, string][] = [
  [
    /\b(api[_-]?key|apikey|access[_-]?token|token|key|secret|password|passwd|authorization|signature|sig)=([^&\s"']+)/gi,
    "$1=***",
  ],
  [/\bBearer\s+[A-Za-z0-9._~+/=-]{8,}/g, "Bearer ***"],
  [/\b(sk|pk|tvly|rk)-[A-Za-z0-9_-]{8,}/g, "$1-***"],
  [/("?(?:api_?key|apiKey|token|secret|password|authorization)"?\s*:\s*")[^"]*(")/gi, "$1***$2"],
];

export function sanitizeText(text: string): string {
  return PATTERNS.reduce((out, [pattern, replacement]) => out.replace(pattern, replacement), text);
}

const SENSITIVE_KEY =
  /^(api_?key|apikey|access_?token|token|secret|password|authorization|cookie|headers?|prompt|messages)$/i;

/** Deep copy with credential-shaped strings masked and secret-named keys dropped. */
export function sanitizeValue<T>(value: T): T {
  return clean(value) as T;
}

function clean(value: unknown): unknown {
  if (typeof value === "string") return sanitizeText(value);
  if (Array.isArray(value)) return value.map(clean);
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      if (SENSITIVE_KEY.test(key)) continue;
      out[key] = clean(inner);
    }
    return out;
  }
  return value;
}
