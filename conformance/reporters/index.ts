/** The report formats, by the name `--reporter` uses. */
import { consoleReporter } from './console.ts';
import { htmlReporter } from './html.ts';
import { jsonReporter } from './json.ts';
import { junitReporter } from './junit.ts';
import type { Reporter, ReporterOptions } from './reporter.ts';

export type { Reporter, ReporterOptions } from './reporter.ts';

/** Every reporter, by name. */
export const reporters = {
  console: consoleReporter,
  json: jsonReporter,
  junit: junitReporter,
  html: htmlReporter,
} satisfies Record<string, (options: ReporterOptions) => Reporter>;

/** A name of `reporters`. */
export type ReporterName = keyof typeof reporters;

/** True when `name` is a reporter's name. */
export function isReporterName(name: string): name is ReporterName {
  return Object.hasOwn(reporters, name);
}
