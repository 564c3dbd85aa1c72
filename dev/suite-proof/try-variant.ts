/** Runs one suite-proof variant by name and prints what failed, errored and skipped (a developer's probe). */
import { brokenVariants } from './broken.ts';
import { alternativeVariants } from './alternatives.ts';
import { errored, failed, runAgainst, skipped } from './harness.ts';

const name = process.argv[2]!;
const strict = process.argv.includes('--strict');
const variant = brokenVariants[name] ?? (alternativeVariants as Record<string, object>)[name];
if (variant === undefined) throw new Error(`no variant ${name}`);
const started = Date.now();
const report = await runAgainst(variant, { strict });
console.log(JSON.stringify({ failed: failed(report), errored: errored(report), skipped: skipped(report), ms: Date.now() - started }, null, 1));
for (const result of report.results.filter((r) => r.outcome === 'fail')) console.log(result.id, result.findings.slice(0, 2).map((f) => f.message + ' || ' + f.received).join('\n   '));
