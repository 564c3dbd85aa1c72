/**
 * The vitest reporter of `npm run test:times`: at the run's end it writes what each test file
 * and each test took to `run.json` in the folder `WAYBILL_TEST_TIMES` names (vitest.config.ts
 * adds it only then). dev/testing/test-times.ts reads that file with the starts the helpers
 * recorded (start-times.ts) and prints the tables.
 */
import { writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

/** A test file's time: how long it held a worker (setting up, importing, its tests and hooks). */
export interface FileTime {
  file: string;
  project: string;
  ms: number;
  tests: number;
  failed: boolean;
}

/** One test's time. */
export interface TestTime {
  file: string;
  project: string;
  name: string;
  ms: number;
}

/** What run.json holds. */
export interface RunTimes {
  files: FileTime[];
  tests: TestTime[];
}

/** The times of `modules`, file paths relative to `root`. */
export function runTimes(modules: readonly TestModule[], root: string): RunTimes {
  const files: FileTime[] = [];
  const tests: TestTime[] = [];
  for (const module of modules) {
    const file = relative(root, module.moduleId);
    const project = module.project.name;
    const diagnostic = module.diagnostic();
    const cases = [...module.children.allTests()];
    files.push({
      file,
      project,
      ms: Math.round(diagnostic.environmentSetupDuration + diagnostic.prepareDuration + diagnostic.setupDuration + diagnostic.collectDuration + diagnostic.duration),
      tests: cases.length,
      failed: module.state() === 'failed',
    });
    for (const test of cases) tests.push({ file, project, name: test.fullName, ms: Math.round(test.diagnostic()?.duration ?? 0) });
  }
  return { files, tests };
}

/** A reporter that writes the run's times to `folder`/run.json. */
export function timesReporter(folder: string, root = process.cwd()): Reporter {
  return {
    onTestRunEnd(modules) {
      writeFileSync(join(folder, 'run.json'), JSON.stringify(runTimes(modules, root)));
    },
  };
}
