import { redactSecretText } from "@/lib/log/sanitize";

const URL_PATTERN = /\bhttps?:\/\/[^\s"'<>]+/gi;
const MAX_REASON = 500;

/**
 * A failure reason safe to store and log: the channel's secrets (tokens, webhook URLs and their parts) are
 * replaced (also base64-encoded or half-masked), any URL keeps only its origin (webhook paths and queries hold keys),
 * credential-shaped text is masked, and the text is cut to 500 characters.
 */
export function redactReason(reason: string, secrets: readonly string[]): string {
  const out = reason.replace(URL_PATTERN, (url) => `${originOf(url)}/***`);
  return redactSecretText(out, secrets.flatMap(secretForms)).slice(0, MAX_REASON);
}

// A webhook URL leaks through its own text, its encoded form, or its path and query alone.
function secretForms(secret: string): string[] {
  if (secret.trim() === "") return [];
  const forms = [secret, encodeURIComponent(secret)];
  try {
    const url = new URL(secret);
    if (url.pathname.length > 1) forms.push(url.pathname);
    if (url.search) forms.push(url.search.slice(1));
    for (const value of url.searchParams.values()) forms.push(value);
  } catch {
    // not a URL: the plain forms above
  }
  return forms;
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return "[url]";
  }
}
