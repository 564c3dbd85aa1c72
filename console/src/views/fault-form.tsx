/**
 * The form that adds a fault rule (D51). It shows only the fields that fit the chosen fault:
 * the wait of `latency`, the status and Retry-After of `status` (and on a write, which 429),
 * the code of `problem` among those the operation lists (D95, read from the build's
 * `problems.json`, with Retry-After for a 429), the duration of `stall`,
 * `when` for the three writes; then how the rule fires (the next N calls, or with a seeded
 * probability) and, optionally, the one key it watches. The server's 400 names the field.
 */
import { useContext, useEffect, useId, useState } from 'preact/hooks';
import { errorsFor, type Problem, seg } from '../api.ts';
import { FieldErrors, numberOr, ProblemNotice, SelectField, TextField, useAction } from '../components.tsx';
import { ConsoleContext } from '../context.ts';
import { type ApiKey, FAULT_KINDS, FAULT_PROBLEM_TYPES, FAULT_STATUSES, FAULT_WHENS, type FaultKind, type FaultRule, INTEGRATION_OPERATIONS, WRITE_OPERATIONS } from '../types.ts';

/** What each fault does, under its select. */
const FAULT_HINTS: Record<FaultKind, string> = {
  latency: 'Waits, then answers as usual.',
  status: 'Answers 429 api.rate_limited, or 500 or 503 about:blank, bodies as the contract says.',
  reset: 'Closes the connection with a TCP reset.',
  empty: 'Closes the connection without a byte of an answer.',
  malformed: 'Sends the status and headers, then half of the body.',
  stall: 'Sends the status and headers at once, then the body in ten parts over the duration.',
  problem: 'Answers a problem the operation lists, as the sandbox answers it for real, before anything is written.',
};

/** A problem an operation lists (`x-error-codes`), with the status and title it answers. */
interface ListedProblem {
  code: string;
  status: number;
  title: string;
}
type OperationProblems = Record<string, ListedProblem[] | undefined>;
let problemsPromise: Promise<OperationProblems> | null = null;
/** Each operation's problems, as the build wrote them beside the console, fetched once. */
const operationProblems = () =>
  (problemsPromise ??= fetch('/console/problems.json').then((r): Promise<OperationProblems> | OperationProblems => (r.ok ? (r.json() as Promise<OperationProblems>) : {}), (): OperationProblems => ({})));

/** The operation's problems once fetched; none until then. */
function useOperationProblems(): OperationProblems {
  const [problems, setProblems] = useState<OperationProblems>({});
  useEffect(() => void operationProblems().then(setProblems), []);
  return problems;
}
const STATUSES = FAULT_STATUSES.map(String);
/** The problems a 429 may answer besides the default, the rate limit's. */
const OTHER_PROBLEM_TYPES = FAULT_PROBLEM_TYPES.filter((type) => type !== 'api.rate_limited');
const PROBLEM_WORDS: Record<string, string> = { 'idempotency.inFlight': 'idempotency.inFlight: a request with the same key still in flight' };
const WHEN_WORDS: Record<string, string> = { before: 'before: nothing is written', after: 'after: the write commits, the answer is lost' };

interface Draft {
  operation: string;
  keyId: string;
  fault: FaultKind;
  status: string;
  retryAfterSeconds: string;
  problemType: string;
  problem: string;
  latency: 'fixed' | 'range';
  latencyMs: string;
  latencyMin: string;
  latencyMax: string;
  durationMs: string;
  when: string;
  firing: 'times' | 'probability';
  times: string;
  probability: string;
  seed: string;
}

const FRESH: Draft = {
  operation: 'orderFeed', keyId: '', fault: 'status', status: '503', retryAfterSeconds: '', problemType: '', problem: '', latency: 'fixed', latencyMs: '300', latencyMin: '100',
  latencyMax: '900', durationMs: '', when: '', firing: 'times', times: '1', probability: '0.25', seed: '',
};

/** Whether the draft's fault draws random numbers, and so takes a seed. */
const draws = (d: Draft) => d.firing === 'probability' || (d.fault === 'latency' && d.latency === 'range');
/** `malformed` and `stall` always strike after a write (D51). */
const afterOnly = (fault: FaultKind) => fault === 'malformed' || fault === 'stall';

/** A 429 on a write may be the idempotency layer's in-flight one instead of the rate limit's (D51). */
const takesProblemType = (d: Draft) => d.fault === 'status' && d.status === '429' && WRITE_OPERATIONS.includes(d.operation);
/** A problem is answered before the request runs (D95), and `malformed` and `stall` after it (D51): neither takes `when`. */
const takesWhen = (d: Draft) => WRITE_OPERATIONS.includes(d.operation) && !afterOnly(d.fault) && d.fault !== 'problem';
/** The draft's problem among those its operation lists: the one chosen, or the first. */
const chosenProblem = (d: Draft, listed: ListedProblem[]) => listed.find((p) => p.code === d.problem) ?? listed[0];
/** A problem answered 429 takes a Retry-After. */
const problemTakesRetryAfter = (d: Draft, listed: ListedProblem[]) => d.fault === 'problem' && chosenProblem(d, listed)?.status === 429;

