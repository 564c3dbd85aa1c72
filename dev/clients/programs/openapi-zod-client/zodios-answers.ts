/**
 * What the Zodios programs need that Zodios does not give by design: a call answers its body
 * only, so a plugin keeps the status and headers of the last answer; and with openapi-zod-client's
 * defaults a problem body (application/problem+json) is not typed, so its `type` is read from the
 * axios error as the unknown it is.
 */
import type { ZodiosPlugin } from '@zodios/core';
import { type AxiosResponse, isAxiosError } from 'axios';
import type { Answer } from '../steps.ts';

/** The headers of an axios response as fetch's Headers. */
function headersOf(response: AxiosResponse): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(response.headers)) if (value !== undefined && value !== null) headers.set(name, String(value));
  return headers;
}

/** A problem body's `type`, where the body is an object that has one. */
function problemTypeOf(body: unknown): string | null | undefined {
  if (typeof body !== 'object' || body === null || !('type' in body)) return undefined;
  return typeof body.type === 'string' ? body.type : null;
}

/** A plugin to `use` on the client, and `answer` that turns a call into an Answer with the status and headers the plugin kept. */
export function answers(): { plugin: ZodiosPlugin; answer<Body>(call: () => Promise<Body>): Promise<Answer<Body>> } {
  let last: AxiosResponse | undefined;
  return {
    plugin: {
      name: 'last-answer',
      response: async (_api, _config, response) => {
        last = response;
        return response;
      },
    },
    async answer(call) {
      try {
        const body = await call();
        if (last === undefined) throw new Error('the plugin saw no answer');
        return { status: last.status, body, problemType: undefined, headers: headersOf(last) };
      } catch (error) {
        if (!isAxiosError(error) || error.response === undefined) throw error;
        return { status: error.response.status, body: undefined, problemType: problemTypeOf(error.response.data), headers: headersOf(error.response) };
      }
    },
  };
}
