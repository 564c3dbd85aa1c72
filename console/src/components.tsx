/** Small building blocks every view uses: fields with their catalog errors, problem notices, actions. */
import type { ComponentChildren, JSX } from 'preact';
import { useContext, useEffect, useId, useState } from 'preact/hooks';
import { ApiProblem, errorsFor, type FieldError, type Problem, seg } from './api.ts';
import { ConsoleContext } from './context.ts';

/** The field errors under a field, each with its catalog code. */
export function FieldErrors({ id, errors }: { id: string; errors: FieldError[] }) {
  if (errors.length === 0) return null;
  return (
    <ul class="field-errors" id={id}>
      {errors.map((error) => (
        <li key={`${error.field}${error.code}`}>
          {error.message} <code>{error.code}</code>
          {error.field.includes('[') || error.field.includes('.') ? <span class="muted"> ({error.field})</span> : null}
        </li>
      ))}
    </ul>
  );
}

interface TextFieldProps {
  label: string;
  name: string;
  value: string;
  onValue: (value: string) => void;
  problem?: Problem | null;
  type?: string;
  required?: boolean;
  hint?: string;
  placeholder?: string;
  autoComplete?: string;
  multiline?: boolean;
  rows?: number;
  inputMode?: 'numeric' | 'text';
}

/** A labelled input whose problem field errors (`name`) show beneath it. */
export function TextField(props: TextFieldProps) {
  const id = useId();
  const errors = errorsFor(props.problem, props.name);
  const describedBy = [props.hint ? `${id}-hint` : '', errors.length ? `${id}-errors` : ''].filter(Boolean).join(' ') || undefined;
  const common = {
    id,
    name: props.name,
    value: props.value,
    required: props.required,
    placeholder: props.placeholder,
    'aria-invalid': errors.length > 0 ? true : undefined,
    'aria-describedby': describedBy,
    onInput: (event: JSX.TargetedEvent<HTMLInputElement | HTMLTextAreaElement>) => props.onValue(event.currentTarget.value),
  };
  return (
    <div class={`field${errors.length ? ' invalid' : ''}`}>
      <label for={id}>{props.label}</label>
      {props.multiline ? (
        <textarea {...common} rows={props.rows ?? 6} spellcheck={false} />
      ) : (
        <input {...common} type={props.type ?? 'text'} autoComplete={props.autoComplete ?? 'off'} inputMode={props.inputMode} />
      )}
      {props.hint ? <p class="hint" id={`${id}-hint`}>{props.hint}</p> : null}
      <FieldErrors id={`${id}-errors`} errors={errors} />
    </div>
  );
}

interface SelectFieldProps {
  label: string;
  name: string;
  value: string;
  options: readonly string[];
  onValue: (value: string) => void;
  problem?: Problem | null;
  blank?: string;
  hint?: string;
  /** What the option shows, when not its value. */
  labelOf?: (option: string) => string;
}

/** A labelled select whose problem field errors (`name`) show beneath it. */
export function SelectField(props: SelectFieldProps) {
  const id = useId();
  const errors = errorsFor(props.problem, props.name);
  const describedBy = [props.hint ? `${id}-hint` : '', errors.length ? `${id}-errors` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div class={`field${errors.length ? ' invalid' : ''}`}>
      <label for={id}>{props.label}</label>
      <select id={id} name={props.name} value={props.value} aria-invalid={errors.length > 0 ? true : undefined}
        aria-describedby={describedBy}
        onChange={(event) => props.onValue(event.currentTarget.value)}>
        {props.blank !== undefined ? <option value="">{props.blank}</option> : null}
        {props.options.map((option) => <option key={option} value={option}>{props.labelOf ? props.labelOf(option) : option}</option>)}
      </select>
      {props.hint ? <p class="hint" id={`${id}-hint`}>{props.hint}</p> : null}
      <FieldErrors id={`${id}-errors`} errors={errors} />
    </div>
  );
}

