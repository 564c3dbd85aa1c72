/** Every client-check scenario, in the order a run takes them. */
import type { ClientScenario } from '../scenario.ts';
import { noRetry400, noRetry404, noRetry409 } from './no-retry.ts';
import { answerLost, jsonBody, retryAfter } from './pay.ts';
import { followsCursor, resumes, unknownStatus } from './sync.ts';

/** The scenarios `waybill client-check` runs (all unless `--scenario` picks some). */
export const scenarios: readonly ClientScenario[] = [answerLost, noRetry400, noRetry404, noRetry409, retryAfter, followsCursor, resumes, unknownStatus, jsonBody];
