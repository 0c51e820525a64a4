import { sanitizeText } from "@/lib/log/sanitize";

// How each provider's calls went, per market and dataset, in this process since it started: what the data-source
// status and the data overview show. DSA has no circuit breaker (every call walks the chain in order), so "failing"
// only says that the last calls failed, not that the provider is skipped.

export type HealthDataset = "daily_bars" | "quote" | "fx";
/** A market, or "fx" for exchange rates. */
export type HealthMarket = "cn" | "hk" | "us" | "fx";

export interface HealthCell {
  provider: string;
  market: HealthMarket;
  dataset: HealthDataset;
  successes: number;
  failures: number;
  consecutiveFailures: number;
  lastSuccessAt: string | null;
  lastFailureAt: string | null;
  lastError: string | null;
}

/** Failures in a row after which a provider counts as failing for that market. */
export const FAILING_AFTER = 3;

const holder = globalThis as typeof globalThis & {
  __dsaProviderHealth?: Map<string, HealthCell>;
  __dsaHealthSince?: string;
};
const cells = () => (holder.__dsaProviderHealth ??= new Map());
holder.__dsaHealthSince ??= new Date().toISOString();

/** Since when the calls are counted: this process's start (or the last reset). */
export function healthSince(): string {
  return holder.__dsaHealthSince!;
}

export function recordProviderCall(
  provider: string,
  market: HealthMarket,
  dataset: HealthDataset,
  outcome: { ok: boolean; reason: string | null },
  at: Date = new Date(),
): void {
  const key = `${provider}|${market}|${dataset}`;
  const cell = cells().get(key) ?? {
    provider,
    market,
    dataset,
    successes: 0,
    failures: 0,
    consecutiveFailures: 0,
    lastSuccessAt: null,
    lastFailureAt: null,
    lastError: null,
  };
  if (outcome.ok) {
    cell.successes += 1;
    cell.consecutiveFailures = 0;
    cell.lastSuccessAt = at.toISOString();
  } else {
    cell.failures += 1;
    cell.consecutiveFailures += 1;
    cell.lastFailureAt = at.toISOString();
    // Provider texts can quote URLs with keys: masked, and cut to one short line.
    cell.lastError = sanitizeText(outcome.reason ?? "failed").slice(0, 200);
  }
  cells().set(key, cell);
}

export function providerHealth(): HealthCell[] {
  return [...cells().values()].map((cell) => ({ ...cell }));
}

/** ok: the last call succeeded or fewer than FAILING_AFTER failed in a row; failing; unknown: never called. */
export function healthState(cell: HealthCell | undefined): "ok" | "failing" | "unknown" {
  if (!cell || cell.successes + cell.failures === 0) return "unknown";
  return cell.consecutiveFailures >= FAILING_AFTER ? "failing" : "ok";
}

export function resetProviderHealthForTests(): void {
  cells().clear();
  holder.__dsaHealthSince = new Date().toISOString();
}
