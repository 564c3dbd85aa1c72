/**
 * One case of the fuzz campaign, sent and judged: the oracle's rules (conformance/fuzz), the
 * contract's declared statuses for the request as sent (declared.ts), and what the campaign
 * counts of it.
 */
import { performance } from 'node:perf_hooks';
import { caseLabel, type FuzzCase } from '../../conformance/fuzz/cases.ts';
import { answerViolations, type FuzzAnswer, isProblemAnswer, type OracleOptions, rawViolations } from '../../conformance/fuzz/oracle.ts';
import { fillRaw } from '../../conformance/fuzz/raw-cases.ts';
import { requestLines, undeclaredStatus } from './declared.ts';
import { caseUrl, type FuzzTarget, sendHttp, sendRaw } from './transport.ts';

const ORACLE: OracleOptions = { requestId: true };

/** What one case came to. */
export interface CaseOutcome {
  label: string;
  transport: FuzzCase['transport'];
  /** How long the case took, from its first byte to its last answer (or the connection's end). */
  ms: number;
  /** Each answer's status, or how the connection ended without one (`dropped`, `stalled`, `closed unanswered`). */
  statuses: string[];
  /** Fetch refused to send the case (a header value it does not allow): nothing was judged. */
  unsendable: boolean;
  /** Answers of 500 or more. */
  serverErrors: number;
  /** Error answers (400 or more) that are not problem+json. */
  nonProblems: number;
  /** Answers whose status the contract does not declare for the request, each saying why. */
  undeclared: string[];
  /** Connections that ended without the answer asked for, or in the middle of one. */
  drops: number;
  /** Everything wrong with the case, as sentences; empty when it held. */
  violations: string[];
}

/** The counts of `answers`, each attributed to the request it answers (`requests[i]`, null: no operation can be named). */
function judgeAnswers(answers: FuzzAnswer[], requests: ({ method: string; path: string } | null)[]) {
  const undeclared: string[] = [];
  answers.forEach((answer, i) => {
    const why = undeclaredStatus(requests[i] ?? null, answer.status);
    if (why !== null) undeclared.push(why);
  });
  return {
    serverErrors: answers.filter((answer) => answer.status >= 500).length,
    nonProblems: answers.filter((answer) => answer.status >= 400 && !isProblemAnswer(answer)).length,
    undeclared,
  };
}

/** Sends `item` to `target` and judges what came back. */
export async function runCase(item: FuzzCase, target: FuzzTarget): Promise<CaseOutcome> {
  const start = performance.now();
  const base = { label: caseLabel(item), transport: item.transport, unsendable: false, serverErrors: 0, nonProblems: 0, undeclared: [] as string[], drops: 0 };
  if (item.transport === 'raw') {
    const outcome = await sendRaw(item, target);
    const ms = performance.now() - start;
    const { host } = new URL(target.url);
    const requests = requestLines(Buffer.from(fillRaw(item.bytes, { base: '', host, auth: 'X-Api-Key: x' }), 'latin1'));
    const judged = judgeAnswers(outcome.answers, requests);
    const violations = [...rawViolations(item, outcome, ORACLE), ...judged.undeclared];
    const dropped = outcome.end !== 'closed' || (outcome.answers.length === 0 && !item.unanswerable);
    const ended = outcome.answers.length > 0 ? [] : [outcome.end === 'timeout' ? 'stalled' : 'closed unanswered'];
    return { ...base, ...judged, ms, statuses: [...outcome.answers.map((answer) => String(answer.status)), ...ended], drops: dropped ? 1 : 0, violations };
  }
  const answer = await sendHttp(item, target);
  const ms = performance.now() - start;
  if ('unsendable' in answer) return { ...base, ms, statuses: [], unsendable: true, violations: [] };
  if ('dropped' in answer) return { ...base, ms, statuses: ['dropped'], drops: 1, violations: [`the connection dropped without an answer (${answer.dropped})`] };
  // The path as fetch sent it: `..` segments resolved, as the server saw it.
  const judged = judgeAnswers([answer], [{ method: item.method, path: new URL(caseUrl(item, target.url)).pathname }]);
  return { ...base, ...judged, ms, statuses: [String(answer.status)], violations: [...answerViolations(answer, ORACLE), ...judged.undeclared] };
}
