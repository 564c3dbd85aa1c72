/**
 * HTTP: how the API treats the request as a message — media types, malformed, missing,
 * absent whatever their type (bodyless.ts), oversized, too deeply nested (depth.ts) and cut-off
 * bodies, unknown routes and methods, what comes before any operation (wire.ts) — and the
 * request id every answer carries (request-id.ts).
 * Every request here aims at an external id no order carries, so nothing changes even when a
 * target wrongly accepts one; but a missing body is sent for a live order (a body that is not
 * there records nothing either way), so that no 404 can come first.
 */
import { gzipSync } from 'node:zlib';
import { ExchangeError } from '../../transport/exchange.ts';
import { describeExchange, finding } from '../../engine/findings.ts';
import type { Check, CheckContext, Finding } from '../../engine/types/check.ts';
import type { HttpRequest, HttpResponse } from '../../engine/types/exchange.ts';
import { aboutBlankFindings, absentExternalId, expectProblem, paths, paymentBody, received } from '../support/order-requests.ts';
import { liveId } from '../support/write-answers.ts';
import { bodylessRequest } from './bodyless.ts';
import { bodyDepth } from './depth.ts';
import { operations } from '../../../spec/load.ts';
import { requestIdChecks } from './request-id.ts';
import { wireChecks } from './wire.ts';

const MiB = 1024 * 1024;

/** A payment body of exactly `bytes` bytes: a valid payment padded with an unknown member (ignored, D19). */
function paddedPayment(bytes: number): string {
  const head = JSON.stringify(paymentBody()).slice(0, -1);
  const open = `${head},"padding":"`;
  const close = '"}';
  return `${open}${'x'.repeat(bytes - open.length - close.length)}${close}`;
}

/** A payment on an absent order with `rawBody` sent as `contentType` (null: no Content-Type). */
function rawPayment(ctx: CheckContext, rawBody: string | Buffer, contentType: string | null): HttpRequest {
  return { method: 'POST', path: paths.payment(absentExternalId(ctx)), rawBody, contentType, verbatim: true };
}

/** A body of another media type: 415 api.unsupported_media_type. */
export const wrongMediaType: Check = {
  id: 'http.mediaType.wrong',
  family: 'http',
  title: 'a body of another media type is refused 415 api.unsupported_media_type',
  verifies: ['int.body.media-type', 'cat.api.unsupported-media-type'],
  fix: 'refuse a body sent with a media type other than application/json with 415 api.unsupported_media_type, before reading it (int.body.media-type, cat.api.unsupported-media-type)',
  requires: [],
  async run(ctx) {
    const findings: Finding[] = [];
    for (const contentType of ['text/plain', 'application/x-www-form-urlencoded']) {
      const response = await ctx.http.request(rawPayment(ctx, JSON.stringify(paymentBody()), contentType));
      findings.push(...expectProblem(response, { status: 415, type: 'api.unsupported_media_type' }, `a JSON payment sent as ${contentType}`));
    }
    return findings;
  },
};

/** A body without any Content-Type: 415 api.malformed_request, the catalog's own pairing (D17 adopts it). */
export const missingMediaType: Check = {
  id: 'http.mediaType.missing',
  family: 'http',
  title: 'a body without any Content-Type is refused 415 api.malformed_request',
  verifies: ['cat.api.no-content-type'],
  fix: 'refuse a body sent without any Content-Type with 415 api.malformed_request (cat.api.no-content-type)',
  requires: [],
  async run(ctx) {
    const response = await ctx.http.request(rawPayment(ctx, JSON.stringify(paymentBody()), null));
    return expectProblem(response, { status: 415, type: 'api.malformed_request' }, 'a JSON payment without Content-Type');
  },
};

