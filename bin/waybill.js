#!/usr/bin/env node
// The package's executable: runs the compiled dispatcher in dist/. With
// WAYBILL_FROM_SOURCES=1 (set by the test runner) it runs the TypeScript sources through
// tsx instead, so tests never depend on a stale build; tsx is a development dependency.
import { existsSync } from 'node:fs';

if (process.env.WAYBILL_FROM_SOURCES === '1') {
  const { register } = await import('tsx/esm/api');
  register();
  await import('./waybill.ts');
} else {
  const compiled = new URL('../dist/bin/waybill.js', import.meta.url);
  if (!existsSync(compiled)) {
    process.stderr.write('waybill: the compiled code is missing (dist/); run `npm run build` in the package folder\n');
    process.exit(1);
  }
  await import(compiled.href);
}
