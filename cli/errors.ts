/** Tool errors with a stable code; `reportToolError` is the one place that turns them into output and an exit code. */
export class WaybillError extends Error {
  constructor(
    message: string,
    readonly code: 'usage' | 'tool',
  ) {
    super(message);
    this.name = 'WaybillError';
  }
}

/** A command line the tool cannot act on (bad flag, bad profile file, missing target). */
export class UsageError extends WaybillError {
  constructor(message: string) {
    super(message, 'usage');
    this.name = 'UsageError';
  }
}

/**
 * Prints an error that escaped a subcommand and returns the exit code (always 2:
 * exit 1 is reserved for "the target broke the contract").
 * Known tool errors print their message; anything else is a bug and prints its stack.
 */
export function reportToolError(error: unknown): number {
  if (error instanceof WaybillError) {
    process.stderr.write(`waybill: ${error.message}\n`);
  } else {
    process.stderr.write(`waybill: unexpected error\n${error instanceof Error ? error.stack : String(error)}\n`);
  }
  return 2;
}
