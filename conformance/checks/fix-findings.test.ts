/**
 * The fix sentence of real findings: a deliberately broken reference fails a check, and each of
 * its findings says what a correct server does instead — the finding's own sentence where the
 * check knows which header is wrong, else the check's — and the reporters print it.
 */
import { describe, expect, it } from 'vitest';
import type { ProxiedAnswer } from '../../dev/testing/conformance/proxy.ts';
import { runAgainstBroken } from '../../dev/testing/conformance/reference.ts';
import { consoleReporter } from '../reporters/console.ts';
import { junitXml } from '../reporters/junit.ts';
import type { RunReport } from '../engine/types/report.ts';
import { checks } from './index.ts';

/** The registered check `id`. */
const checkOf = (id: string) => [checks.find((check) => check.id === id)!];

/** `answer` without the header `name`. */
const without = (answer: ProxiedAnswer, name: string): ProxiedAnswer => ({ ...answer, headers: Object.fromEntries(Object.entries(answer.headers).filter(([header]) => header !== name)) });

/** What the console reporter prints at the end of `report`. */
async function printed(report: RunReport): Promise<string> {
  let out = '';
  const stream = { isTTY: false, write: (text: string) => ((out += text), true) } as unknown as NodeJS.WritableStream;
  await consoleReporter({ outDir: '.', stream, env: {} }).onEnd(report);
  return out;
}

describe('the fix sentence of a real finding', () => {
  it("is the finding's own where the check knows more: a 401 without WWW-Authenticate", async () => {
    const { byId } = await runAgainstBroken(checkOf('auth.problem.unauthorized'), { rewrite: (answer) => (answer.status === 401 ? without(answer, 'www-authenticate') : answer) });
    const result = byId.get('auth.problem.unauthorized')!;
    expect(result.outcome).toBe('fail');
    expect(result.findings.map((found) => [found.expected, found.fix])).toEqual(
      Array(3).fill(['a WWW-Authenticate header naming the accepted schemes', 'send a WWW-Authenticate header with every 401, naming the schemes the key is accepted in (D3)']),
    );
  });

  it("is the finding's own for a replay not marked as one: Idempotent-Replayed dropped", async () => {
    const { byId } = await runAgainstBroken(checkOf('idempotency.replay'), { rewrite: (answer) => without(answer, 'idempotent-replayed') });
    expect(byId.get('idempotency.replay')?.findings.map((found) => [found.received, found.fix])).toEqual([['no Idempotent-Replayed header', 'mark an answer replayed from the store with Idempotent-Replayed: true (D13)']]);
  });

  it("is the check's where the finding brings none, and the console and JUnit print it beside Expected and Received: a client's X-Request-Id not passed on", async () => {
    const { report, byId } = await runAgainstBroken(checkOf('http.requestId.echo'), { rewrite: { request: ({ headers: { 'x-request-id': _dropped, ...headers }, ...request }) => ({ ...request, headers }) } });
    const fix = "echo the client's X-Request-Id on the answer, success or failure, when it is 1 to 128 visible ASCII characters (D23)";
    const findings = byId.get('http.requestId.echo')!.findings;
    expect(findings.length).toBe(4);
    expect(findings.map((found) => found.fix)).toEqual(Array(4).fill(fix));
    const console = await printed(report);
    expect(console).toContain(`     Received: ${findings[0]!.received}\n     Fix:      ${fix}\n     Replay:   `);
    expect(junitXml(report)).toContain('   Fix:      echo the client&#39;s X-Request-Id');
  });
});
