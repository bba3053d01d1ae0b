/** Median and interquartile range of a sample (linear interpolation between order statistics). */
export type Spread = { median: number; q1: number; q3: number; n: number };

function quantile(sorted: number[], q: number): number {
  const at = (sorted.length - 1) * q;
  const low = Math.floor(at);
  const high = Math.ceil(at);
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (at - low);
}

export function spread(values: number[]): Spread {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (sorted.length === 0) return { median: NaN, q1: NaN, q3: NaN, n: 0 };
  return { median: quantile(sorted, 0.5), q1: quantile(sorted, 0.25), q3: quantile(sorted, 0.75), n: sorted.length };
}

/** The `q` quantile of a sample (0.9: the 90th percentile), as `spread` computes its quartiles. */
export function percentile(values: number[], q: number): number {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  return sorted.length === 0 ? NaN : quantile(sorted, q);
}
