import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { UsageError } from './errors.ts';
import { parseCommandLine } from './command-line.ts';

/** A command like `waybill serve`, with one option. */
const serve = () => new Command('waybill serve').option('--port <n>', 'port').exitOverride();

describe('parseCommandLine', () => {
  it("refuses a misspelt option in one line, commander's suggestion included", () => {
    const refusal = (() => {
      try {
        parseCommandLine(serve(), ['--prot', '4000']);
        return null;
      } catch (error) {
        return error;
      }
    })();
    expect(refusal).toBeInstanceOf(UsageError);
    expect((refusal as Error).message).toBe("unknown option '--prot' (Did you mean --port?) (see waybill serve --help)");
    expect((refusal as Error).message).not.toContain('\n');
  });

  it('takes a command line it knows', () => {
    const command = serve();
    expect(parseCommandLine(command, ['--port', '4100'])).toBe(true);
    expect(command.opts()).toEqual({ port: '4100' });
  });
});
