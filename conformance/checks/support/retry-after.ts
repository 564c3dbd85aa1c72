/** The `Retry-After` rule of 429 answers (D13, D14): whole seconds, at least 1. */

/** Why `value` is not a `Retry-After` of whole seconds ≥ 1, or null when it is. */
export function retryAfterProblem(value: string | undefined): string | null {
  if (value === undefined) return 'no Retry-After header';
  if (!/^\d+$/.test(value.trim())) return `Retry-After: ${value} (not whole seconds)`;
  if (Number(value) < 1) return `Retry-After: ${value} (below 1)`;
  return null;
}
