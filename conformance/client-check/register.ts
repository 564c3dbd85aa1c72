/**
 * The rules a client is held to, as the client-check's requirements register. The seeds'
 * statements keep the ids of spec/requirements.yaml (the register states them for a server;
 * the ones about what a consumer does are graded here, `int.status.unknown-not-final` among
 * them, which no exchange of a server can show). Where only spec/DECISIONS.md says what a
 * client does, its sentence is quoted verbatim under a `client.` id: at level SHOULD where it
 * follows from the sandbox's documented behaviour, which the seeds leave open; at DECISION where
 * it is waybill's choice of what a client must survive (D93's tolerant reader), so a failure is
 * a warning, as a DECISION check's is.
 */
import { integrationRequirements } from '../contract/contract.ts';
import type { RequirementInfo } from '../engine/types/contract.ts';

/** The seed statements about a client, by their spec/requirements.yaml ids. */
const seedIds = ['int.orders-feed.caught-up', 'int.trips-feed.oldest-first', 'int.status.unknown-not-final', 'int.errors.rate-limit-429', 'int.idempotency.in-flight', 'int.body.media-type'] as const;

/** Sentences of spec/DECISIONS.md about what a client does (a test checks each is there verbatim). */
export const decisionRules: readonly RequirementInfo[] = [
  {
    id: 'client.idempotency.same-key',
    level: 'SHOULD',
    origin: 'decision',
    source: 'spec/DECISIONS.md D13 — Idempotency-Key',
    quote: 'When a request with a key has completed, its answer is stored. For 24 hours after that, a request with the same key, method, path and body gets the stored status and body again, with the header `Idempotent-Replayed: true`, and nothing is executed again.',
    testable: true,
  },
  {
    id: 'client.errors.final-verdict',
    level: 'SHOULD',
    origin: 'decision',
    source: 'spec/DECISIONS.md D26 — Replaying a 4xx under an `Idempotency-Key`',
    quote: "A 4xx is the server's final verdict on that request (RFC 9110 §15.5): sending the same request again cannot change it, and a corrected request is a new attempt that deserves a new key.",
    testable: true,
  },
  {
    id: 'client.rate-limit.pace',
    level: 'SHOULD',
    origin: 'decision',
    source: 'spec/DECISIONS.md D14 — Rate limit',
    quote: 'With them, a well-behaved client can slow down before it is refused instead of finding the limit by hitting it.',
    testable: true,
  },
  {
    id: 'client.feed.resume',
    level: 'SHOULD',
    origin: 'decision',
    source: 'spec/DECISIONS.md D6 — End of feed',
    quote: 'A caught-up consumer polls again later with `since` = the last `updatedAtUtc` it processed (D4).',
    testable: true,
  },
  {
    id: 'client.feed.tolerant-reader',
    level: 'DECISION',
    origin: 'decision',
    source: 'spec/DECISIONS.md D93 — A tolerant reader: members and trip statuses the contract does not list yet',
    quote: 'A client reads past what it does not know: it ignores a member the contract does not list, keeps an item whose trip status it does not know, and goes on to the end of the feed.',
    testable: true,
  },
];

/** The register a client-check report covers: the seed statements above and the decision sentences. */
export const clientRequirements: ReadonlyMap<string, RequirementInfo> = new Map([
  ...seedIds.map((id): [string, RequirementInfo] => {
    const requirement = integrationRequirements.get(id);
    if (requirement === undefined) throw new Error(`spec/requirements.yaml has no '${id}'`);
    // Testable here even when no exchange of a server shows it: the client's requests do.
    const { reason: _reason, ...rest } = requirement;
    return [id, { ...rest, testable: true }];
  }),
  ...decisionRules.map((rule): [string, RequirementInfo] => [rule.id, rule]),
]);