/** Malformed JSON: 400 api.malformed_request. */
export const malformedJson: Check = {
  id: 'http.body.malformed',
  family: 'http',
  title: 'malformed JSON is refused 400 api.malformed_request',
  verifies: ['int.body.unreadable', 'cat.api.malformed-request'],
  fix: 'refuse a body that is not well-formed JSON with 400 api.malformed_request (int.body.unreadable, cat.api.malformed-request)',
  requires: [],
  async run(ctx) {
    const findings: Finding[] = [];
    const truncated = JSON.stringify(paymentBody()).slice(0, -12);
    for (const [described, text] of [['JSON cut short', truncated], ['single-quoted pseudo-JSON', "{'amount': 12.5}"]] as const) {
      const response = await ctx.http.request(rawPayment(ctx, text, 'application/json'));
      findings.push(...expectProblem(response, { status: 400, type: 'api.malformed_request' }, `a payment body of ${described}`));
    }
    return findings;
  },
};

/**
 * No body where one is required: 400 api.malformed_request. Sent for a live order, so that a
 * target which looks the order up before it reads the body cannot answer 404 first.
 */
export const missingBody: Check = {
  id: 'http.body.missing',
  family: 'http',
  title: 'a payment of a live order with Content-Type application/json but no body is refused 400 api.malformed_request',
  verifies: ['int.body.unreadable', 'cat.api.malformed-request'],
  fix: 'refuse a payment that says application/json but carries no body with 400 api.malformed_request (int.body.unreadable, cat.api.malformed-request)',
  requires: ['orders:payable:1'],
  async run(ctx) {
    const externalId = await liveId(ctx, 'payable');
    const response = await ctx.http.request({ method: 'POST', path: paths.payment(externalId), rawBody: '', contentType: 'application/json', verbatim: true });
    return expectProblem(response, { status: 400, type: 'api.malformed_request' }, `a payment of the live order ${externalId} with an empty body`);
  },
};

/** The 1 MiB limit: exactly 1 MiB is read, one byte more is 413 (D18). */
export const bodyLimit: Check = {
  id: 'http.body.limit',
  family: 'http',
  title: 'a body of exactly 1 MiB is read; one byte more is refused 413 api.payload_too_large',
  verifies: ['D18'],
  fix: 'read a body of up to 1 MiB (1,048,576 bytes) and refuse one a byte longer with 413 api.payload_too_large (D18)',
  requires: [],
  async run(ctx) {
    const findings: Finding[] = [];
    const atLimit = await ctx.http.request(rawPayment(ctx, paddedPayment(MiB), 'application/json'));
    if (atLimit.status === 413) {
      findings.push(finding(`a payment body of exactly 1 MiB (${MiB} bytes): ${describeExchange(atLimit.exchange)}`, 'read (any answer but 413; 404 orders.notFound here, as no order carries the id)', received(atLimit), atLimit.exchange));
    }
    const over = await ctx.http.request(rawPayment(ctx, paddedPayment(MiB + 1), 'application/json'));
    findings.push(...expectProblem(over, { status: 413, type: 'api.payload_too_large' }, `a payment body of 1 MiB + 1 byte (${MiB + 1} bytes)`));
    return findings;
  },
};

/** A body far over any payment's size (2 MiB): 413. */
export const bodyTooLarge: Check = {
  id: 'http.body.tooLarge',
  family: 'http',
  title: 'a 2 MiB body is refused 413 api.payload_too_large',
  verifies: ['cat.api.payload-too-large'],
  fix: "refuse a body over the server's size limit with 413 api.payload_too_large, an answer the client can read, instead of dropping the connection (cat.api.payload-too-large)",
  requires: [],
  async run(ctx) {
    const response = await ctx.http.request(rawPayment(ctx, paddedPayment(2 * MiB), 'application/json'));
    return expectProblem(response, { status: 413, type: 'api.payload_too_large' }, `a payment body of 2 MiB (${2 * MiB} bytes)`);
  },
};

