import { ProviderResponseError, TransientProviderError } from "./types";

const BROWSER_UA = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36";

export interface GetOptions {
  signal: AbortSignal;
  headers?: Record<string, string>;
  /** Tencent and Sina answer in GBK. */
  encoding?: "utf-8" | "gbk";
}

/** GET through the global fetch; classifies failures so the chain knows what to retry. */
export async function httpGetText(url: string, options: GetOptions): Promise<string> {
  let response: Response;
  try {
    response = await fetch(url, {
      signal: options.signal,
      headers: { "User-Agent": BROWSER_UA, Accept: "*/*", ...options.headers },
    });
  } catch (error) {
    if (options.signal.aborted) throw options.signal.reason ?? error;
    throw new TransientProviderError(`network error: ${(error as Error).message}`);
  }
  if (response.status >= 500) throw new TransientProviderError(`HTTP ${response.status}`);
  if (!response.ok) throw new ProviderResponseError(`HTTP ${response.status}`);
  const bytes = await response.arrayBuffer();
  return new TextDecoder(options.encoding ?? "utf-8").decode(bytes);
}

export function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new ProviderResponseError(`${what}: body is not JSON`);
  }
}

/** `callback({...});` → the JSON inside; plain JSON passes through. */
export function unwrapJsonp(text: string): string {
  const trimmed = text.trim();
  if (trimmed.startsWith("{") || trimmed.startsWith("[")) return trimmed;
  const match = /^[\w$.]+\(([\s\S]*)\)\s*;?$/.exec(trimmed);
  if (!match) throw new ProviderResponseError("body is neither JSON nor JSONP");
  return match[1] ?? "";
}

/** Numeric text → number; "-", "" and non-numbers → null (0 stays 0). */
export function num(value: unknown): number | null {
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (typeof value !== "string") return null;
  const t = value.trim();
  if (t === "" || t === "-" || t === "--") return null;
  const n = Number(t);
  return Number.isFinite(n) ? n : null;
}
