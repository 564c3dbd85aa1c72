/** Every client-check scenario, in the order a run takes them. */
import type { ClientScenario } from '../scenario.ts';
import { noRetry400, noRetry401, noRetry403, noRetry404, noRetry409 } from './no-retry.ts';
import { answerLostScenarios, inFlight, jsonBody, retryAfter, writeAnswerLostScenarios } from './pay.ts';
import { rateLimit } from './rate-limit.ts';
import { feedRetryAfter, followsCursor, resumes, tripsFollowCursor, unknownStatus } from './sync.ts';
import { tolerantReader } from './tolerant-reader.ts';

/** The scenarios `waybill client-check` runs (all unless `--scenario` picks some). */
export const scenarios: readonly ClientScenario[] = [
  ...answerLostScenarios,
  ...writeAnswerLostScenarios,
  noRetry400,
  noRetry401,
  noRetry403,
  noRetry404,
  noRetry409,
  retryAfter,
  inFlight,
  feedRetryAfter,
  followsCursor,
  tripsFollowCursor,
  resumes,
  unknownStatus,
  tolerantReader,
  rateLimit,
  jsonBody,
];
