// Generated from spec/openapi.yaml by `npm run gen:types`. Do not edit by hand.
export interface paths {
    "/api/v1/integration/orders": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Pull orders that changed
         * @description Orders of the key's tenant ordered by last change, oldest change first, with ties
         *     broken by id (`x-waybill-decision: D7`). Continue with `nextCursor` as `cursor`; a
         *     null `nextCursor` means the feed is caught up (D6). Archived orders are never returned.
         *
         *     Once caught up: "A caught-up consumer polls again later with `since` = the last
         *     `updatedAtUtc` it processed" (D6). "The boundary is inclusive: the feed returns items
         *     with `updatedAtUtc >= since`. Delivery is at-least-once, so consumers dedupe on
         *     `(id, updatedAtUtc)`" (D4).
         */
        get: operations["orderFeed"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/integration/trips": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Pull trips that changed
         * @description Trips of the key's tenant ordered by last change, oldest change first, ties broken
         *     by id (D7); the same cursor rules as the order feed (D5, D6).
         *
         *     Once caught up: "A caught-up consumer polls again later with `since` = the last
         *     `updatedAtUtc` it processed" (D6). "The boundary is inclusive: the feed returns items
         *     with `updatedAtUtc >= since`. Delivery is at-least-once, so consumers dedupe on
         *     `(id, updatedAtUtc)`. The trip feed follows the same rule" (D4).
         */
        get: operations["tripFeed"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/integration/orders/externalid/{externalId}/payment": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Attach a payment to an order by external id
         * @description Records a payment on the order. A repeated `paymentId` on the same order is answered
         *     200 and recorded once, the first amount winning; payments are allowed in any status
         *     of a live order, and recording one moves the order's `updatedAtUtc` (D10).
         */
        post: operations["attachPayment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/integration/orders/externalid/{externalId}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel an order by external id
         * @description Legal from New, InPlanning and Planned (the order leaves its trip); the order becomes
         *     `Cancelled` and the reason is kept in its history. From any other status the answer
         *     is 409 `orders.status.illegal` (D11). The body is optional; none is read as `{}`.
         */
        post: operations["cancelOrder"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/integration/orders/externalid/{externalId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Archive an order by external id
         * @description Legal unless the order is Planned or InProgress (then 409 `orders.status.illegal`).
         *     Afterwards the order is gone from the feed and every external-id call, a second
         *     archive included, answers 404 `orders.notFound` (D12). The operation takes no body;
         *     one that is sent is not read.
         */
        delete: operations["archiveOrder"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/integration/whoami": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Verify an API key
         * @description Which tenant and scopes the key resolves to. Requires no scope.
         */
        get: operations["whoami"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /**
         * Format: date-time
         * @description RFC 3339 UTC timestamp with milliseconds and `Z`, for example `2026-11-20T09:30:11.482Z` (D20).
         */
        UtcTimestamp: string;
        /**
         * @description An order status known to this version of the API; the `status` filter accepts these only (D9).
         * @enum {string}
         */
        OrderStatusName: "New" | "InPlanning" | "Planned" | "InProgress" | "FullyDelivered" | "PartiallyDelivered" | "Returned" | "Collected" | "PartiallyCollected" | "NotCollected" | "Refused" | "Cancelled" | "Closed";
        /**
         * @description The order's status, by name. Known values are listed in `x-extensible-enum`; values
         *     may be added later, and a consumer treats an unknown value as not final (D27).
         * @example New
         * @example InPlanning
         * @example Planned
         * @example InProgress
         * @example FullyDelivered
         * @example PartiallyDelivered
         * @example Returned
         * @example Collected
         * @example PartiallyCollected
         * @example NotCollected
         * @example Refused
         * @example Cancelled
         * @example Closed
         */
        OrderStatus: string;
        /** @enum {string} */
        OrderType: "Delivery" | "Pickup" | "Return" | "Rebox";
        /** @description An order as the feed reports it and the writes return it. All fields are always present. */
        Order: {
            /**
             * Format: uuid
             * @description The order's id in the service.
             */
            id: string;
            /**
             * @description Id under which the source system created the order; null for an order created inside the service.
             * @example SHOP-100245
             * @example SHOP-100251
             * @example SHOP-100263
             * @example SHOP-100270
             * @example SHOP-100288
             * @example null
             */
            externalId: string | null;
            /**
             * @description Short human-readable code operators use for the order.
             * @example ORD-7K2M9
             * @example ORD-4KX9P
             * @example ORD-9QH3T
             * @example ORD-2MZ8W
             * @example ORD-6RC4N
             * @example ORD-8VB5J
             */
            shortId: string;
            status: components["schemas"]["OrderStatus"];
            /**
             * @description Tenant-configured sub-status label within the current status; null when none is set.
             * @example null
             * @example null
             * @example Awaiting pickup slot
             * @example Customer called ahead
             */
            miniStatus: string | null;
            type: components["schemas"]["OrderType"];
            /**
             * @description Reference sent by the source system, stored and returned unchanged.
             * @example PO-88123
             * @example PO-88131
             * @example PO-90417
             * @example null
             */
            customId: string | null;
            createdAtUtc: components["schemas"]["UtcTimestamp"];
            updatedAtUtc: components["schemas"]["UtcTimestamp"];
            /** @description Ids of the tags on the order; always an array, possibly empty. */
            tags: string[];
        };
        /** @description A page of the order feed. */
        OrderPage: {
            items: components["schemas"]["Order"][];
            /** @description Pass back unchanged as `cursor`; null means the feed is caught up (D6). */
            nextCursor: string | null;
        };
        /**
         * @description A trip status (D16).
         * @enum {string}
         */
        TripStatus: "Confirmed" | "InProgress" | "Completed" | "Cancelled";
        /** @description A trip as the feed reports it; field names and order are waybill's (D15). */
        Trip: {
            /**
             * Format: uuid
             * @description The trip's id (a uuid, D15).
             */
            id: string;
            /**
             * @description Short human-readable code operators use for the trip.
             * @example TRP-4KX9P
             * @example TRP-7M2QZ
             * @example TRP-3HN8V
             * @example TRP-5WD6R
             */
            shortId: string;
            status: components["schemas"]["TripStatus"];
            /**
             * Format: uuid
             * @description The warehouse the trip starts from (a uuid, D15).
             */
            warehouseId: string;
            /**
             * Format: uuid
             * @description The assigned driver (a uuid, D15); null when none.
             */
            driverId: string | null;
            /**
             * Format: uuid
             * @description The assigned vehicle (a uuid, D15); null when none.
             */
            vehicleId: string | null;
            /**
             * Format: int32
             * @description The number of stops.
             * @example 0
             * @example 2
             * @example 5
             * @example 8
             * @example 12
             */
            stopCount: number;
            plannedAtUtc: components["schemas"]["UtcTimestamp"];
            updatedAtUtc: components["schemas"]["UtcTimestamp"];
        };
        /** @description A page of the trip feed. */
        TripPage: {
            items: components["schemas"]["Trip"][];
            /** @description Pass back unchanged as `cursor`; null means the feed is caught up (D6). */
            nextCursor: string | null;
        };
        /** @description A payment collected by the source system. Unknown fields are ignored (D19). */
        PaymentRequest: {
            /**
             * Format: uuid
             * @description Id of the payment in the system that collected it.
             */
            paymentId: string;
            /**
             * Format: double
             * @description Amount paid; a finite number above zero.
             */
            amount: number;
            /** @description A three-letter upper-case ISO 4217 currency code. */
            currency: string;
        };
        /** @description Why the order is cancelled. The body is optional (D11); unknown fields are ignored (D19). */
        CancelRequest: {
            /** @description Why the order was cancelled; recorded in the order's history. */
            reason?: string;
        };
        /** @description What an API key resolves to. */
        KeyIdentity: {
            /**
             * @description The tenant all calls with this key read and write.
             * @example 8e4f2a6c-1b3d-4f5e-9a7b-c2d4e6f8a0b1
             */
            tenantId: string;
            /**
             * @description The key's id, visible to the tenant's administrator in the key list.
             * @example key_3Lk9QmZ2
             * @example key_8Hq2VnT4
             * @example key_1Zr5WmY7
             */
            keyId: string;
            /**
             * @description Scopes granted to the key (D2).
             * @example [
             *       "orders:read",
             *       "orders:write",
             *       "trips:read"
             *     ]
             * @example [
             *       "orders:read",
             *       "trips:read"
             *     ]
             * @example [
             *       "orders:read"
             *     ]
             * @example [
             *       "trips:read"
             *     ]
             * @example []
             */
            scopes: string[];
        };
        /** @description One field's failure in a 400 body. */
        FieldError: {
            /** @description Name of the offending field, spelled as the request spells it. */
            field: string;
            /** @description Stable machine-readable code for this field's failure. */
            code: string;
            /** @description The rejected value; null when it was not safe to echo. */
            value: string | null;
            /** @description Human-readable explanation. */
            message: string;
        };
        /** @description The body of a 400 answer (RFC 9457). */
        ValidationProblem: {
            /** @description Stable machine-readable error code from the catalog. */
            type: string;
            title: string;
            /**
             * Format: int32
             * @constant
             */
            status: 400;
            detail: string | null;
            instance?: string | null;
            /** @description Omitted when the failure has no field-level context. */
            errors?: components["schemas"]["FieldError"][];
            /** @description Set only by the dispatcher application's manual planning operations, never by integration operations. */
            overridable?: boolean | null;
        };
        /** @description The body of a 401, 403, 404, 408, 409, 413, 415, 429 or 500 answer (RFC 9457). */
        Problem: {
            /** @description The catalog code; `about:blank` for 401, 403 and 500 (D3). */
            type: string | null;
            title: string | null;
            /** Format: int32 */
            status: number | null;
            detail?: string | null;
            instance?: string | null;
        };
        /** @description The body of a 400 answered as FeedBadRequest (by `orderFeed` and `tripFeed`): `type` is one of the codes they can answer with 400 (D91). */
        FeedBadRequestProblem: components["schemas"]["ValidationProblem"] & {
            /** @enum {string} */
            type?: "api.malformed_request";
        };
        /** @description The body of a 400 answered as PaymentBadRequest (by `attachPayment`): `type` is one of the codes it can answer with 400 (D91). */
        PaymentBadRequestProblem: components["schemas"]["ValidationProblem"] & {
            /** @enum {string} */
            type?: "api.malformed_request" | "payments.amount.invalid" | "payments.currency.invalid";
        };
        /** @description The body of a 400 answered as WriteBadRequest (by `cancelOrder`): `type` is one of the codes it can answer with 400 (D91). */
        WriteBadRequestProblem: components["schemas"]["ValidationProblem"] & {
            /** @enum {string} */
            type?: "api.malformed_request";
        };
        /** @description The body of a 400 answered as IdempotencyKeyBadRequest (by `archiveOrder`): `type` is one of the codes it can answer with 400 (D91). */
        IdempotencyKeyBadRequestProblem: components["schemas"]["ValidationProblem"] & {
            /** @enum {string} */
            type?: "api.malformed_request";
        };
        /** @description The body of a 401 answered as Unauthorized (by 6 operations): `type` is one of the codes they can answer with 401 (D91). */
        UnauthorizedProblem: components["schemas"]["Problem"] & {
            type?: "about:blank" | null;
        };
        /** @description The body of a 403 answered as Forbidden (by 5 operations): `type` is one of the codes they can answer with 403 (D91). */
        ForbiddenProblem: components["schemas"]["Problem"] & {
            type?: "about:blank" | null;
        };
        /** @description The body of a 404 answered as OrderNotFound (by `attachPayment`, `cancelOrder` and `archiveOrder`): `type` is one of the codes they can answer with 404 (D91). */
        OrderNotFoundProblem: components["schemas"]["Problem"] & {
            type?: "orders.notFound" | null;
        };
        /** @description The body of a 409 answered as TenantConflict (by `attachPayment`): `type` is one of the codes it can answer with 409 (D91). */
        TenantConflictProblem: components["schemas"]["Problem"] & {
            type?: ("tenants.tenant.suspended" | "tenants.tenant.archived") | null;
        };
        /** @description The body of a 409 answered as OrderConflict (by `cancelOrder` and `archiveOrder`): `type` is one of the codes they can answer with 409 (D91). */
        OrderConflictProblem: components["schemas"]["Problem"] & {
            type?: ("orders.status.illegal" | "tenants.tenant.suspended" | "tenants.tenant.archived") | null;
        };
        /** @description The body of a 408 answered as RequestBodyIncomplete (by `attachPayment` and `cancelOrder`): `type` is one of the codes they can answer with 408 (D91). */
        RequestBodyIncompleteProblem: components["schemas"]["Problem"] & {
            type?: "api.request_body_incomplete" | null;
        };
        /** @description The body of a 413 answered as PayloadTooLarge (by `attachPayment` and `cancelOrder`): `type` is one of the codes they can answer with 413 (D91). */
        PayloadTooLargeProblem: components["schemas"]["Problem"] & {
            type?: "api.payload_too_large" | null;
        };
        /** @description The body of a 415 answered as UnsupportedMediaType (by `attachPayment` and `cancelOrder`): `type` is one of the codes they can answer with 415 (D91). */
        UnsupportedMediaTypeProblem: components["schemas"]["Problem"] & {
            type?: ("api.malformed_request" | "api.unsupported_media_type") | null;
        };
        /** @description The body of a 429 answered as RateLimited (by `orderFeed`, `tripFeed` and `whoami`): `type` is one of the codes they can answer with 429 (D91). */
        RateLimitedProblem: components["schemas"]["Problem"] & {
            type?: "api.rate_limited" | null;
        };
        /** @description The body of a 429 answered as WriteTooManyRequests (by `attachPayment`, `cancelOrder` and `archiveOrder`): `type` is one of the codes they can answer with 429 (D91). */
        WriteTooManyRequestsProblem: components["schemas"]["Problem"] & {
            type?: ("api.rate_limited" | "idempotency.inFlight") | null;
        };
        /** @description The body of a 400 answered as MalformedRequest (by `whoami`): `type` is one of the codes it can answer with 400 (D91). */
        MalformedRequestProblem: components["schemas"]["ValidationProblem"] & {
            /** @enum {string} */
            type?: "api.malformed_request";
        };
        /** @description The body of a 417 answered as ExpectationFailed (by 6 operations): `type` is one of the codes they can answer with 417 (D91). */
        ExpectationFailedProblem: components["schemas"]["Problem"] & {
            type?: "about:blank" | null;
        };
        /** @description The body of a 500 answered as InternalError (by 6 operations): `type` is one of the codes they can answer with 500 (D91). */
        InternalErrorProblem: components["schemas"]["Problem"] & {
            type?: "about:blank" | null;
        };
        /** @description The body of a 503 answered as ServiceUnavailable (by 6 operations): `type` is one of the codes they can answer with 503 (D91). */
        ServiceUnavailableProblem: components["schemas"]["Problem"] & {
            type?: "about:blank" | null;
        };
    };
    responses: {
        /** @description The order after the write. */
        OrderAfterWrite: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Order"];
            };
        };
        /** @description A query parameter is invalid (D5, D8, D9). */
        FeedBadRequest: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["FeedBadRequestProblem"];
            };
        };
        /** @description The body or a header is invalid. */
        PaymentBadRequest: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["PaymentBadRequestProblem"];
            };
        };
        /** @description The body or a header is invalid. */
        WriteBadRequest: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["WriteBadRequestProblem"];
            };
        };
        /** @description The `Idempotency-Key` header is invalid or was used for another request (D13). */
        IdempotencyKeyBadRequest: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["IdempotencyKeyBadRequestProblem"];
            };
        };
        /** @description Missing, unknown or revoked API key (D3, D22). */
        Unauthorized: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["UnauthorizedProblem"];
            };
        };
        /** @description The key lacks the operation's scope (D2, D3). */
        Forbidden: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["ForbiddenProblem"];
            };
        };
        /** @description No live order of the key's tenant carries the external id (D12). */
        OrderNotFound: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["OrderNotFoundProblem"];
            };
        };
        /** @description The tenant is suspended or archived and refuses writes (D22). */
        TenantConflict: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["TenantConflictProblem"];
            };
        };
        /** @description The move is not legal from the order's status (D11, D12), or the tenant refuses writes (D22). */
        OrderConflict: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["OrderConflictProblem"];
            };
        };
        /** @description The body ended before its declared `Content-Length` (D18). */
        RequestBodyIncomplete: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["RequestBodyIncompleteProblem"];
            };
        };
        /** @description The body is over 1 MiB (D18). */
        PayloadTooLarge: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["PayloadTooLargeProblem"];
            };
        };
        /**
         * @description The body is not `application/json` (`api.unsupported_media_type`), or a body came
         *     with no `Content-Type` at all (`api.malformed_request`, status 415) (D17).
         */
        UnsupportedMediaType: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["UnsupportedMediaTypeProblem"];
            };
        };
        /** @description The key's rate limit is exhausted (D14). */
        RateLimited: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Retry-After": components["headers"]["Retry-After"];
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["RateLimitedProblem"];
            };
        };
        /** @description The key's rate limit is exhausted (D14), or a request with the same `Idempotency-Key` is still in flight (D13). */
        WriteTooManyRequests: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Retry-After": components["headers"]["Retry-After"];
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["WriteTooManyRequestsProblem"];
            };
        };
        /**
         * @description The request could not be read as HTTP/1.1: a head too large or badly formed, no
         *     `Host`, a target that is no URL. The server answers before any operation runs, so
         *     even an operation that takes no input can answer it (D60).
         */
        MalformedRequest: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["MalformedRequestProblem"];
            };
        };
        /**
         * @description The request's `Expect` asks for something other than `100-continue`, which the server
         *     cannot meet (RFC 9110 §10.1.1); it is refused before the request is read. The catalog
         *     has no code for it, so the `type` is `about:blank` (D60).
         */
        ExpectationFailed: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["ExpectationFailedProblem"];
            };
        };
        /** @description Unexpected failure; the request id identifies it in the server's log. */
        InternalError: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["InternalErrorProblem"];
            };
        };
        /**
         * @description The service cannot answer for now; retry later, after `Retry-After` when it is given.
         *     The reference sandbox answers it only when a fault rule or `Prefer: fault=503` asks
         *     for it (D51); the catalog's 503 codes belong to the planning engine, so the `type`
         *     is `about:blank` (D3).
         */
        ServiceUnavailable: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                /** @description Whole seconds to wait before retrying, at least 1, when the server knows. */
                "Retry-After"?: number;
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["ServiceUnavailableProblem"];
            };
        };
    };
    parameters: {
        /**
         * @description Start the feed from this point in time, compared against `updatedAtUtc`. Inclusive:
         *     items with `updatedAtUtc >= since` are returned (D4). Ignored when `cursor` is sent (D5).
         *     A value that is not an RFC 3339 date-time is 400 `api.malformed_request`, field `since` (D9).
         * @example 2026-11-20T00:00:00.000Z
         */
        Since: string;
        /**
         * @description The `nextCursor` of the previous page, passed back unchanged. Opaque and signed; a
         *     value the server did not issue is 400 `api.malformed_request`, field `cursor` (D5).
         */
        Cursor: string;
        /**
         * @description Page size; default 50. Values above 100 are capped at 100, not refused. A value
         *     below 1 or not an integer is 400 `api.malformed_request`, field `limit` (D8).
         */
        Limit: number;
        /**
         * @description Repeat to keep only those statuses (`?status=New&status=Planned`). An unknown
         *     status is 400 `api.malformed_request`, field `status` (D9).
         */
        OrderStatusFilter: components["schemas"]["OrderStatusName"][];
        /**
         * @description Repeat to keep only those trip statuses. An unknown status is 400
         *     `api.malformed_request`, field `status` (D9, D16).
         */
        TripStatusFilter: components["schemas"]["TripStatus"][];
        /**
         * @description The id under which the source system created the order.
         * @example SHOP-100245
         */
        ExternalId: string;
        /**
         * @description Optional. 1–255 visible ASCII characters, scoped to the key's tenant. A completed
         *     request is replayed for 24 hours with the same status and body and
         *     `Idempotent-Replayed: true`; the same key with another method, path or body is 400
         *     `api.malformed_request`, field `Idempotency-Key`; while the first request runs, 429
         *     `idempotency.inFlight`. 5xx and 429 answers are not stored (D13).
         * @example pay-SHOP-100245-7f3c1a9e
         */
        PaymentIdempotencyKey: string;
        /**
         * @description Optional. 1–255 visible ASCII characters, scoped to the key's tenant. A completed
         *     request is replayed for 24 hours with the same status and body and
         *     `Idempotent-Replayed: true`; the same key with another method, path or body is 400
         *     `api.malformed_request`, field `Idempotency-Key`; while the first request runs, 429
         *     `idempotency.inFlight`. 5xx and 429 answers are not stored (D13).
         * @example cancel-SHOP-100245-2b6d0f41
         */
        CancelIdempotencyKey: string;
        /**
         * @description Optional. 1–255 visible ASCII characters, scoped to the key's tenant. A completed
         *     request is replayed for 24 hours with the same status and body and
         *     `Idempotent-Replayed: true`; the same key with another method, path or body is 400
         *     `api.malformed_request`, field `Idempotency-Key`; while the first request runs, 429
         *     `idempotency.inFlight`. 5xx and 429 answers are not stored (D13).
         * @example archive-SHOP-100245-9e4a7c13
         */
        ArchiveIdempotencyKey: string;
        /**
         * @description Optional request id, echoed on the answer. A value that is not 1–128 visible ASCII
         *     characters is not echoed; the server issues its own instead (D23).
         */
        RequestId: string;
    };
    requestBodies: never;
    headers: {
        /**
         * @description The request's id, echoed when the client sent one, issued otherwise (D23).
         * @example req_4bq0m2xk7dpa
         */
        "X-Request-Id": string;
        /**
         * @description The key's quota, requests per minute (D14).
         * @example 600
         */
        "RateLimit-Limit": number;
        /**
         * @description Requests the key can still make now without waiting (D14).
         * @example 599
         */
        "RateLimit-Remaining": number;
        /**
         * @description Seconds until the key can make one more request than `RateLimit-Remaining` says (D14); on a 429 the same instant as `Retry-After`. With `RateLimit-Remaining` 0, wait this long before the next request.
         * @example 1
         */
        "RateLimit-Reset": number;
        /**
         * @description Whole seconds to wait before retrying, at least 1 (D13, D14).
         * @example 12
         */
        "Retry-After": number;
        /** @description Present, with value `true`, when the answer is a replay of a stored answer (D13). */
        "Idempotent-Replayed": "true";
        /**
         * @description The authentication schemes the API accepts (D3).
         * @example ApiKey realm="waybill", header="X-Api-Key", Bearer realm="waybill"
         */
        "WWW-Authenticate": string;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    orderFeed: {
        parameters: {
            query?: {
                /**
                 * @description Start the feed from this point in time, compared against `updatedAtUtc`. Inclusive:
                 *     items with `updatedAtUtc >= since` are returned (D4). Ignored when `cursor` is sent (D5).
                 *     A value that is not an RFC 3339 date-time is 400 `api.malformed_request`, field `since` (D9).
                 * @example 2026-11-20T00:00:00.000Z
                 */
                since?: components["parameters"]["Since"];
                /**
                 * @description The `nextCursor` of the previous page, passed back unchanged. Opaque and signed; a
                 *     value the server did not issue is 400 `api.malformed_request`, field `cursor` (D5).
                 */
                cursor?: components["parameters"]["Cursor"];
                /**
                 * @description Page size; default 50. Values above 100 are capped at 100, not refused. A value
                 *     below 1 or not an integer is 400 `api.malformed_request`, field `limit` (D8).
                 */
                limit?: components["parameters"]["Limit"];
                /**
                 * @description Repeat to keep only those statuses (`?status=New&status=Planned`). An unknown
                 *     status is 400 `api.malformed_request`, field `status` (D9).
                 */
                status?: components["parameters"]["OrderStatusFilter"];
            };
            header?: {
                /**
                 * @description Optional request id, echoed on the answer. A value that is not 1–128 visible ASCII
                 *     characters is not echoed; the server issues its own instead (D23).
                 */
                "X-Request-Id"?: components["parameters"]["RequestId"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the order feed. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OrderPage"];
                };
            };
            400: components["responses"]["FeedBadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            417: components["responses"]["ExpectationFailed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    tripFeed: {
        parameters: {
            query?: {
                /**
                 * @description Start the feed from this point in time, compared against `updatedAtUtc`. Inclusive:
                 *     items with `updatedAtUtc >= since` are returned (D4). Ignored when `cursor` is sent (D5).
                 *     A value that is not an RFC 3339 date-time is 400 `api.malformed_request`, field `since` (D9).
                 * @example 2026-11-20T00:00:00.000Z
                 */
                since?: components["parameters"]["Since"];
                /**
                 * @description The `nextCursor` of the previous page, passed back unchanged. Opaque and signed; a
                 *     value the server did not issue is 400 `api.malformed_request`, field `cursor` (D5).
                 */
                cursor?: components["parameters"]["Cursor"];
                /**
                 * @description Page size; default 50. Values above 100 are capped at 100, not refused. A value
                 *     below 1 or not an integer is 400 `api.malformed_request`, field `limit` (D8).
                 */
                limit?: components["parameters"]["Limit"];
                /**
                 * @description Repeat to keep only those trip statuses. An unknown status is 400
                 *     `api.malformed_request`, field `status` (D9, D16).
                 */
                status?: components["parameters"]["TripStatusFilter"];
            };
            header?: {
                /**
                 * @description Optional request id, echoed on the answer. A value that is not 1–128 visible ASCII
                 *     characters is not echoed; the server issues its own instead (D23).
                 */
                "X-Request-Id"?: components["parameters"]["RequestId"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the trip feed. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TripPage"];
                };
            };
            400: components["responses"]["FeedBadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            417: components["responses"]["ExpectationFailed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    attachPayment: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Optional. 1–255 visible ASCII characters, scoped to the key's tenant. A completed
                 *     request is replayed for 24 hours with the same status and body and
                 *     `Idempotent-Replayed: true`; the same key with another method, path or body is 400
                 *     `api.malformed_request`, field `Idempotency-Key`; while the first request runs, 429
                 *     `idempotency.inFlight`. 5xx and 429 answers are not stored (D13).
                 * @example pay-SHOP-100245-7f3c1a9e
                 */
                "Idempotency-Key"?: components["parameters"]["PaymentIdempotencyKey"];
                /**
                 * @description Optional request id, echoed on the answer. A value that is not 1–128 visible ASCII
                 *     characters is not echoed; the server issues its own instead (D23).
                 */
                "X-Request-Id"?: components["parameters"]["RequestId"];
            };
            path: {
                /**
                 * @description The id under which the source system created the order.
                 * @example SHOP-100245
                 */
                externalId: components["parameters"]["ExternalId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PaymentRequest"];
            };
        };
        responses: {
            200: components["responses"]["OrderAfterWrite"];
            400: components["responses"]["PaymentBadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["OrderNotFound"];
            408: components["responses"]["RequestBodyIncomplete"];
            409: components["responses"]["TenantConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            417: components["responses"]["ExpectationFailed"];
            429: components["responses"]["WriteTooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    cancelOrder: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Optional. 1–255 visible ASCII characters, scoped to the key's tenant. A completed
                 *     request is replayed for 24 hours with the same status and body and
                 *     `Idempotent-Replayed: true`; the same key with another method, path or body is 400
                 *     `api.malformed_request`, field `Idempotency-Key`; while the first request runs, 429
                 *     `idempotency.inFlight`. 5xx and 429 answers are not stored (D13).
                 * @example cancel-SHOP-100245-2b6d0f41
                 */
                "Idempotency-Key"?: components["parameters"]["CancelIdempotencyKey"];
                /**
                 * @description Optional request id, echoed on the answer. A value that is not 1–128 visible ASCII
                 *     characters is not echoed; the server issues its own instead (D23).
                 */
                "X-Request-Id"?: components["parameters"]["RequestId"];
            };
            path: {
                /**
                 * @description The id under which the source system created the order.
                 * @example SHOP-100245
                 */
                externalId: components["parameters"]["ExternalId"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["CancelRequest"];
            };
        };
        responses: {
            200: components["responses"]["OrderAfterWrite"];
            400: components["responses"]["WriteBadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["OrderNotFound"];
            408: components["responses"]["RequestBodyIncomplete"];
            409: components["responses"]["OrderConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            417: components["responses"]["ExpectationFailed"];
            429: components["responses"]["WriteTooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    archiveOrder: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Optional. 1–255 visible ASCII characters, scoped to the key's tenant. A completed
                 *     request is replayed for 24 hours with the same status and body and
                 *     `Idempotent-Replayed: true`; the same key with another method, path or body is 400
                 *     `api.malformed_request`, field `Idempotency-Key`; while the first request runs, 429
                 *     `idempotency.inFlight`. 5xx and 429 answers are not stored (D13).
                 * @example archive-SHOP-100245-9e4a7c13
                 */
                "Idempotency-Key"?: components["parameters"]["ArchiveIdempotencyKey"];
                /**
                 * @description Optional request id, echoed on the answer. A value that is not 1–128 visible ASCII
                 *     characters is not echoed; the server issues its own instead (D23).
                 */
                "X-Request-Id"?: components["parameters"]["RequestId"];
            };
            path: {
                /**
                 * @description The id under which the source system created the order.
                 * @example SHOP-100245
                 */
                externalId: components["parameters"]["ExternalId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Archived. No content. */
            204: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["IdempotencyKeyBadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["OrderNotFound"];
            409: components["responses"]["OrderConflict"];
            417: components["responses"]["ExpectationFailed"];
            429: components["responses"]["WriteTooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    whoami: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Optional request id, echoed on the answer. A value that is not 1–128 visible ASCII
                 *     characters is not echoed; the server issues its own instead (D23).
                 */
                "X-Request-Id"?: components["parameters"]["RequestId"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The key's identity. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["KeyIdentity"];
                };
            };
            400: components["responses"]["MalformedRequest"];
            401: components["responses"]["Unauthorized"];
            417: components["responses"]["ExpectationFailed"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
}
type FlattenedDeepRequired<T> = {
    [K in keyof T]-?: FlattenedDeepRequired<T[K] extends unknown[] | undefined | null ? Extract<T[K], unknown[]>[number] : T[K]>;
};
type ReadonlyArray<T> = [
    Exclude<T, undefined>
] extends [
    unknown[]
] ? Readonly<Exclude<T, undefined>> : Readonly<Exclude<T, undefined>[]>;
export const orderStatusNameValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["OrderStatusName"]> = ["New", "InPlanning", "Planned", "InProgress", "FullyDelivered", "PartiallyDelivered", "Returned", "Collected", "PartiallyCollected", "NotCollected", "Refused", "Cancelled", "Closed"];
export const orderTypeValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["OrderType"]> = ["Delivery", "Pickup", "Return", "Rebox"];
export const tripStatusValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["TripStatus"]> = ["Confirmed", "InProgress", "Completed", "Cancelled"];
export const feedBadRequestProblemTypeValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["FeedBadRequestProblem"]["type"]> = ["api.malformed_request"];
export const paymentBadRequestProblemTypeValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["PaymentBadRequestProblem"]["type"]> = ["api.malformed_request", "payments.amount.invalid", "payments.currency.invalid"];
export const writeBadRequestProblemTypeValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["WriteBadRequestProblem"]["type"]> = ["api.malformed_request"];
export const idempotencyKeyBadRequestProblemTypeValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["IdempotencyKeyBadRequestProblem"]["type"]> = ["api.malformed_request"];
export const unauthorizedProblemTypeOneOf0Values: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["UnauthorizedProblem"]["type"]> = ["about:blank"];
export const forbiddenProblemTypeOneOf0Values: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["ForbiddenProblem"]["type"]> = ["about:blank"];
export const orderNotFoundProblemTypeOneOf0Values: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["OrderNotFoundProblem"]["type"]> = ["orders.notFound"];
export const tenantConflictProblemTypeOneOf0Values: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["TenantConflictProblem"]["type"]> = ["tenants.tenant.suspended", "tenants.tenant.archived"];
export const orderConflictProblemTypeOneOf0Values: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["OrderConflictProblem"]["type"]> = ["orders.status.illegal", "tenants.tenant.suspended", "tenants.tenant.archived"];
export const requestBodyIncompleteProblemTypeOneOf0Values: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["RequestBodyIncompleteProblem"]["type"]> = ["api.request_body_incomplete"];
export const payloadTooLargeProblemTypeOneOf0Values: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["PayloadTooLargeProblem"]["type"]> = ["api.payload_too_large"];
export const unsupportedMediaTypeProblemTypeOneOf0Values: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["UnsupportedMediaTypeProblem"]["type"]> = ["api.malformed_request", "api.unsupported_media_type"];
export const rateLimitedProblemTypeOneOf0Values: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["RateLimitedProblem"]["type"]> = ["api.rate_limited"];
export const writeTooManyRequestsProblemTypeOneOf0Values: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["WriteTooManyRequestsProblem"]["type"]> = ["api.rate_limited", "idempotency.inFlight"];
export const malformedRequestProblemTypeValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["MalformedRequestProblem"]["type"]> = ["api.malformed_request"];
export const expectationFailedProblemTypeOneOf0Values: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["ExpectationFailedProblem"]["type"]> = ["about:blank"];
export const internalErrorProblemTypeOneOf0Values: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["InternalErrorProblem"]["type"]> = ["about:blank"];
export const serviceUnavailableProblemTypeOneOf0Values: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["ServiceUnavailableProblem"]["type"]> = ["about:blank"];
export const componentsHeadersIdempotentReplayedValues: ReadonlyArray<FlattenedDeepRequired<components>["headers"]["Idempotent-Replayed"]> = ["true"];
