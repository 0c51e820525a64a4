// Diagnostics, flow snapshots and context snapshots leave the process (API, share images): anything shaped
// like a credential is masked before it is stored. Providers already keep keys out; this is the backstop.
const PATTERNS: [RegExp, string][] = [
  // A key quoted half-masked, as an LLM provider's 401 text does ("sk-abcd1***…***wxyz"): the visible ends are
  // still the key's, and eight plus four characters narrow it down.
  [/[A-Za-z0-9._-]+\*{3,}(?:[A-Za-z0-9._*-]*[A-Za-z0-9_*-])?|\*{3,}[A-Za-z0-9._-]*[A-Za-z0-9_-]/g, "***"],
  [
    /\b(api[_-]?key|apikey|access[_-]?token|token|key|secret|password|passwd|authorization|signature|sig)=([^&\s"']+)/gi,
    "$1=***",
  ],
  [/\bBearer\s+[A-Za-z0-9._~+/=-]{8,}/g, "Bearer ***"],
  [/\b(sk|pk|tvly|rk)-[A-Za-z0-9_-]{8,}/g, "$1-***"],
  [/("?(?:api_?key|apiKey|token|secret|password|authorization)"?\s*:\s*")[^"]*(")/gi, "$1***$2"],
  // An SMTP server that echoes the client's AUTH line echoes the base64 of the user and password.
  [/\b(AUTH\s+(?:PLAIN|LOGIN|XOAUTH2|OAUTHBEARER|CRAM-MD5))\s+[A-Za-z0-9+/=]{4,}/gi, "$1 ***"],
];

export function sanitizeText(text: string): string {
  return PATTERNS.reduce((out, [pattern, replacement]) => out.replace(pattern, replacement), text);
}

const MIN_SECRET_LENGTH = 4;
const BASE64_TOKEN = /[A-Za-z0-9+/]{8,}={0,2}/g;

/**
 * A text from outside (a provider's error, an SMTP reply) with these secrets gone in every form they travel in:
 * as they are, URL-encoded, in base64 (an SMTP AUTH blob holds user and password together), or half-masked; then
 * the credential shapes of sanitizeText. Every error text a provider gives back passes here before it is stored,
 * logged or answered.
 */
export function redactSecretText(text: string, secrets: readonly string[], mask = "***"): string {
  const values = [...new Set(secrets.map((s) => s.trim()).filter((s) => s.length >= MIN_SECRET_LENGTH))];
  const forms = values.flatMap((s) => [s, encodeURIComponent(s)]).sort((a, b) => b.length - a.length);
  let out = text;
  for (const form of forms) out = out.split(form).join(mask);
  if (values.length > 0)
    out = out.replace(BASE64_TOKEN, (token) => {
      const decoded = Buffer.from(token, "base64").toString("latin1");
      return values.some((s) => decoded.includes(s)) ? mask : token;
    });
  return sanitizeText(out).replaceAll("***", mask);
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
