/** What the subcommands' command lines share: parsing with commander into a usage error, and port numbers. */
import { type Command, CommanderError, InvalidArgumentError } from 'commander';
import { pointUsageErrorsAt, UsageError } from './errors.ts';

/**
 * Parses `argv` (the arguments after the subcommand) with `program`, which must use
 * `.exitOverride()`. Resolves to false when commander answered by itself (help, version),
 * throws a `UsageError` for a command line it refuses. Commander's own `error: …` line is
 * silenced: the dispatcher prints the usage error once, as `waybill: … (see … --help)`.
 */
export function parseCommandLine(program: Command, argv: string[]): boolean {
  // Every usage error of this command, commander's or its own, points to its --help.
  pointUsageErrorsAt(program.name());
  program.configureOutput({ ...program.configureOutput(), outputError: () => {} });
  try {
    rejectUnknownOptionFirst(program, argv);
    program.parse(argv, { from: 'user' });
    return true;
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return false;
    // One line: commander puts its suggestion ("(Did you mean --port?)") on a line of its own;
    // after its "… is invalid." the option's own reason starts a sentence.
    const message = error.message.replace(/^error: /, '').replace(/\s*\n\s*/g, ' ').replace(/(is invalid\.\s+)([a-z])/, (_, invalid: string, first: string) => `${invalid}${first.toUpperCase()}`);
    throw new UsageError(`${message} (see ${program.name()} --help)`);
  }
}

/**
 * Commander reports a missing required option before an unknown one, so `--bogus` alone
 * would read "required option … not specified". This names the unknown option first (unless
 * help is asked for), through commander's own error, before `program.parse` runs.
 */
export function rejectUnknownOptionFirst(program: Command, argv: string[]): void {
  program.saveStateBeforeParse();
  const { unknown } = program.parseOptions([...argv]);
  if (unknown.includes('--help') || unknown.includes('-h')) return;
  const first = unknown[0];
  if (first !== undefined && first.length > 1 && first.startsWith('-') && first !== '--') {
    (program as unknown as { unknownOption(flag: string): never }).unknownOption(first);
  }
}

/** A commander argument parser for an option that takes a comma-separated list and may also be repeated. */
export function commaList(value: string, previous: string[] = []): string[] {
  return [...previous, ...value.split(',').map((item) => item.trim()).filter((item) => item !== '')];
}

/** A commander argument parser for a whole number of at least `min`. */
export function wholeNumber(min: number) {
  return (value: string): number => {
    if (!/^\d+$/.test(value) || Number(value) < min || !Number.isSafeInteger(Number(value))) throw new InvalidArgumentError(`must be a whole number of at least ${min}`);
    return Number(value);
  };
}

/** A commander argument parser for a TCP port from `min` (0 = any free port) to 65535. */
export function portNumber(min: 0 | 1) {
  return (value: string): number => {
    const port = Number(value);
    if (!/^\d+$/.test(value) || port < min || port > 65535) throw new InvalidArgumentError(`must be a whole number from ${min} to 65535`);
    return port;
  };
}

/** A subcommand of a command group (`waybill keys generate`, `waybill profile env`): runs with the arguments after its name. */
export type GroupMember = (argv: string[]) => Promise<number>;

/**
 * Runs `waybill <group> <member> …`: `--help` prints `usage` (exit 0); no member or an
 * unknown one is a usage error of one line, as every command's is.
 */
export function runGroup(group: string, usage: string, members: Record<string, GroupMember>, argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(usage);
    return Promise.resolve(0);
  }
  const choices = Object.keys(members).join(', ');
  if (name === undefined) throw new UsageError(`waybill ${group} needs a subcommand: ${choices} (see waybill ${group} --help)`);
  const member = Object.hasOwn(members, name) ? members[name] : undefined;
  if (member === undefined) throw new UsageError(`waybill ${group}: unknown subcommand '${name}' (choose ${choices}; see waybill ${group} --help)`);
  pointUsageErrorsAt(`waybill ${group} ${name}`);
  return member(rest);
}
