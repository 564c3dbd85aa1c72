/** What every reporter implements; it reads only the typed run data. */
import type { CheckResult, CheckWait, RunReport, RunStart } from '../engine/types/report.ts';

/** Where a reporter writes. */
export interface ReporterOptions {
  /** The directory report files go to (created by the CLI). */
  outDir: string;
  /** Where the console reporter prints; default process.stdout. */
  stream?: NodeJS.WritableStream & { isTTY?: boolean };
  /** Whether the console reporter ends with the verdict line; default true (the CLI prints it on stderr itself). */
  verdict?: boolean;
  /** The command that replays the run's failures (`waybill replay DIR …`), shown with them when there are any; none when absent. */
  replay?: string;
  /** Environment read for NO_COLOR; default process.env. */
  env?: NodeJS.ProcessEnv;
}

/** A report format. */
export interface Reporter {
  onStart?(start: RunStart): void;
  onResult?(result: CheckResult): void;
  /** A check is about to wait: a long pause, said before it begins. */
  onWait?(wait: CheckWait): void;
  /** Writes the report; resolves to the path of the file written, if the format writes one. */
  onEnd(report: RunReport): Promise<string | void>;
}
