/**
 * When the reader of waybill's output goes away. A short command whose reader stopped early
 * (`waybill conformance --help | head -3`) stops quietly, as Unix tools do, instead of a stack
 * trace for the EPIPE. A long-running one whose output goes into a pipe
 * (`waybill serve 2>&1 | tee log`) outlives its reader when Ctrl-C stops both: it must still
 * stop the way it would have (the request log's last entries written, the admin token file's
 * entry removed), so its output just goes nowhere from then on.
 */

let survive = false;

/** Installed once by the `waybill` executable: EPIPE on stdout ends a short command quietly, with its exit code so far. */
export function quitOnBrokenPipe(): void {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    if (!survive) process.exit(process.exitCode ?? 0);
  });
  process.stderr.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });
}

/** From now on, EPIPE on stdout or stderr drops the output and the command goes on to its own end; any other stream error is raised as before. */
export function surviveBrokenPipes(): void {
  survive = true;
  for (const stream of [process.stdout, process.stderr]) {
    if (stream.listeners('error').includes(ignoreBrokenPipe)) continue;
    stream.on('error', ignoreBrokenPipe);
  }
}

function ignoreBrokenPipe(error: NodeJS.ErrnoException): void {
  if (error.code === 'EPIPE') return;
  throw error;
}