/** A gzip-compressed body: 415 api.unsupported_media_type, with Accept-Encoding naming what is read (D47). */
export const contentEncoding: Check = {
  id: 'http.contentEncoding',
  family: 'http',
  title: 'a payment body sent with Content-Encoding: gzip is refused 415 api.unsupported_media_type, with Accept-Encoding',
  verifies: ['D47'],
  fix: 'refuse a body with a Content-Encoding other than identity with 415 api.unsupported_media_type, naming the coding, and send Accept-Encoding: identity with it (D47)',
  requires: [],
  async run(ctx) {
    const request = rawPayment(ctx, gzipSync(JSON.stringify(paymentBody())), 'application/json');
    const response = await ctx.http.request({ ...request, headers: { 'Content-Encoding': 'gzip' } });
    const findings = expectProblem(response, { status: 415, type: 'api.unsupported_media_type' }, 'a payment body compressed with gzip (Content-Encoding: gzip)');
    // RFC 9110 §15.5.16: a 415 for a coding asks for Accept-Encoding, so the client learns what is read.
    if (findings.length === 0 && response.headers['accept-encoding'] === undefined) {
      findings.push(finding(`the 415 to a gzip body: ${describeExchange(response.exchange)}: no Accept-Encoding`, 'Accept-Encoding naming the codings read (identity)', 'no Accept-Encoding header', response.exchange, 'send Accept-Encoding: identity with the 415 to an encoded body, naming the only coding the server reads (D47)'));
    }
    return findings;
  },
};

/** A payment whose body stops 100 bytes short of its Content-Length, then half-closes; the raw answer. */
function cutOffPayment(ctx: CheckContext, headers: string[] = []) {
  const base = new URL(ctx.target);
  const path = `${base.pathname.replace(/\/+$/, '')}${paths.payment(absentExternalId(ctx))}`;
  const sent = '{"paymentId":"';
  const head = [`POST ${path} HTTP/1.1`, `Host: ${base.host}`, ctx.authHeader('full'), 'Content-Type: application/json', `Content-Length: ${sent.length + 100}`, ...headers, '', ''].join('\r\n');
  // Half-closing says "no more bytes are coming", so the target can answer at once.
  return ctx.raw(`${head}${sent}`, { halfClose: true });
}

/** A body shorter than its Content-Length, the connection half-closed: 408 api.request_body_incomplete. */
export const bodyIncomplete: Check = {
  id: 'http.body.incomplete',
  family: 'http',
  title: 'a body that ends before its Content-Length is answered 408 api.request_body_incomplete',
  verifies: ['cat.api.body-incomplete'],
  fix: 'answer a body that ends before its Content-Length with 408 api.request_body_incomplete (cat.api.body-incomplete)',
  requires: [],
  async run(ctx) {
    const response = await cutOffPayment(ctx, ['Connection: close']);
    return expectProblem(response, { status: 408, type: 'api.request_body_incomplete' }, `a payment whose body stops 100 bytes short of its Content-Length`);
  },
};

/** The 408 to a cut-off body closes the connection: `Connection: close` on a connection the client left open (D18). */
export const bodyIncompleteClose: Check = {
  id: 'http.body.incomplete.close',
  family: 'http',
  title: 'the 408 to a body cut short says Connection: close, though the client asked to keep the connection',
  verifies: ['D18'],
  fix: 'close the connection after the 408 to a body cut short, and say so with Connection: close (D18)',
  requires: [],
  async run(ctx) {
    const response = await cutOffPayment(ctx, ['Connection: keep-alive']).catch((error: unknown) => {
      if (error instanceof ExchangeError) ctx.skip(`the cut-off body got no answer: ${error.message} (see http.body.incomplete)`);
      throw error;
    });
    // Whether a cut-off body is answered 408 at all is http.body.incomplete's rule.
    if (response.status !== 408) return ctx.skip(`the cut-off body was answered ${received(response)}, not 408 (see http.body.incomplete)`);
    const connection = response.headers['connection'];
    const options = (connection ?? '').split(',').map((option) => option.trim().toLowerCase());
    return options.includes('close') ? [] : [finding(`the 408 to a body cut short: ${describeExchange(response.exchange)}: the connection is kept`, 'Connection: close', connection === undefined ? 'no Connection header' : `Connection: ${connection}`, response.exchange)];
  },
};

