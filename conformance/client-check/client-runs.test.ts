/**
 * What client-check shows of the client itself: each run's exit code, time and the end of its
 * output, keys redacted, in the report; a client that crashed named as such; a command that
 * cannot start refused before anything is staged.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AddressInfo, createServer } from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleReporter } from '../reporters/console.ts';
import { reportHtml } from '../reporters/html.ts';
import { UsageError } from '../../cli/errors.ts';
import { main } from './cli.ts';
import { commandProblem } from './client-process.ts';
import { startOwnSandbox } from './own-sandbox.ts';
import { runClientCheck } from './run.ts';

const folder = mkdtempSync(join(tmpdir(), 'waybill-client-runs-'));
let sandbox: Awaited<ReturnType<typeof startOwnSandbox>> | undefined;
beforeAll(async () => {
  sandbox = await startOwnSandbox();
});
afterAll(async () => {
  await sandbox?.close();
  rmSync(folder, { recursive: true, force: true });
});

describe('client runs in the report', () => {
  it('a client that crashes at once: named by the last line of its stderr, its exit code, time and output in the result, its key redacted', async () => {
    // A Python-like crash, and the key echoed on stdout as a careless client might.
    const crash = "console.log('key=' + process.env.WAYBILL_API_KEY); console.error('Traceback (most recent call last):\\nKeyError: \\'OnHold\\''); process.exit(1)";
    const report = await runClientCheck({ target: sandbox!.url, adminToken: sandbox!.adminToken, command: process.execPath, args: ['-e', crash], timeoutMs: 20_000, only: ['client.pay.json-body'] });
    const [result] = report.results;
    expect(result?.outcome).toBe('fail');
    expect(result?.findings[0]?.message).toMatch(/^The client crashed \(exit code 1 after \d+ ms\): KeyError: 'OnHold'$/);
    expect(result?.clientRuns).toEqual([{ exitCode: 1, signal: null, timedOut: false, durationMs: expect.any(Number), stdoutTail: 'key=<redacted:clientKey>\n', stderrTail: "Traceback (most recent call last):\nKeyError: 'OnHold'\n" }]);
    // The scenario's own finding follows: what the client never did.
    expect(result?.findings.length).toBeGreaterThan(1);
  }, 60_000);

  it("a JavaScript client's uncaught exception: named by its message, not by its stack or Node's version line", async () => {
    const crash = "throw new TypeError('orders item 1: unknown members deliveryWindow')";
    const report = await runClientCheck({ target: sandbox!.url, adminToken: sandbox!.adminToken, command: process.execPath, args: ['-e', crash], timeoutMs: 20_000, only: ['client.pay.json-body'] });
    const [result] = report.results;
    expect(result?.clientRuns?.[0]?.stderrTail).toMatch(/^ {4}at .+\n\nNode\.js v\d+/m);
    expect(result?.findings[0]?.message).toMatch(/^The client crashed \(exit code 1 after \d+ ms\): TypeError: orders item 1: unknown members deliveryWindow$/);
  }, 60_000);

  it('a client that reports an error and exits 1 has not crashed: its run is recorded, no crash finding is made', async () => {
    const report = await runClientCheck({ target: sandbox!.url, adminToken: sandbox!.adminToken, command: process.execPath, args: ['-e', "console.error('Error: the payment failed: 404'); process.exit(1)"], timeoutMs: 20_000, only: ['client.pay.json-body'] });
    const [result] = report.results;
    expect(result?.findings.map((found) => found.message).filter((message) => message.startsWith('The client crashed'))).toEqual([]);
    expect(result?.clientRuns?.[0]).toMatchObject({ exitCode: 1, stderrTail: 'Error: the payment failed: 404\n' });
  }, 60_000);

  it('a client that runs its task: its runs are recorded, and no exit finding is made', async () => {
    const report = await runClientCheck({ target: sandbox!.url, adminToken: sandbox!.adminToken, command: process.execPath, args: ['-e', "console.log('nothing to do')"], timeoutMs: 20_000, only: ['client.pay.json-body'] });
    const [result] = report.results;
    // It never paid: the scenario fails, and an exit of 0 adds nothing to say.
    expect(result?.findings.map((found) => found.message).filter((message) => message.startsWith('The client crashed'))).toEqual([]);
    expect(result?.clientRuns?.[0]).toMatchObject({ exitCode: 0, stdoutTail: 'nothing to do\n', stderrTail: '' });
  }, 60_000);
});

describe('a client command that cannot start', () => {
  it('is named before anything is staged: not on PATH, missing, not executable', () => {
    expect(commandProblem(process.execPath)).toBeNull();
    expect(commandProblem('node')).toBeNull();
    expect(commandProblem('pyhton3-not-a-command')).toBe('pyhton3-not-a-command is not a command on PATH');
    expect(commandProblem('./no/such/client.py')).toBe('./no/such/client.py does not exist');
    const script = join(folder, 'client.py');
    writeFileSync(script, 'print(1)\n');
    chmodSync(script, 0o644);
    expect(commandProblem(script)).toBe(`${script} is not an executable file (chmod +x it, or name its interpreter first: -- python3 ${script})`);
  });

  it('ends the command with one usage line (exit 2) before a sandbox is started or a scenario staged', async () => {
    const refused = main(['--target', sandbox!.url, '--admin-token', 'not-even-checked', '--', 'pyhton3-not-a-command', 'client.py']);
    await expect(refused).rejects.toThrow(UsageError);
    await expect(refused).rejects.toThrow('cannot run the client: pyhton3-not-a-command is not a command on PATH');
  });

  it('--target where nothing listens, with no admin token: says that first', async () => {
    const closed = await new Promise<string>((resolve) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
        server.close(() => resolve(url));
      });
    });
    const saved = process.env['WAYBILL_ADMIN_TOKEN'];
    delete process.env['WAYBILL_ADMIN_TOKEN'];
    try {
      await expect(main(['--target', closed, '--', process.execPath, 'client.mjs'])).rejects.toThrow(`nothing answers at ${closed}: fetch failed (ECONNREFUSED); start the sandbox (waybill serve) or give the URL it listens on`);
      // Where a sandbox answers, the missing token is what is said.
      await expect(main(['--target', sandbox!.url, '--', process.execPath, 'client.mjs'])).rejects.toThrow("--target needs the sandbox's admin token");
    } finally {
      if (saved !== undefined) process.env['WAYBILL_ADMIN_TOKEN'] = saved;
    }
  });
});

describe('client runs in the reporters', () => {
  it('the console and the HTML report show how each run ended and the end of its output', async () => {
    const crash = "console.error('ModuleNotFoundError: No module named \\'requests\\''); process.exit(1)";
    const report = await runClientCheck({ target: sandbox!.url, adminToken: sandbox!.adminToken, command: process.execPath, args: ['-e', crash], timeoutMs: 20_000, only: ['client.pay.json-body'] });
    let printed = '';
    const stream = new Writable({ write: (chunk: Buffer, _encoding, done) => ((printed += String(chunk)), done()) });
    await consoleReporter({ outDir: folder, stream, env: { NO_COLOR: '1' }, verdict: false }).onEnd(report);
    expect(printed).toMatch(/ {2}Client run 1: exit code 1 after \d+ ms\n {5}stderr: ModuleNotFoundError: No module named 'requests'/);
    expect(reportHtml(report)).toMatch(/<summary>Client run 1: exit code 1 after \d+ ms<\/summary><p>The end of its stderr:<\/p><pre>ModuleNotFoundError: No module named &#39;requests&#39;\n<\/pre>/);
  }, 60_000);
});
