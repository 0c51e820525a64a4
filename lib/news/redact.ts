import { redactSecretText } from "@/lib/log/sanitize";

// API keys must never reach an error, a diagnostic or a log line. Every reason text leaving lib/news passes
// through here: each configured key is replaced wherever it appears, and the places keys travel in
// (SerpApi's api_key= parameter, Bearer and X-Subscription-Token headers) are masked even for an unknown key.

const MASK = "***";

const PATTERNS: [RegExp, string][] = [
  [/([?&]api_key=)[^&#\s"')]+/gi, `$1${MASK}`],
  [/(bearer\s+)[^\s"',;)]+/gi, `$1${MASK}`],
  [/(x-subscription-token["']?\s*[:=]\s*["']?)[^\s"',;)]+/gi, `$1${MASK}`],
  [/\btvly-[A-Za-z0-9_-]{6,}/g, MASK],
];

export function redactSecrets(text: string, secrets: readonly string[]): string {
  let out = redactSecretText(text, secrets, MASK);
  for (const [pattern, replacement] of PATTERNS) out = out.replace(pattern, replacement);
  return out;
}
