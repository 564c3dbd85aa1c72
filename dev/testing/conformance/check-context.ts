/** Test support: a check context over one target, outside any run, and the log it records into. */
import { createCheckContext } from '../../../conformance/engine/context.ts';
import { integrationContract } from '../../../conformance/contract/contract.ts';
import { createExchangeLog } from '../../../conformance/transport/exchange.ts';
import { createRedactor, profileSecrets } from '../../../conformance/transport/redaction.ts';
import { createRouteMatcher } from '../../../conformance/contract/routes.ts';
import type { Profile } from '../../../conformance/engine/types/profile.ts';
import { testProfile } from './fake-target.ts';

/** The context check `checkId` would get against `target` with `profile`, and its exchange log. */
export function contextFor(target: string, options: { profile?: Profile; timeoutMs?: number; checkId?: string } = {}) {
  const log = createExchangeLog();
  const profile = options.profile ?? testProfile();
  const env = {
    target,
    rawTarget: target,
    profile,
    log,
    redactor: createRedactor(profileSecrets(profile)),
    matchRoute: createRouteMatcher(integrationContract.routes, target),
    timeoutMs: options.timeoutMs ?? 2000,
    seed: 1,
    fuzz: 0,
    userAgent: 'waybill-test',
    shared: new Map(),
    clientRuns: new Map(),
    runLabel: 'waybill conformance (test)',
  };
  return { ctx: createCheckContext(env, options.checkId ?? 'test.check', new Map()), log };
}
