/** Builds the console into `outDir` (default `dist/console` of the package); answers the files written. */
export function buildConsole(outDir?: string): Promise<string[]>;
