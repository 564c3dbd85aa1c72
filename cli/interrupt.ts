/**
 * Ctrl-C for a command that has work to finish (D55): the first SIGINT or SIGTERM says in one
 * line what happens now and aborts the signal the command watches, so it can write its partial
 * report and clean up; a second one quits at once.
 */

/** The shell's exit code of a process ended by `signal`: 128 + its number (130 for SIGINT, 143 for SIGTERM). */
export function signalExitCode(signal: string): number {
  return signal === 'SIGTERM' ? 143 : 130;
}

/**
 * Watches SIGINT and SIGTERM until the returned function is called. The first aborts
 * `controller` with the signal's name as the reason, after writing `waybill: interrupted: ` and
 * `whatNow` to stderr.
 */
export function onInterrupt(controller: AbortController, whatNow: string): () => void {
  const handler = (signal: NodeJS.Signals) => {
    if (controller.signal.aborted) {
      process.stderr.write(`waybill: interrupted again: quitting at once\n`);
      process.exit(signalExitCode(signal));
    }
    process.stderr.write(`\nwaybill: interrupted: ${whatNow} (Ctrl-C again quits at once)\n`);
    controller.abort(signal);
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return () => {
    process.off('SIGINT', handler);
    process.off('SIGTERM', handler);
  };
}
