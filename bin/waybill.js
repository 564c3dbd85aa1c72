#!/usr/bin/env node
// The package's executable: registers tsx so the TypeScript sources run as they are,
// then hands over to the dispatcher.
import { register } from 'tsx/esm/api';

register();
await import('./waybill.ts');