/** The fields the form shows for the draft: a field error of any other goes in the problem notice. */
function shownFields(d: Draft, listed: ListedProblem[]): string[] {
  const shown = ['operation', 'keyId', 'fault', d.firing];
  if (d.fault === 'latency') shown.push('latencyMs');
  if (d.fault === 'status') shown.push('status', ...(d.status === '500' ? [] : ['retryAfterSeconds']));
  if (takesProblemType(d)) shown.push('problemType');
  if (d.fault === 'problem') shown.push('problem', ...(problemTakesRetryAfter(d, listed) ? ['retryAfterSeconds'] : []));
  if (d.fault === 'stall') shown.push('durationMs');
  if (takesWhen(d)) shown.push('when');
  if (draws(d)) shown.push('seed');
  return shown;
}

/** The NewFaultRule the draft asks for: only the fields its fault takes, blank ones left to their defaults. */
function ruleOf(d: Draft, listed: ListedProblem[]): Record<string, unknown> {
  const rule: Record<string, unknown> = { operation: d.operation, fault: d.fault };
  const put = (name: string, text: string) => text.trim() !== '' && (rule[name] = numberOr(text));
  if (d.keyId) rule['keyId'] = d.keyId;
  if (d.fault === 'latency') rule['latencyMs'] = d.latency === 'fixed' ? numberOr(d.latencyMs) : { min: numberOr(d.latencyMin), max: numberOr(d.latencyMax) };
  if (d.fault === 'status') {
    rule['status'] = Number(d.status);
    if (d.status !== '500') put('retryAfterSeconds', d.retryAfterSeconds);
    if (takesProblemType(d) && d.problemType) rule['problemType'] = d.problemType;
  }
  if (d.fault === 'problem') {
    rule['problem'] = chosenProblem(d, listed)?.code ?? d.problem;
    if (problemTakesRetryAfter(d, listed)) put('retryAfterSeconds', d.retryAfterSeconds);
  }
  if (d.fault === 'stall') put('durationMs', d.durationMs);
  if (takesWhen(d) && d.when) rule['when'] = d.when;
  if (d.firing === 'times') put('times', d.times);
  else rule['probability'] = numberOr(d.probability);
  if (draws(d)) put('seed', d.seed);
  return rule;
}

function LatencyFields({ draft, set, problem }: { draft: Draft; set: (name: keyof Draft) => (value: string) => void; problem: Problem | null }) {
  const id = useId();
  // The range as a whole (min above max) is named latencyMs; each end by its own name.
  const whole = draft.latency === 'range' ? errorsFor(problem, 'latencyMs').filter((e) => e.field === 'latencyMs') : [];
  return (
    <fieldset class={whole.length ? 'invalid' : undefined} aria-describedby={whole.length ? `${id}-errors` : undefined}>
      <legend>Wait</legend>
      <label class="check"><input type="radio" name="latency" checked={draft.latency === 'fixed'} onChange={() => set('latency')('fixed')} /> Fixed</label>
      <label class="check"><input type="radio" name="latency" checked={draft.latency === 'range'} onChange={() => set('latency')('range')} /> Uniform range</label>
      <div class="row narrow">
        {draft.latency === 'fixed'
          ? <TextField label="Wait in ms" name="latencyMs" value={draft.latencyMs} onValue={set('latencyMs')} problem={problem} type="number" hint="0 to 60,000" />
          : <>
              <TextField label="Shortest wait in ms" name="latencyMs.min" value={draft.latencyMin} onValue={set('latencyMin')} problem={problem} type="number" />
              <TextField label="Longest wait in ms" name="latencyMs.max" value={draft.latencyMax} onValue={set('latencyMax')} problem={problem} type="number" hint="At most 60,000" />
            </>}
      </div>
      <FieldErrors id={`${id}-errors`} errors={whole} />
    </fieldset>
  );
}

function FiringFields({ draft, set, problem }: { draft: Draft; set: (name: keyof Draft) => (value: string) => void; problem: Problem | null }) {
  return (
    <fieldset>
      <legend>Fires</legend>
      <label class="check"><input type="radio" name="firing" checked={draft.firing === 'times'} onChange={() => set('firing')('times')} /> On the next calls</label>
      <label class="check"><input type="radio" name="firing" checked={draft.firing === 'probability'} onChange={() => set('firing')('probability')} /> With a probability</label>
      <div class="row narrow">
        {draft.firing === 'times'
          ? <TextField label="Times" name="times" value={draft.times} onValue={set('times')} problem={problem} type="number" hint="The next N matching calls; default 1" />
          : <TextField label="Probability" name="probability" value={draft.probability} onValue={set('probability')} problem={problem} inputMode="numeric" hint="More than 0, at most 1; on each matching call until deleted" />}
        {draws(draft) ? <TextField label="Seed" name="seed" value={draft.seed} onValue={set('seed')} problem={problem} inputMode="numeric" hint="The same seed draws the same on every run; empty: a random one, shown in the rule" /> : null}
      </div>
    </fieldset>
  );
}

