/** What the writer makes of a captured request that is not the database's: the time text. */
import { describe, expect, it } from 'vitest';
import { isoTime } from './writer.ts';

describe('isoTime', () => {
  it('writes what toISOString writes, within one second and across seconds, years and odd values', () => {
    const times: number[] = [];
    for (let n = 0; n < 2000; n++) times.push(Math.floor(Math.random() * 4_102_444_800_000));
    const now = Date.now();
    for (let n = 0; n < 1200; n++) times.push(now + n);
    times.push(0, 999, 1000, 1001, 1_800_000_000_000.75, -1, -62_198_755_200_000, 253_402_300_799_999, 253_402_300_800_000, 8.64e15);
    for (const time of times) expect(isoTime(time)).toBe(new Date(time).toISOString());
  });
});