/**
 * A failed call: title, status, the catalog code (the problem type) and detail, and the
 * field errors no field of the form shows (`shownFields`). A type `about:blank` says only
 * that the status says it all (RFC 9457 §4.2.1), so it is not shown.
 */
export function ProblemNotice({ problem, shownFields = [] }: { problem: Problem | null; shownFields?: string[] }) {
  if (!problem) return null;
  const shown = (field: string) => shownFields.some((name) => field === name || field.startsWith(`${name}[`) || field.startsWith(`${name}.`));
  const rest = (problem.errors ?? []).filter((error) => !shown(error.field));
  return (
    <div class="problem" role="alert">
      <p class="problem-title">
        <strong>{problem.title}</strong>
        {problem.status ? <span> ({problem.status})</span> : null}
        {problem.type === 'about:blank' ? null : <> <code class="problem-type">{problem.type}</code></>}
      </p>
      {problem.detail ? <p>{problem.detail}</p> : null}
      {rest.length ? (
        <ul>
          {rest.map((error) => (
            <li key={`${error.field}${error.code}`}>
              <code>{error.field}</code>: {error.message} <code>{error.code}</code>
            </li>
          ))}
        </ul>
      ) : null}
      {problem.requestId ? <p class="muted">Request id <code>{problem.requestId}</code></p> : null}
    </div>
  );
}

/** An async action with its busy flag and its last problem; success is announced in the live region. */
export function useAction() {
  const { announce, signOutOn401 } = useContext(ConsoleContext);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<Problem | null>(null);
  async function run<T>(work: () => Promise<T>, success?: (result: T) => string): Promise<T | undefined> {
    setBusy(true);
    setProblem(null);
    try {
      const result = await work();
      if (success) announce(success(result));
      return result;
    } catch (error) {
      const found = error instanceof ApiProblem ? error.problem : { type: 'about:blank', title: 'Error', status: 0, detail: String(error) };
      setProblem(found);
      announce(`Failed: ${found.title}${found.detail ? `. ${found.detail}` : ''}`);
      signOutOn401(found);
      return undefined;
    } finally {
      setBusy(false);
    }
  }
  return { busy, problem, setProblem, run };
}

/** A titled section of a view. */
export function Panel({ title, children, headingLevel = 2 }: { title: string; children: ComponentChildren; headingLevel?: 2 | 3 }) {
  const id = useId();
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <section class="panel" aria-labelledby={id}>
      <Heading id={id}>{title}</Heading>
      {children}
    </section>
  );
}

/** A status word as a badge. */
export const Status = ({ value }: { value: string }) => <span class={`status status-${value.toLowerCase()}`}>{value}</span>;

/** A UTC timestamp, shortened for tables. */
export const When = ({ utc }: { utc: string | null }) => (utc ? <time dateTime={utc}>{utc.replace('T', ' ').replace(/\.\d+Z$/, 'Z')}</time> : <span class="muted">—</span>);

/** Copies `text` to the clipboard, or selects it for Ctrl+C where the clipboard is closed. */
export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const { announce } = useContext(ConsoleContext);
  return (
    <button type="button" class="secondary" onClick={async () => {
      try {
        await navigator.clipboard.writeText(text);
        announce('Copied to the clipboard.');
      } catch {
        announce('The clipboard is not available here: select the text and press Ctrl+C.');
      }
    }}>{label}</button>
  );
}

/** The `items` of a list of the chosen tenant (`/tags`, `/ministatuses`), loaded once per tenant, and a reload. */
export function useTenantItems<T>(path: string): [T[], () => void] {
  const { api, tenant } = useContext(ConsoleContext);
  const [items, setItems] = useState<T[]>([]);
  const load = () => {
    if (tenant) api.get<{ items: T[] }>(`/tenants/${seg(tenant.id)}${path}`).then((r) => setItems(r.items), () => setItems([]));
  };
  useEffect(load, [tenant?.id]);
  return [items, load];
}

/** A number from a field, or the text itself, so that the server refuses a bad value by name. */
export const numberOr = (text: string): number | string => (text.trim() !== '' && Number.isFinite(Number(text)) ? Number(text) : text);
