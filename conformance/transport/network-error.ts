/** Turns a failed fetch or socket into one readable line. */

/** The message of a network failure, with its cause (ECONNREFUSED, timeout) when there is one. */
export function describeNetworkError(error: unknown, timeoutMs?: number): string {
  if (!(error instanceof Error)) return String(error);
  if (error.name === 'TimeoutError') return timeoutMs === undefined ? 'no answer in time (timeout)' : `no answer within ${timeoutMs} ms (timeout)`;
  const cause = (error as Error & { cause?: unknown }).cause;
  if (cause instanceof Error) return `${error.message} (${(cause as NodeJS.ErrnoException).code ?? cause.message})`;
  return error.message;
}
