import { mean, sampleVariance } from "simple-statistics";

/**
 * Welch's t of a sample's mean against another sample's (unequal variances). Reported beside pooled means so
 * a reader can tell a direction from noise; overlapping h-day windows overstate it, so |t| < 2 is noise.
 */
export function welchT(a: readonly number[], b: readonly number[]): number | null {
  if (a.length < 2 || b.length < 2) return null;
  const se = Math.sqrt(sampleVariance([...a]) / a.length + sampleVariance([...b]) / b.length);
  return se === 0 ? null : (mean([...a]) - mean([...b])) / se;
}
