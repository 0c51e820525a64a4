// A read that may hold a page for at most `ms`: past it the caller gets TimeBudgetExceeded and renders without the
// value. The read itself keeps running (it fills the caches for the next render); its late failure is handled.

export class TimeBudgetExceeded extends Error {
  override name = "TimeBudgetExceeded";
}

export function withTimeBudget<T>(
  work: Promise<T>,
  ms: number,
  describe: (ms: number) => string = (m) => `no answer within ${m} ms`,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimeBudgetExceeded(describe(ms))), ms);
  });
  work.catch(() => undefined);
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