/** An unknown path: 404 about:blank (D21). */
export const unknownRoute: Check = {
  id: 'http.route.unknown',
  family: 'http',
  title: 'a path with no operation is answered 404 as an about:blank problem',
  verifies: ['D21'],
  fix: 'answer a path that is no operation with 404 as an about:blank problem (D21)',
  requires: [],
  async run(ctx) {
    const probes: HttpRequest[] = [
      { method: 'GET', path: '/api/v1/integration/waybill-no-such-operation' },
      { method: 'POST', path: `${paths.archive(absentExternalId(ctx))}/refund`, body: paymentBody() },
    ];
    const findings: Finding[] = [];
    for (const probe of probes) {
      const response = await ctx.http.request(probe);
      const what = `${probe.method} on a path with no operation`;
      if (response.status !== 404) findings.push(finding(`${what}: ${describeExchange(response.exchange)}`, '404', received(response), response.exchange));
      else findings.push(...aboutBlankFindings(response, what));
    }
    return findings;
  },
};

/** The methods a path is probed with when it does not support them (HEAD and OPTIONS are left out: a server may answer them for any path). */
const PROBED_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** Every path of the contract, its parameters filled in, with the methods it supports and the others to probe it with. */
function methodProbes(externalId: string): { path: string; supported: string[]; probes: string[] }[] {
  const byPath = new Map<string, string[]>();
  for (const operation of operations.values()) byPath.set(operation.path, [...(byPath.get(operation.path) ?? []), operation.method.toUpperCase()]);
  return [...byPath].map(([template, supported]) => ({
    path: template.replace('{externalId}', encodeURIComponent(externalId)),
    supported,
    probes: PROBED_METHODS.filter((method) => !supported.includes(method)),
  }));
}

/** Every path of the contract with every other method: 405 with Allow naming the path's methods, about:blank (D21). */
export const methodNotAllowed: Check = {
  id: 'http.method.notAllowed',
  family: 'http',
  title: "a method a path does not support is answered 405 with Allow naming the path's methods, on every path of the contract",
  verifies: ['D21'],
  fix: 'answer a method a path does not support with 405, an about:blank problem, and an Allow header naming the methods the path does support (D21)',
  requires: [],
  async run(ctx) {
    const findings: Finding[] = [];
    for (const { path, supported, probes } of methodProbes(absentExternalId(ctx))) {
      for (const method of probes) {
        const response = await ctx.http.request({ method, path });
        const what = `${method} on a path that supports ${supported.join(', ')}`;
        if (response.status !== 405) {
          findings.push(finding(`${what}: ${describeExchange(response.exchange)}`, `405 with Allow: ${supported.join(', ')}`, received(response), response.exchange));
          continue;
        }
        const allow = (response.headers['allow'] ?? '').split(',').map((name) => name.trim().toUpperCase());
        if (!supported.every((name) => allow.includes(name)) || allow.includes(method)) {
          findings.push(finding(`${what}: ${describeExchange(response.exchange)}: Allow does not name the path's methods`, `Allow including ${supported.join(', ')}, not ${method}`, response.headers['allow'] === undefined ? 'no Allow header' : `Allow: ${response.headers['allow']}`, response.exchange, "list in the 405's Allow header every method the path supports, and not the one refused (D21)"));
        }
        findings.push(...aboutBlankFindings(response, what));
      }
    }
    return findings;
  },
};

/** The http family, in the order it runs. */
export const httpChecks: Check[] = [
  wrongMediaType,
  missingMediaType,
  malformedJson,
  missingBody,
  bodylessRequest,
  bodyLimit,
  bodyTooLarge,
  bodyDepth,
  contentEncoding,
  bodyIncomplete,
  bodyIncompleteClose,
  ...wireChecks,
  unknownRoute,
  methodNotAllowed,
  ...requestIdChecks,
];
