/**
 * Feed cursors (D5): an opaque, signed position `(updatedAtUtc, id)`. The text is
 * `base64url(JSON position) "." base64url(HMAC-SHA256)`; the MAC also covers the feed and
 * the tenant, so a cursor of another feed or tenant is as invalid as a forged one.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FeedPosition } from '../store/feed-sql.ts';

/**
 * What a cursor pages: a feed, an order's history (the control plane's audit list, D40), a
 * tenant's request log (D48), or the control plane's order or trip list (D87).
 */
export type FeedName = 'orders' | 'trips' | 'history' | 'requests' | 'order-list' | 'trip-list';

// requirement: D5
/** Encodes and verifies the cursors of one server (one signing key). */
export function makeCursorCodec(key: Buffer) {
  const mac = (feed: FeedName, tenantId: string, payload: string) =>
    createHmac('sha256', key).update(`${feed}\n${tenantId}\n${payload}`).digest();

  return {
    /** The cursor text of `position` in the tenant's `feed`. */
    encode(feed: FeedName, tenantId: string, position: FeedPosition): string {
      const payload = Buffer.from(JSON.stringify([position.updatedAt, position.id])).toString('base64url');
      return `${payload}.${mac(feed, tenantId, payload).toString('base64url')}`;
    },
    /** The position a cursor holds, or null when this server did not issue it for this feed and tenant. */
    decode(feed: FeedName, tenantId: string, cursor: string): FeedPosition | null {
      const [payload, signature, extra] = cursor.split('.');
      if (payload === undefined || signature === undefined || extra !== undefined) return null;
      // Compare the text, not decoded bytes: base64 decoding ignores a last character's spare bits.
      const expected = Buffer.from(mac(feed, tenantId, payload).toString('base64url'));
      const given = Buffer.from(signature);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
      try {
        const position: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
        if (Array.isArray(position) && position.length === 2 && position.every((part) => typeof part === 'string')) {
          return { updatedAt: position[0] as string, id: position[1] as string };
        }
      } catch {
        // A valid MAC over a payload we did not write cannot happen; treat it as not issued.
      }
      return null;
    },
  };
}

export type CursorCodec = ReturnType<typeof makeCursorCodec>;
