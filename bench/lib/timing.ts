/** Timing helpers shared by the benchmarks: repeated calls after one untimed run, and percentiles. */

/** The p-th percentile (nearest rank) of `values`. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Milliseconds of each of `runs` calls of `fn`, after one untimed call (first-call compilation is not what a warm server pays). */
export async function time(fn: () => Promise<unknown> | unknown, runs: number): Promise<number[]> {
  await fn();
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    out.push(performance.now() - t);
  }
  return out;
}
