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

let helpCommand = 'waybill';

/** Names the command whose `--help` a usage error points to (`waybill conformance`); the dispatcher sets it. */
export function pointUsageErrorsAt(command: string): void {
  helpCommand = command;
}

/**
 * `message` ending with where to read more: `… (see waybill serve --help)`, or, when it ends with
 * a hint of its own in parentheses, `… (try --target http://localhost:4000; see … --help)`.
 */
export function withHelpPointer(message: string): string {
  if (/--help\)$/.test(message)) return message;
  const pointer = `see ${helpCommand} --help`;
  return /\([^()]*\)$/.test(message) ? `${message.slice(0, -1)}; ${pointer})` : `${message} (${pointer})`;
}

/**
 * Prints an error that escaped a subcommand and returns the exit code (always 2:
 * exit 1 is reserved for "the target broke the contract").
 * Known tool errors print their message, a usage error with where to read the command's
 * options; anything else is a bug and prints its stack.
 */
export function reportToolError(error: unknown): number {
  if (error instanceof WaybillError) {
    process.stderr.write(`waybill: ${error.code === 'usage' ? withHelpPointer(error.message) : error.message}\n`);
  } else {
    process.stderr.write(`waybill: unexpected error\n${error instanceof Error ? error.stack : String(error)}\n`);
  }
  return 2;
}
