/** `report.json`: the RunReport as it is, valid against spec/report.schema.json. */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Reporter, ReporterOptions } from './reporter.ts';

/** Writes `<outDir>/report.json`. */
export function jsonReporter(options: ReporterOptions): Reporter {
  return {
    async onEnd(report) {
      const file = join(options.outDir, 'report.json');
      await writeFile(file, `${JSON.stringify(report, null, 2)}\n`);
      return file;
    },
  };
}
