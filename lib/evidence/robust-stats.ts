// Statistics that stay honest on overlapping return windows: a call's 10-day window shares 9 days with the next
// day's, so neighbouring returns are correlated and a naive t overstates the evidence about tenfold in n.
// Newey-West (Bartlett kernel) standard errors and non-overlapping subsets are the two standard answers.

/** Two-sided 95 % normal quantile: the robust intervals are asymptotic, their samples are hundreds of days. */
export const Z95 = 1.959963984540054;

/** Newey-West lags for h-day forward returns: an h-day window overlaps the next h-1 windows; never below 9. */
export function neweyWestLags(horizon: number): number {
  return Math.max(9, horizon - 1);
}

export interface RobustEstimate {
  estimate: number;
  se: number;
  low: number;
  high: number;
  /** estimate / se; null when se is 0 (a constant series). */
  t: number | null;
}

function estimateOf(estimate: number, se: number): RobustEstimate {
  return { estimate, se, low: estimate - Z95 * se, high: estimate + Z95 * se, t: se > 0 ? estimate / se : null };
}

/** The mean of a time series with its Newey-West standard error (long-run variance with Bartlett weights). */
export function neweyWestMean(values: readonly number[], lags: number): RobustEstimate | null {
  const n = values.length;
  if (n < 2) return null;
  const mean = values.reduce((s, v) => s + v, 0) / n;
  const u = values.map((v) => v - mean);
  let longRun = 0;
  for (let t = 0; t < n; t += 1) longRun += u[t]! * u[t]!;
  for (let l = 1; l <= Math.min(lags, n - 1); l += 1) {
    let gamma = 0;
    for (let t = l; t < n; t += 1) gamma += u[t]! * u[t - l]!;
    longRun += 2 * (1 - l / (lags + 1)) * gamma;
  }
  return estimateOf(mean, Math.sqrt(Math.max(0, longRun) / (n * n)));
}

/**
 * The difference in mean between the flagged days and the other days of one consecutive daily series: the slope of
 * an OLS regression of y on a flag dummy, with its Newey-West (HAC) standard error, so clustered flags and
 * overlapping windows are both accounted for. Null when either group is empty.
 */
export function neweyWestMeanDifference(
  values: readonly number[],
  flags: readonly boolean[],
  lags: number,
): RobustEstimate | null {
  const n = values.length;
  const n1 = flags.filter(Boolean).length;
  const n0 = n - n1;
  if (n1 === 0 || n0 === 0) return null;
  let sum1 = 0;
  let sum0 = 0;
  for (let t = 0; t < n; t += 1) {
    if (flags[t]) sum1 += values[t]!;
    else sum0 += values[t]!;
  }
  const mean1 = sum1 / n1;
  const mean0 = sum0 / n0;
  // Regressors x_t = (1, d_t); the slope's row of (X'X)^-1 is (-1/n0, 1/n0 + 1/n1) · (1 - d, ...) reduces to the
  // influence a_t = d_t/n1 - (1-d_t)/n0, so Var(slope) = Σ_l w_l Σ_t a_t u_t a_{t-l} u_{t-l} (both directions).
  const score = values.map((v, t) => (flags[t] ? (v - mean1) / n1 : -(v - mean0) / n0));
  let variance = 0;
  for (let t = 0; t < n; t += 1) variance += score[t]! * score[t]!;
  for (let l = 1; l <= Math.min(lags, n - 1); l += 1) {
    let gamma = 0;
    for (let t = l; t < n; t += 1) gamma += score[t]! * score[t - l]!;
    variance += 2 * (1 - l / (lags + 1)) * gamma;
  }
  return estimateOf(mean1 - mean0, Math.sqrt(Math.max(0, variance)));
}

/** Indices (ascending) whose `horizon`-bar windows do not overlap: the earliest first, then greedily onward. */
export function nonOverlapping(indices: readonly number[], horizon: number): number[] {
  const out: number[] = [];
  let next = -Infinity;
  for (const i of indices) {
    if (i < next) continue;
    out.push(i);
    next = i + horizon;
  }
  return out;
}

/** Mean with the plain standard error of independent draws (for non-overlapping samples). */
export function independentMean(values: readonly number[]): RobustEstimate | null {
  const n = values.length;
  if (n < 2) return null;
  const mean = values.reduce((s, v) => s + v, 0) / n;
  const variance = values.reduce((s, v) => s + (v - mean) ** 2, 0) / (n - 1);
  return estimateOf(mean, Math.sqrt(variance / n));
}

/** Ranks from 1, ties sharing their average rank. */
export function ranks(values: readonly number[]): number[] {
  const order = values.map((v, i) => [v, i] as const).sort((a, b) => a[0] - b[0]);
  const out = new Array<number>(values.length);
  for (let k = 0; k < order.length; ) {
    let end = k;
    while (end + 1 < order.length && order[end + 1]![0] === order[k]![0]) end += 1;
    const rank = (k + end) / 2 + 1;
    for (let j = k; j <= end; j += 1) out[order[j]![1]] = rank;
    k = end + 1;
  }
  return out;
}

/** Spearman's rank correlation (Pearson on average ranks); null below 3 pairs or when either side is constant. */
export function spearman(xs: readonly number[], ys: readonly number[]): number | null {
  const n = Math.min(xs.length, ys.length);
  if (n < 3) return null;
  const rx = ranks(xs.slice(0, n));
  const ry = ranks(ys.slice(0, n));
  const mean = (n + 1) / 2;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i += 1) {
    const dx = rx[i]! - mean;
    const dy = ry[i]! - mean;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  return sxx === 0 || syy === 0 ? null : sxy / Math.sqrt(sxx * syy);
}
