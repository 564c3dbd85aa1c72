/** The server's log: one line per request and errors with their stack; never a header, so never a key. */
import type { NextFunction, Request, Response } from 'express';
import { contextOf } from './context.ts';

/** Where the server writes its log lines. */
export interface Logger {
  /** Whether it wants one line per request (the access log is left out of the app otherwise). */
  requests: boolean;
  info(line: string): void;
  error(line: string): void;
}

/** A logger writing to stdout and stderr; `quiet` drops the per-request lines. */
export function consoleLogger(options: { quiet?: boolean } = {}): Logger {
  return {
    requests: !options.quiet,
    info: (line) => process.stdout.write(`${line}\n`),
    error: (line) => process.stderr.write(`${line}\n`),
  };
}

/** A logger that keeps its lines in memory (tests read them). */
export function memoryLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return { lines, requests: true, info: (line) => lines.push(line), error: (line) => lines.push(line) };
}

/** Middleware: logs method, path, status, duration and request id when each answer finishes. */
export function makeAccessLog(options: { log: Logger }) {
  return function accessLog(req: Request, res: Response, next: NextFunction): void {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      // The whole path, whichever router answered (req.path is the part after the router's mount point), without the query.
      const path = req.originalUrl.split('?', 1)[0];
      options.log.info(`${req.method} ${path} ${res.statusCode} ${ms.toFixed(1)}ms ${contextOf(res).requestId}`);
    });
    next();
  };
}
