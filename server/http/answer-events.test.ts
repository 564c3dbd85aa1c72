/** Hooks on a response class's 'finish' and 'close' (answer-events.ts). */
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { onAnswerEvent } from './answer-events.ts';

/** A class of responses of its own, and one response of it. */
function responseClass() {
  const Response = class extends ServerResponse {};
  const make = () => new Response(new IncomingMessage(new Socket()));
  return { prototype: Response.prototype as ServerResponse, make };
}

describe('onAnswerEvent', () => {
  it('runs the hooks of an event before its listeners, in the order given, a hook given twice once', () => {
    const { prototype, make } = responseClass();
    const calls: string[] = [];
    const first = () => calls.push('first hook');
    onAnswerEvent(prototype, 'finish', first);
    onAnswerEvent(prototype, 'finish', () => calls.push('second hook'));
    onAnswerEvent(prototype, 'finish', first);
    const response = make();
    response.on('finish', () => calls.push('listener'));
    response.emit('finish');
    expect(calls).toEqual(['first hook', 'second hook', 'listener']);
  });

  it('hands each hook the response, and keeps its events apart', () => {
    const { prototype, make } = responseClass();
    const seen: [string, ServerResponse][] = [];
    onAnswerEvent(prototype, 'close', (response) => seen.push(['close', response]));
    const response = make();
    response.emit('finish');
    response.emit('close');
    expect(seen).toEqual([['close', response]]);
  });

  it('passes other events and their arguments on untouched, and touches no other class', () => {
    const { prototype, make } = responseClass();
    const hooked: string[] = [];
    onAnswerEvent(prototype, 'close', () => hooked.push('close'));
    const response = make();
    const got: unknown[][] = [];
    response.on('drain', (...args: unknown[]) => got.push(args));
    expect(response.emit('drain', 1, 'two')).toBe(true);
    expect(response.emit('drain')).toBe(true);
    expect(got).toEqual([[1, 'two'], []]);
    responseClass().make().emit('close');
    new ServerResponse(new IncomingMessage(new Socket())).emit('close');
    expect(hooked).toEqual([]);
  });
});
