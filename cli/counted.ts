/** `1 scenario`, `2 scenarios`, `0 checks`: a count with its noun in the right number, for every line a report prints. */
export function counted(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : plural}`;
}

/** `850 ms`, `4.2 s`, `2 min 05 s`: a duration as a person reads it in a progress or verdict line. */
export function seconds(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const whole = Math.round(ms / 1000);
  return `${Math.floor(whole / 60)} min ${String(whole % 60).padStart(2, '0')} s`;
}
