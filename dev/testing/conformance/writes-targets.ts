/**
 * Test support for the writes family's tests: the reference with its control plane, proxies and
 * store wraps that break one rule of the writes, and the statuses of the reference's orders.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import { writesChecks } from '../../../conformance/checks/writes/index.ts';
import type { Profile } from '../../../conformance/engine/types/profile.ts';
import type { SqliteStore } from '../../../server/store/index.ts';
import { TINY_DATASET_STATUSES } from '../sandbox.ts';
import { answerJson, type AnswerRewrite, type ProxiedAnswer, type ProxiedRequest, startProxy } from './proxy.ts';
import { runChecks, startReference, type ReferenceTarget } from './reference.ts';

const open: (() => Promise<void>)[] = [];

/** Closes every target, proxy and server the helpers below started (each test file's `afterEach`). */
export async function closeOpened(): Promise<void> {
  while (open.length > 0) await open.pop()!();
}

/** The reference with its control plane in the profile (writes.payment.recordedOnce reads the history there). */
export async function reference(options: Parameters<typeof startReference>[0] = {}): Promise<ReferenceTarget> {
  const target = await startReference({ sandbox: true, ...options });
  open.push(target.close);
  return target;
}

/** The profile of `target`, pointed at a proxy in front of it that rewrites answers. */
export async function behindProxy(target: ReferenceTarget, rewrite: AnswerRewrite): Promise<Profile> {
  const proxy = await startProxy(target.server.url, rewrite);
  open.push(proxy.close);
  return { ...target.profile, target: proxy.url };
}

/** tinyDataset cycles statuses by index (EXT-i has STATUS_AT[i % 9]), as reference.ts builds it. */
const STATUS_AT: readonly string[] = TINY_DATASET_STATUSES;

/** The status the reference's dataset gave the order `EXT-i`, or undefined for other ids. */
export function statusOf(externalId: string | undefined): string | undefined {
  const match = /^EXT-(\d+)$/.exec(externalId ?? '');
  return match === null ? undefined : STATUS_AT[Number(match[1]) % 9];
}

/**
 * The profile of `target`, pointed at a proxy that rewrites every JSON request body with
 * `transform` before forwarding it: a target that reads bodies more loosely than it should.
 */
export async function behindBodyRewrite(target: ReferenceTarget, transform: (body: Record<string, unknown>) => Record<string, unknown>): Promise<Profile> {
  const server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      void (async () => {
        let body: Buffer | string = Buffer.concat(chunks);
        try {
          const json = JSON.parse(body.toString('utf8')) as unknown;
          if (json !== null && typeof json === 'object' && !Array.isArray(json)) body = JSON.stringify(transform(json as Record<string, unknown>));
        } catch {
          // Not JSON: forwarded as it came.
        }
        const headers = Object.fromEntries(Object.entries(incoming.headers).filter(([name]) => !['host', 'content-length', 'connection'].includes(name)).map(([name, value]) => [name, String(value)]));
        const method = incoming.method ?? 'GET';
        const answer = await fetch(`${target.server.url}${incoming.url ?? '/'}`, { method, headers, ...(method === 'GET' || method === 'HEAD' || chunks.length === 0 ? {} : { body }) });
        const bytes = Buffer.from(await answer.arrayBuffer());
        const out: Record<string, string> = {};
        answer.headers.forEach((value, name) => {
          if (!['content-length', 'connection', 'transfer-encoding', 'keep-alive'].includes(name)) out[name] = value;
        });
        outgoing.writeHead(answer.status, answer.status === 204 ? out : { ...out, 'content-length': String(bytes.length) });
        outgoing.end(bytes);
      })().catch(() => outgoing.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  open.push(() => new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  }));
  return { ...target.profile, target: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** Runs the writes family; returns the ids of the failed checks, and fails the test on any error or skip. */
export async function failedChecks(profile: Profile): Promise<string[]> {
  const { report } = await runChecks(writesChecks, profile);
  expect(report.results.filter((result) => result.outcome === 'error' || result.outcome === 'skip').map((result) => [result.id, result.reason ?? result.error?.message])).toEqual([]);
  return report.results.filter((result) => result.outcome === 'fail').map((result) => result.id);
}

/** The external id a write's path names, or undefined for other paths. */
export function externalIdOf(request: ProxiedRequest): string | undefined {
  const match = /^\/api\/v1\/integration\/orders\/externalid\/([^/?]+)/.exec(request.url);
  return match === null ? undefined : decodeURIComponent(match[1]!);
}

/** Every external id of the profile's pools. */
export function poolIds(profile: Profile): Set<string> {
  return new Set(Object.values(profile.orders ?? {}).flat());
}

/** A JSON answer written by a proxy. */
export function jsonAnswer(status: number, body: unknown, contentType = status < 300 ? 'application/json' : 'application/problem+json'): ProxiedAnswer {
  return { status, headers: { 'content-type': contentType, 'x-request-id': 'req_proxy' }, body: Buffer.from(JSON.stringify(body)) };
}

/** A proxy rewrite that turns the 400 whose first field error matches into a 200: a target that does not validate that case. */
export function accepting(matches: (fieldError: { field?: unknown; value?: unknown }) => boolean): AnswerRewrite {
  return (answer) => {
    const errors = (answerJson(answer) as { errors?: { field?: unknown; value?: unknown }[] } | undefined)?.errors;
    return answer.status === 400 && errors?.[0] !== undefined && matches(errors[0]) ? jsonAnswer(200, {}) : answer;
  };
}

/** Replacements for the order writes of the store (plain functions, not transactions). */
export type OrderWrites = { [K in 'attachPayment' | 'cancel' | 'archive']?: (...args: Parameters<SqliteStore['orders'][K]>) => ReturnType<SqliteStore['orders'][K]> };

/** A store whose order writes are replaced by `orders(real)`. */
export function withOrders(orders: (real: SqliteStore['orders']) => OrderWrites) {
  return (store: SqliteStore): SqliteStore => ({ ...store, orders: { ...store.orders, ...orders(store.orders) } as SqliteStore['orders'] });
}

/**
 * A store that records a repeated paymentId (same order, same id) in the history again, as an
 * entry of `kind`, while the order and its answer stay as they were.
 */
export function recordingRepeatsAs(kind: 'payment' | 'paymentAmended'): (store: SqliteStore) => SqliteStore {
  const paid = new Set<string>();
  return (store) =>
    withOrders((real) => ({
      attachPayment: async (tenantId, externalId, payment) => {
        const result = await real.attachPayment(tenantId, externalId, payment);
        const key = `${tenantId} ${externalId} ${payment.paymentId}`;
        if (result.ok && paid.has(key)) {
          const orderId = (JSON.parse(result.orderJson) as { id: string }).id;
          await store.sql.write(tenantId, () => store.history.record(orderId, new Date().toISOString(), kind, payment));
        }
        paid.add(key);
        return result;
      },
    }))(store);
}

/** The profile of `target` behind a proxy that answers 204 to archiving an order on a trip, which the reference refuses 409 (D12). */
export async function archivingOnTrip(target: ReferenceTarget): Promise<Profile> {
  const onTrip = new Set(target.profile.orders!.onTrip);
  return behindProxy(target, (answer, request) =>
    answer.status === 409 && request.method === 'DELETE' && onTrip.has(externalIdOf(request) ?? '') ? { status: 204, headers: { 'x-request-id': 'req_proxy' }, body: Buffer.alloc(0) } : answer,
  );
}
