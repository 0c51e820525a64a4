import { now } from "@/lib/clock";
import { NewsKeyRejectedError, NewsProviderError } from "./types";

// Key rotation: calls start at successive keys (spreading free-tier quotas), and a key refused with
// 401/403/429 passes the call on to the next key and is tried last for a while afterwards.

const DEFAULT_COOLDOWN_MS = 10 * 60_000;

export class KeyRing {
  private cursor = 0;
  private readonly coolingUntil = new Map<number, number>();

  constructor(
    readonly keys: readonly string[],
    private readonly cooldownMs = DEFAULT_COOLDOWN_MS,
  ) {}

  get size(): number {
    return this.keys.length;
  }

  /** Key indexes in the order to try them: from the cursor round, keys cooling down after a refusal last. */
  order(): number[] {
    const at = now().getTime();
    const round = this.keys.map((_, i) => (this.cursor + i) % this.keys.length);
    const fresh = round.filter((i) => (this.coolingUntil.get(i) ?? 0) <= at);
    const cooling = round.filter((i) => (this.coolingUntil.get(i) ?? 0) > at);
    return [...fresh, ...cooling];
  }

  succeeded(index: number): void {
    this.coolingUntil.delete(index);
    this.cursor = (index + 1) % this.keys.length;
  }

  refused(index: number): void {
    this.coolingUntil.set(index, now().getTime() + this.cooldownMs);
  }
}

/** Run `work` with one key after another until one is not refused; other failures end the call at once. */
export async function withKeyRotation<T>(
  ring: KeyRing,
  signal: AbortSignal,
  work: (key: string) => Promise<T>,
): Promise<T> {
  const refusals: number[] = [];
  for (const index of ring.order()) {
    if (signal.aborted) throw signal.reason;
    const key = ring.keys[index];
    if (key === undefined) continue;
    try {
      const value = await work(key);
      ring.succeeded(index);
      return value;
    } catch (error) {
      if (!(error instanceof NewsKeyRejectedError)) throw error;
      ring.refused(index);
      refusals.push(error.status);
    }
  }
  throw new NewsProviderError(`all ${ring.size} key(s) refused (HTTP ${refusals.join(", ")})`);
}
