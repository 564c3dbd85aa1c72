/**
 * A long-running command whose output goes into a pipe (`waybill serve 2>&1 | tee log`) outlives
 * its reader when Ctrl-C stops both: the next line it writes fails with EPIPE, which Node raises
 * as an uncaught error on the stream, and the command would die before its own clean-up (the
 * admin token file's entry, the database's last writes). The reader leaving is no error of the
 * command's: its output goes nowhere from then on, and it stops as it would have.
 */

/** From now on, EPIPE on stdout or stderr is ignored (the output is dropped); any other stream error is raised as before. */
export function surviveBrokenPipes(): void {
  for (const stream of [process.stdout, process.stderr]) {
    if (stream.listeners('error').includes(ignoreBrokenPipe)) continue;
    stream.on('error', ignoreBrokenPipe);
  }
}

function ignoreBrokenPipe(error: NodeJS.ErrnoException): void {
  if (error.code === 'EPIPE') return;
  throw error;
}