/** The add-a-rule form; `onAdded` gets the rule the server made. */
export function FaultRuleForm({ keys, onAdded }: { keys: ApiKey[]; onAdded: (rule: FaultRule) => void }) {
  const { api, tenant } = useContext(ConsoleContext);
  const [draft, setDraft] = useState<Draft>(FRESH);
  const { busy, problem, run } = useAction();
  const problems = useOperationProblems();
  if (!tenant) return null;
  const listed = problems[draft.operation] ?? [];
  const chosen = chosenProblem(draft, listed);
  const set = (name: keyof Draft) => (value: string) => setDraft((now) => ({ ...now, [name]: value }));
  const keyName = (id: string) => keys.find((k) => k.id === id)?.name ?? id;
  const write = WRITE_OPERATIONS.includes(draft.operation);
  return (
    <form aria-label="New fault rule" onSubmit={async (event) => {
      event.preventDefault();
      const added = await run(() => api.post<FaultRule>(`/tenants/${seg(tenant.id)}/faults`, ruleOf(draft, listed)), (r) => `Fault rule added: ${r.problem ?? r.fault} on ${r.operation}.`);
      if (added) onAdded(added);
    }}>
      <div class="row narrow">
        <SelectField label="Operation" name="operation" value={draft.operation} options={INTEGRATION_OPERATIONS} onValue={set('operation')} problem={problem} />
        <SelectField label="Key" name="keyId" value={draft.keyId} options={keys.filter((k) => !k.revokedAtUtc).map((k) => k.id)} onValue={set('keyId')} problem={problem}
          blank="Any key of the tenant" labelOf={(id) => `${keyName(id)} (${id})`} />
        <SelectField label="Fault" name="fault" value={draft.fault} options={FAULT_KINDS} onValue={(v) => set('fault')(v)} problem={problem} hint={FAULT_HINTS[draft.fault]} />
      </div>
      {draft.fault === 'latency' ? <LatencyFields draft={draft} set={set} problem={problem} /> : null}
      {draft.fault === 'status' ? (
        <div class="row narrow">
          <SelectField label="Status" name="status" value={draft.status} options={STATUSES} onValue={set('status')} problem={problem} />
          {draft.status !== '500'
            ? <TextField label="Retry-After in seconds" name="retryAfterSeconds" value={draft.retryAfterSeconds} onValue={set('retryAfterSeconds')} problem={problem} type="number"
                hint={draft.status === '429' ? '1 to 3600; default 1' : '1 to 3600; none unless given'} />
            : null}
          {takesProblemType(draft)
            ? <SelectField label="Problem" name="problemType" value={draft.problemType} options={OTHER_PROBLEM_TYPES} onValue={set('problemType')} problem={problem}
                blank="Default: api.rate_limited" labelOf={(p) => PROBLEM_WORDS[p] ?? p} hint="The 429 the server answers while a request with the same Idempotency-Key runs" />
            : null}
        </div>
      ) : null}
      {draft.fault === 'problem' ? (
        // Full width: a code with its status and title is longer than a narrow field shows.
        <div class="row">
          <SelectField label="Problem" name="problem" value={chosen?.code ?? ''} options={listed.map((p) => p.code)} onValue={set('problem')} problem={problem}
            labelOf={(code) => { const p = listed.find((l) => l.code === code); return p ? `${p.status} ${code}: ${p.title}` : code; }}
            hint={chosen ? `The codes ${draft.operation} lists; one call asks for it with Prefer: problem=${chosen.code}` : `The codes ${draft.operation} lists`} />
          {problemTakesRetryAfter(draft, listed)
            ? <TextField label="Retry-After in seconds" name="retryAfterSeconds" value={draft.retryAfterSeconds} onValue={set('retryAfterSeconds')} problem={problem} type="number" hint="1 to 3600; default 1" />
            : null}
        </div>
      ) : null}
      {draft.fault === 'stall' ? (
        <div class="row narrow"><TextField label="Duration in ms" name="durationMs" value={draft.durationMs} onValue={set('durationMs')} problem={problem} type="number" hint="How long the body takes: 100 to 120,000; default 10,000" /></div>
      ) : null}
      {write ? (
        <div class="row narrow">
          {draft.fault === 'problem'
            ? <p class="hint note">A problem is answered before the write runs: nothing is written, nothing is stored for the Idempotency-Key.</p>
            : afterOnly(draft.fault)
            ? <p class="hint note">{draft.fault} strikes after the write: its effect is committed and its answer stored for the Idempotency-Key.</p>
            : <SelectField label="When" name="when" value={draft.when} options={FAULT_WHENS} onValue={set('when')} problem={problem} blank="Default: before" labelOf={(w) => WHEN_WORDS[w] ?? w}
                hint="after is the case idempotency exists for: a retry with the same key and body gets the stored answer" />}
        </div>
      ) : null}
      <FiringFields draft={draft} set={set} problem={problem} />
      <button type="submit" disabled={busy}>Add rule</button>
      <ProblemNotice problem={problem} shownFields={shownFields(draft, listed)} />
    </form>
  );
}
