/**
 * Hooks on a response class's 'finish' and 'close', on its prototype: each response of the
 * class runs them when it emits the event, ahead of its listeners. What the server keeps of
 * every answer (its connection's order, the request log's entry) is thus no listener added
 * to every response: adding two to an event that has one makes each emit copy the list.
 */
import type { ServerResponse } from 'node:http';

/** What runs when a response emits the event. */
export type AnswerHook = (response: ServerResponse) => void;

/** The hooks of each prototype given some, by event. */
const hooksOf = new WeakMap<object, { finish: AnswerHook[]; close: AnswerHook[] }>();

/** Runs `hook` whenever a response of `prototype` emits `event`, before its listeners; a hook given twice runs once. */
export function onAnswerEvent(prototype: ServerResponse, event: 'finish' | 'close', hook: AnswerHook): void {
  let hooks = hooksOf.get(prototype);
  if (hooks === undefined) {
    const made = { finish: [] as AnswerHook[], close: [] as AnswerHook[] };
    hooksOf.set(prototype, (hooks = made));
    const emit = prototype.emit;
    prototype.emit = function emitAfterHooks(this: ServerResponse, name: string | symbol): boolean {
      const run = name === 'finish' ? made.finish : name === 'close' ? made.close : null;
      if (run !== null) for (let i = 0; i < run.length; i++) run[i]!(this);
      // Both events carry no argument: the common call passes none on.
      return arguments.length === 1 ? emit.call(this, name) : (Reflect.apply(emit, this, arguments) as boolean);
    } as ServerResponse['emit'];
  }
  if (!hooks[event].includes(hook)) hooks[event].push(hook);
}
