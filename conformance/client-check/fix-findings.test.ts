/**
 * The fix sentence of a real client-check finding: the matrix's naive client that sends each
 * retry of a lost payment under a new Idempotency-Key is told what the example client does.
 */
import { describe, expect, it } from 'vitest';
import { checkClient, NAIVE_CLIENT } from '../../dev/testing/client-check/check-client.ts';

describe('the fix sentence of a client-check finding', () => {
  it('tells a client that retried a lost payment under a new key to keep one key for every attempt, citing the rule', async () => {
    const { byId } = await checkClient([NAIVE_CLIENT, 'new-key-per-retry'], { only: ['client.pay.answer-lost'] });
    const result = byId.get('client.pay.answer-lost')!;
    expect(result.outcome).toBe('fail');
    expect(result.findings.map((found) => [found.message, found.fix])).toContainEqual(['The retry carried a new Idempotency-Key', 'keep one Idempotency-Key for every attempt of the same write (client.idempotency.same-key)']);
    // Every other finding of the scenario carries a sentence too, its own or the scenario's.
    for (const found of result.findings) expect(found.fix).toMatch(/\(client\.idempotency\.same-key\)$/);
  }, 120_000);
});
