/**
 * The CI recipes of examples/ci as shell, for ci-recipes.test.ts: a job of the GitHub workflow
 * or of the GitLab file becomes one bash script that runs its steps in order as the CI service
 * would. GitHub: each `run` step in a shell of its own (a subshell, `set -eo pipefail` as
 * GitHub's bash runs it), the job's and the step's `env` exported, `${{ vars.X }}` and
 * `${{ secrets.X }}` given by the test, and what a step appends to `$GITHUB_ENV` exported for the
 * steps after it. GitLab: every `script` line in one shell under `set -eo pipefail`, the job's
 * `variables` exported. `uses:` steps and `npm ci` are left out (the test lays the project out
 * as installed); each step's output is framed by markers, with its exit code.
 */
import { parse } from 'yaml';

/** A step of a job, as the test reports it. */
export interface RecipeStep {
  name: string;
  /** Why the step is not run, when it is not. */
  skipped?: string;
}

/** A job as a bash script, with the steps it runs and those it leaves out. */
export interface RecipeJob {
  steps: RecipeStep[];
  script: string;
}

type Json = Record<string, any>;

/** The command every step line of a job that installs waybill starts with: installing is the test's, from this clone. */
const INSTALL = /^npm ci$/;

/** `value` with `${{ vars.X }}` and `${{ secrets.X }}` replaced from `given`; any other expression is refused. */
function expand(value: string, given: Record<string, string>): string {
  return value.replace(/\$\{\{\s*(vars|secrets)\.(\w+)\s*\}\}/g, (_all, _kind, name: string) => {
    if (!Object.hasOwn(given, name)) throw new Error(`the recipe reads ${name}, which the test does not give`);
    return given[name]!;
  }).replace(/\$\{\{[^}]*\}\}/g, (expression) => {
    throw new Error(`an expression the test cannot give: ${expression}`);
  });
}

/** `export NAME='value'` lines for `variables`. */
function exports(variables: Record<string, unknown> | undefined, rewrite: (value: string) => string): string[] {
  return Object.entries(variables ?? {}).map(([name, value]) => `export ${name}='${rewrite(String(value)).replaceAll("'", `'\\''`)}'`);
}

/** The frame of step `index`: begins, runs `body`, ends with its exit code, and stops the job when it failed. */
function framed(index: number, body: string[]): string[] {
  return [`printf '\\n@@begin ${index}@@\\n'`, ...body, 'code=$?', `printf '\\n@@end ${index} %d@@\\n' "$code"`, '[ "$code" -eq 0 ] || exit "$code"'];
}

/** Job `name` of the GitHub workflow `text` as a bash script; `rewrite` adjusts every value (the test's port). */
export function githubJob(text: string, name: string, given: Record<string, string>, rewrite: (value: string) => string): RecipeJob {
  const job = (parse(text) as Json)['jobs'][name] as Json;
  const lines = ['export GITHUB_ENV="$PWD/.github-env"', ': > "$GITHUB_ENV"', ...exports(job['env'], (value) => rewrite(expand(value, given)))];
  const steps: RecipeStep[] = [];
  for (const step of job['steps'] as Json[]) {
    const title = String(step['name'] ?? step['uses'] ?? step['run']);
    if (step['uses'] !== undefined) {
      steps.push({ name: title, skipped: `an action (${step['uses']}); the test checks what it would upload` });
      continue;
    }
    const run = rewrite(expand(String(step['run']), given)).trimEnd();
    if (INSTALL.test(run)) {
      steps.push({ name: title, skipped: 'installs from the npm registry; the test lays node_modules/waybill out instead' });
      continue;
    }
    steps.push({ name: title });
    const body = ['(', ...exports(step['env'], (value) => rewrite(expand(value, given))), 'set -eo pipefail', run, ')'];
    lines.push(...framed(steps.length - 1, body));
    // What the step wrote to $GITHUB_ENV is the next steps' environment (NAME=value lines).
    lines.push('set -a; . "$GITHUB_ENV"; set +a; : > "$GITHUB_ENV"');
  }
  return { steps, script: `${lines.join('\n')}\n` };
}

/** Job `name` of the GitLab file `text` as a bash script; `rewrite` adjusts every value (the test's port). */
export function gitlabJob(text: string, name: string, rewrite: (value: string) => string): RecipeJob {
  const job = (parse(text) as Json)[name] as Json;
  const lines = ['set -eo pipefail', ...exports(job['variables'], rewrite)];
  const steps: RecipeStep[] = [];
  for (const entry of job['script'] as string[]) {
    const line = rewrite(entry).trimEnd();
    if (INSTALL.test(line)) {
      steps.push({ name: line, skipped: 'installs from the npm registry; the test lays node_modules/waybill out instead' });
      continue;
    }
    steps.push({ name: line.split('\n')[0]! });
    // One shell for every line, as GitLab runs them: what a line exports or starts serves the lines
    // after it, and the first line that fails ends the job (its end marker never comes).
    const index = steps.length - 1;
    lines.push(`printf '\\n@@begin ${index}@@\\n'`, line, `printf '\\n@@end ${index} 0@@\\n'`);
  }
  return { steps, script: `${lines.join('\n')}\n` };
}

/** What each step of a job printed and its exit code, read from the markers of the job's output. */
export function stepResults(output: string): Map<number, { output: string; exitCode: number }> {
  const results = new Map<number, { output: string; exitCode: number }>();
  for (const match of output.matchAll(/\n@@begin (\d+)@@\n([\s\S]*?)\n@@end \1 (\d+)@@\n/g)) results.set(Number(match[1]), { output: match[2]!.trim(), exitCode: Number(match[3]) });
  return results;
}
