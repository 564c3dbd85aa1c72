// Generated from spec/sandbox.yaml by `npm run gen:types`. Do not edit by hand.
import type { components as integration } from './openapi-types.ts';

export interface paths {
    "/reset": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Reset the sandbox
         * @description Deletes every tenant with its keys, orders, trips, tags, mini-statuses and stored
         *     idempotent answers (the demo tenant included). The admin token and the cursor
         *     signing key stay (D38).
         */
        post: operations["resetSandbox"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/profiles": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Provision a conformance profile
         * @description Creates three fresh tenants and answers a conformance profile
         *     (`conformance/profile.schema.json`): the main tenant with every key of the profile,
         *     at least 120 orders over every status and type plus five disjoint pools of at least
         *     20 live orders each (`onTrip` mixing Planned and InProgress orders), and at least
         *     120 trips over every trip status; a second tenant, with orders and trips of its own,
         *     for `otherTenant`, its order pool and `trips.otherTenant`; a third, Suspended tenant
         *     for `suspendedTenant`. `target` and `sandbox.url` come from the request's own host.
         *     Two calls never share a tenant, a key, an order, a trip or an external id (D39). The
         *     body is optional: its `name` names the three tenants `<name> (main)`, `<name> (other
         *     tenant)` and `<name> (suspended)` (`waybill conformance` gives the run's label, D68);
         *     without it they are `Conformance profile <suffix> (…)`.
         */
        post: operations["createProfile"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tenants": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List tenants
         * @description Every tenant, oldest first; `state` keeps only the tenants in that lifecycle state.
         */
        get: operations["listTenants"];
        put?: never;
        /**
         * Create a tenant
         * @description Creates an Active tenant. `country` is required and must be an ISO 3166-1 alpha-2 code.
         */
        post: operations["createTenant"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tenants/{tenantId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a tenant
         * @description The tenant with its lifecycle state and capability skills, whatever its state: a
         *     Suspended or Archived tenant is read like an Active one. An unknown tenant is 404
         *     `about:blank` (D30).
         */
        get: operations["getTenant"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tenants/{tenantId}/suspend": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Suspend a tenant
         * @description Active → Suspended; a Suspended tenant stays Suspended. Its keys keep reading, its
         *     writes answer 409 `tenants.tenant.suspended` (D22). An Archived tenant cannot move (D31).
         */
        post: operations["suspendTenant"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tenants/{tenantId}/reactivate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Reactivate a suspended tenant
         * @description Suspended → Active; an Active tenant stays Active. An Archived tenant cannot move (D31).
         */
        post: operations["reactivateTenant"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tenants/{tenantId}/archive": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Archive a tenant
         * @description Active or Suspended → Archived, which is terminal; every later write answers 409 `tenants.tenant.archived` (D22, D31).
         */
        post: operations["archiveTenant"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tenants/{tenantId}/skills": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Replace the tenant's capability skills
         * @description Each skill is trimmed, then must be 1 to 64 characters; skills are unique
         *     case-insensitively; at most 100 (D32).
         */
        put: operations["setTenantSkills"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tenants/{tenantId}/keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the tenant's API keys
         * @description Every key of the tenant, revoked ones included, oldest first; never a secret.
         */
        get: operations["listApiKeys"];
        put?: never;
        /**
         * Create an API key
         * @description Creates a key of the tenant with a name, scopes from the catalog of D2 and a rate
         *     limit of 1 to 6000 requests per minute (default 600, D14). The answer is the only
         *     time the secret is shown; only its hash is stored.
         */
        post: operations["createApiKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tenants/{tenantId}/keys/{keyId}/revoke": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Revoke an API key
         * @description The key answers 401 from now on (D22). Revoking a revoked key is 409
         *     `apikeys.already_revoked`. Allowed in every tenant state (D31).
         */
        post: operations["revokeApiKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tenants/{tenantId}/tags": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the tenant's tags
         * @description Every tag of the tenant, ordered by name; an order names its tags by these ids.
         */
        get: operations["listTags"];
        put?: never;
        /**
         * Create a tag
         * @description A name of 1 to 64 characters, unique in the tenant case-insensitively, and a `#RRGGBB` colour (D34).
         */
        post: operations["createTag"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tenants/{tenantId}/tags/{tagId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Rename or recolour a tag
         * @description Changes the fields sent, with the rules of creation (D34).
         */
        patch: operations["updateTag"];
        trace?: never;
    };
    "/tenants/{tenantId}/ministatuses": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the mini-status directory
         * @description Every entry, inactive ones included, by status group and name.
         */
        get: operations["listMiniStatuses"];
        put?: never;
        /**
         * Add a mini-status to the directory
         * @description A name of 1 to 64 characters for one status group (an order status), unique
         *     case-insensitively among the group's active entries (D35).
         */
        post: operations["createMiniStatus"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tenants/{tenantId}/ministatuses/{miniStatusId}": {
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
         * Deactivate a mini-status
         * @description The entry stays in the directory as inactive; orders keep the label they carry, and
         *     it can no longer be set. An unknown or already inactive entry is 404 (D35).
         */
        delete: operations["deactivateMiniStatus"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tenants/{tenantId}/orders": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the tenant's orders
         * @description The tenant's live orders as the integration API's Order, newest-changed first: by
         *     `updatedAtUtc`, then `id`, descending. `sort=oldest` lists them oldest first, the
         *     order feed's order. An archived order is left out, as the feed leaves it out; it is
         *     still read by its id. `status` repeats to keep only those statuses. `nextCursor`,
         *     null on the last page, is passed back as `after` with the same `sort`; a value the
         *     server did not issue for this tenant's order list in that sort is 400
         *     `audit.cursor.invalid` (D87).
         */
        get: operations["listOrders"];
        put?: never;
        /**
         * Take in an order
         * @description Creates an order in status New with its lines. The external id is required and
         *     unique among the tenant's live orders (`orders.duplicate` otherwise, D36). A Return
         *     names the order it returns; only a Rebox may carry a PickUp line. Warehouse and
         *     product ids are references the sandbox does not look up (D36); tag ids must be tags
         *     of the tenant.
         */
        post: operations["createOrder"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tenants/{tenantId}/order-imports": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Import orders from JSON
         * @description Takes in up to 1000 rows, each an order intake, in one transaction. A row that
         *     breaks a rule is skipped and reported inside the 200 answer as `import.row.invalid`
         *     with its field errors; the other rows are created (D37).
         */
        post: operations["importOrders"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tenants/{tenantId}/orders/{orderId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read an order
         * @description The order with its lines, trip and archive time; archived orders included.
         */
        get: operations["getOrder"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tenants/{tenantId}/orders/{orderId}/restore": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Restore an archived order
         * @description The order is live again, back in the feed with a new `updatedAtUtc`, in the status
         *     it was archived in. 409 `orders.notArchived` when it is not archived, and
         *     `orders.duplicate` when another live order took its external id meanwhile (D36).
         */
        post: operations["restoreOrder"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tenants/{tenantId}/orders/{orderId}/mini-status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Set an order's mini-status
         * @description At most 128 characters, and an active entry of the directory for the order's
         *     current status (`orders.miniStatus.unknown` otherwise). The label stays when the
         *     status later moves (D35).
         */
        put: operations["setOrderMiniStatus"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tenants/{tenantId}/orders/{orderId}/history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read an order's history
         * @description Status changes (with trip and reason), stop outcomes, payments, cancel reasons,
         *     archive and restore, oldest first, paged with a server-issued cursor: pass
         *     `nextCursor` back as `after`. A value the server did not issue is 400
         *     `audit.cursor.invalid`; the retired `page` parameter is refused with
         *     `audit.page.retired` (D40).
         */
        get: operations["orderHistory"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tenants/{tenantId}/trips": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the tenant's trips
         * @description The tenant's trips as the integration API's Trip, newest-changed first: by
         *     `updatedAtUtc`, then `id`, descending. `sort=oldest` lists them oldest first, the trip
         *     feed's order. `status` repeats to keep only those statuses. `nextCursor`, null on the
         *     last page, is passed back as `after` with the same `sort`; a value the server did not
         *     issue for this tenant's trip list in that sort is 400 `audit.cursor.invalid` (D87).
         *     A trip's stops are read with `getTrip`.
         */
        get: operations["listTrips"];
        put?: never;
        /**
         * Build a trip from orders
         * @description One stop per order, in the order given (stop index 0, 1, …), each with the order's
         *     lines. The trip is Confirmed and starts from the first line's warehouse; its orders
         *     become Planned. An order is plannable when it is live and New or InPlanning (D41).
         */
        post: operations["buildTrip"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tenants/{tenantId}/trips/{tripId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a trip with its stops
         * @description The trip as the integration API's trip feed reports it, with its stops in stop order:
         *     each stop's order, status, reason code, finish time and the outcome of each line.
         */
        get: operations["getTrip"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tenants/{tenantId}/trips/{tripId}/start": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start a trip
         * @description Confirmed → InProgress; its Planned orders become InProgress. Otherwise 409 `planning.trip_not_confirmed`.
         */
        post: operations["startTrip"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tenants/{tenantId}/trips/{tripId}/stops/{stopIndex}/outcome": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Record a stop's outcome
         * @description Finishes the stop. `Completed` carries one outcome per line of the stop: delivery
         *     quantities (`delivered`, `returned`, `rejected`, `lost`) for a Delivery-role line of
         *     a Delivery or Rebox order, collection quantities (`collected`, `notCollected`) for a
         *     PickUp line and every line of a Pickup or Return order; quantities left out are 0.
         *     `delivered + returned + lost` equals the line's quantity with `rejected ≤ returned`,
         *     or `collected + notCollected` equals it. A non-zero returned, rejected, lost or
         *     notCollected quantity needs the line's `reasonCode`. `Failed` (the stop was not
         *     served) needs the stop's `reasonCode` and counts every line as returned or not
         *     collected. The order takes the end status of its type (D42). On a Confirmed trip
         *     the first outcome starts the trip (D42).
         */
        post: operations["recordStopOutcome"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tenants/{tenantId}/trips/{tripId}/complete": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Complete a trip
         * @description InProgress → Completed once no stop is open. The orders keep their end statuses.
         */
        post: operations["completeTrip"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tenants/{tenantId}/trips/{tripId}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a trip
         * @description Confirmed or InProgress → Cancelled, with a reason code. The orders of its open
         *     stops go back to InPlanning and leave the trip; finished stops keep their outcome
         *     (D43).
         */
        post: operations["cancelTrip"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tenants/{tenantId}/requests": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the tenant's request log
         * @description The requests to the integration API made with the tenant's keys (revoked ones too, refused 401), newest first,
         *     without their bodies: the last 10,000 per tenant unless `waybill serve
         *     --log-retention` says otherwise (D48). Filters combine. `nextCursor`, null on the
         *     last page, is passed back as `after`; a value the server did not issue for this
         *     tenant is 400 `audit.cursor.invalid`. With the log off, the list is empty.
         */
        get: operations["listRequests"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tenants/{tenantId}/requests/stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Stream the tenant's new log entries
         * @description Server-Sent Events (`text/event-stream`): one `entry` event per new entry of the
         *     tenant's log as it is written (within about 50 ms of the answer), its `id` the
         *     entry's id and its `data` the entry as the list shows it; a comment line every 15 s
         *     keeps the connection open. With `Last-Event-ID`, the entries after that id are sent
         *     first (at most 1,000). The stream ends when the client goes. The admin token comes
         *     in `Authorization` as for every operation, so read it with a streaming `fetch`, not
         *     `EventSource` (D48).
         */
        get: operations["streamRequests"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tenants/{tenantId}/requests/{entryId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read one log entry
         * @description The entry with its request and response bodies (each cut at 16 KiB, `truncated`
         *     when it was longer) and `curl`, a command for `sh` that sends the same request
         *     again: method, URL, `X-Api-Key: $WAYBILL_KEY` (the key itself is never stored),
         *     Content-Type, Idempotency-Key and the stored body. An id that is not the tenant's
         *     is 404 `about:blank` (D48).
         */
        get: operations["getRequest"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tenants/{tenantId}/faults": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the tenant's fault rules
         * @description The tenant's fault rules, oldest first, each with how often it matched and fired.
         *     A rule whose `times` are used up stays listed with `remaining: 0` until it is
         *     deleted (D51).
         */
        get: operations["listFaults"];
        put?: never;
        /**
         * Add a fault rule
         * @description Makes the tenant's next calls of one integration operation misbehave (D51): on its
         *     next `times` matching calls (default 1), or on each with a `probability` drawn
         *     from `seed`, so that the same calls fire again on a rerun. `keyId` narrows the
         *     rule to one of the tenant's keys. The fault is one of:
         *
         *     - `latency`: wait `latencyMs` (a number, or `{min, max}` for a uniform draw), then
         *       answer as usual;
         *     - `status`: answer `status` instead — 429 `api.rate_limited` with `Retry-After:
         *       retryAfterSeconds` (default 1), or on a write with `problemType:
         *       idempotency.inFlight` the 429 the server answers while a request with the same
         *       Idempotency-Key is still in flight; 500 or 503 `about:blank` (503 with
         *       `Retry-After` when `retryAfterSeconds` is given), bodies as `spec/openapi.yaml`
         *       gives them;
         *     - `reset`: close the connection with a TCP reset, no answer;
         *     - `empty`: close the connection with no answer;
         *     - `malformed`: the answer's status and headers, then only the first half of its
         *       body (its `Content-Length` says so), which no JSON parser accepts;
         *     - `stall`: the answer's status and headers at once, then its body in ten parts
         *       spread over `durationMs` (default 10,000);
         *     - `problem`: answer `problem`, a code the operation lists in `x-error-codes`,
         *       exactly as the sandbox answers it for real (D95): the catalog's status and
         *       title, a detail and field errors like the real ones, `Retry-After`
         *       (`retryAfterSeconds`, default 1) for a 429, before the request runs, so nothing
         *       is written. A code the operation cannot answer is refused, naming `problem`,
         *       with the codes it can.
         *
         *     For the writes (`attachPayment`, `cancelOrder`, `archiveOrder`), `when` says
         *     whether the fault strikes `before` the request runs (nothing is written) or
         *     `after` its effect is committed and its answer stored for its Idempotency-Key (the
         *     answer is then lost, late, cut or replaced, and a retry with the same key gets
         *     the stored one). `malformed` and `stall` need the answer, so they are `after`
         *     faults; the reads take no `when`. Rules are tried oldest first; every `latency`
         *     rule that fires adds its wait, and the first other rule that fires decides the
         *     answer. A call that asks for its own fault with `Prefer: fault=…`, `problem=…` or
         *     `latency=…` gets that instead, and the rules do not count it. A call that a rule fired on is
         *     marked with `fault` in the request log. A rule that cannot be honoured is 400
         *     `api.malformed_request` naming the field.
         */
        post: operations["createFault"];
        /**
         * Delete every fault rule of the tenant
         * @description The tenant's calls behave again; a tenant with no rules answers 204 too.
         */
        delete: operations["deleteFaults"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tenants/{tenantId}/faults/{faultId}": {
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
         * Delete one fault rule
         * @description A rule that is not the tenant's is 404 `about:blank`.
         */
        delete: operations["deleteFault"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tenants/{tenantId}/clock": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read the tenant's test clock
         * @description The time the tenant sees (D52): the wall clock (`system`), a clock `frozen` at one
         *     instant, or a clock running at an `offset` from the wall clock. It stamps the
         *     tenant's orders and trips (still strictly increasing, D7), drives its keys' rate
         *     limits and `Retry-After`, the 24-hour replay window of its Idempotency-Keys, and
         *     its simulation.
         */
        get: operations["getClock"];
        /**
         * Freeze, run or release the tenant's clock
         * @description `frozen` stops the tenant's time at `atUtc` (default: its current time); `offset`
         *     lets it run from `atUtc` (default: its current time) at the wall clock's pace;
         *     `system` gives it the wall clock again and takes no `atUtc`. A setting that would
         *     move the tenant's time backwards is 409 `about:blank` and changes nothing: its
         *     stamps must keep increasing (D7, D52).
         */
        put: operations["setClock"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tenants/{tenantId}/clock/advance": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Move the tenant's clock forward
         * @description Moves the tenant's time forward by `by`, an ISO 8601 duration of days, hours,
         *     minutes and seconds (`PT25H`, `P1DT30M`, `PT0.5S`), at most `P366D`. A `system`
         *     clock becomes an `offset` one. The tenant's simulation, if running, makes every
         *     change due in the skipped time before the answer, stamped at the times they fell
         *     due (D53); `changes` counts them. An advance that would make more than 100,000
         *     changes is 400 naming `by`.
         */
        post: operations["advanceClock"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tenants/{tenantId}/simulation": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read the tenant's living-feed simulation
         * @description Whether the simulation runs, its settings and how many changes it made (D53).
         */
        get: operations["getSimulation"];
        /**
         * Start the tenant's living feed, or change its settings
         * @description Starts (or restarts, from its `seed`, at the tenant's current time) a simulation
         *     that takes in orders and plans, starts, delivers, fails and cancels trips at
         *     `changesPerMinute` of the tenant's clock, so that the tenant's feeds keep
         *     changing the way a live service's do (D53). A change is one write: it stamps the
         *     orders and trips it touches with one `updatedAtUtc`. The same seed, the same
         *     clock and the same starting data give the same changes. With `unknownStatuses`,
         *     some orders pass through an order status the contract does not list yet (D54),
         *     which a client must treat as not final. With `unknownMembers`, the orders it takes
         *     in carry `deliveryWindow`, a member the contract does not list yet, and with
         *     `unknownTripStatuses` some of its trips pass through `OnHold`, a trip status it does
         *     not list: what a later version of the contract may serve, which a tolerant client
         *     reads past (D93). The simulation tends only the orders it
         *     takes in (external ids `SIM-…`) and the trips it builds, never the tenant's own.
         *     It writes only while the tenant is Active: changes that fall due while it is
         *     Suspended or Archived are skipped, not made up later.
         */
        put: operations["setSimulation"];
        post?: never;
        /**
         * Stop the tenant's living feed
         * @description The simulation stops; what it wrote stays. Stopping a stopped simulation answers the same.
         */
        delete: operations["stopSimulation"];
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
         * @description A tenant's lifecycle state (D22).
         * @enum {string}
         */
        TenantState: "Active" | "Suspended" | "Archived";
        /**
         * @description The lifecycle state filter of the tenant list.
         * @enum {string}
         */
        TenantStateFilter: "Active" | "Suspended" | "Archived";
        Tenant: {
            /** Format: uuid */
            id: string;
            name: string;
            /** @description ISO 3166-1 alpha-2. */
            country: string;
            state: components["schemas"]["TenantState"];
            /** @description The capability skills, trimmed, in the order given. */
            skills: string[];
            createdAtUtc: integration["schemas"]["UtcTimestamp"];
        };
        TenantList: {
            items: components["schemas"]["Tenant"][];
        };
        /**
         * @description Capability skills. The schema bounds the count (`tenants.skills.too_many`); each
         *     value is trimmed and then checked for 1 to 64 characters
         *     (`tenants.skills.value.invalid`) and case-insensitive uniqueness
         *     (`tenants.skills.duplicate`) (D32).
         */
        Skills: string[];
        /** @description Unknown fields are ignored (D19). */
        NewTenant: {
            /** @description Defaults to `Sandbox tenant`. */
            name?: string;
            /** @description ISO 3166-1 alpha-2, upper case (D32). */
            country: string;
            skills?: components["schemas"]["Skills"];
        };
        SkillsRequest: {
            skills: components["schemas"]["Skills"];
        };
        /**
         * @description A scope of the catalog (D2).
         * @enum {string}
         */
        Scope: "orders:read" | "orders:write" | "trips:read";
        /** @description A key as the key list shows it; never the secret. */
        ApiKey: {
            id: string;
            /** Format: uuid */
            tenantId: string;
            name: string;
            scopes: components["schemas"]["Scope"][];
            rateLimitPerMinute: number;
            createdAtUtc: integration["schemas"]["UtcTimestamp"];
            revokedAtUtc: integration["schemas"]["UtcTimestamp"] | null;
        };
        /** @description A new key with its secret, shown this once. */
        CreatedApiKey: components["schemas"]["ApiKey"] & {
            /** @description The key to send as `X-Api-Key` (D1). */
            secret: string;
        };
        ApiKeyList: {
            items: components["schemas"]["ApiKey"][];
        };
        /** @description Unknown fields are ignored (D19). */
        NewApiKey: {
            /** @description 1 to 100 characters, not blank. */
            name: string;
            /** @description Scopes of the catalog; may be empty. A repeated scope counts once. */
            scopes: components["schemas"]["Scope"][];
            /** @description Requests per minute, 1 to 6000; default 600 (D14). */
            rateLimitPerMinute?: number;
        };
        /** @description 1 to 64 characters, not blank. */
        TagName: string;
        /** @description `#RRGGBB`. */
        TagColor: string;
        Tag: {
            /** Format: uuid */
            id: string;
            name: string;
            color: string;
        };
        TagList: {
            items: components["schemas"]["Tag"][];
        };
        NewTag: {
            name: components["schemas"]["TagName"];
            color: components["schemas"]["TagColor"];
        };
        TagPatch: {
            name?: components["schemas"]["TagName"];
            color?: components["schemas"]["TagColor"];
        };
        MiniStatus: {
            /** Format: uuid */
            id: string;
            status: integration["schemas"]["OrderStatusName"];
            name: string;
            active: boolean;
        };
        MiniStatusList: {
            items: components["schemas"]["MiniStatus"][];
        };
        NewMiniStatus: {
            /** @description The status group the entry belongs to. */
            status: integration["schemas"]["OrderStatusName"];
            /** @description 1 to 64 characters, not blank. */
            name: string;
        };
        MiniStatusRequest: {
            /** @description Required, 1 to 128 characters. */
            miniStatus: string;
        };
        /**
         * @description A line hands goods over (Delivery) or collects them (PickUp, Rebox only).
         * @enum {string}
         */
        LineRole: "Delivery" | "PickUp";
        OrderLineIntake: {
            /** Format: uuid */
            warehouseId: string;
            /** Format: uuid */
            productId: string;
            /** @description Requested quantity, a whole number above zero. */
            quantity: number;
            /** @description Default Delivery. */
            role?: components["schemas"]["LineRole"];
            /** @description Weight of the whole line; not negative; default 0. */
            weightKg?: number;
            /** @description Volume of the whole line; not negative; default 0. */
            volumeM3?: number;
            /** @description Price of the whole line; not negative; default 0. */
            price?: number;
        };
        /** @description An order to take in. Unknown fields are ignored (D19). */
        OrderIntake: {
            /** @description The source system's id, 1 to 200 characters, not blank. */
            externalId: string;
            type: integration["schemas"]["OrderType"];
            customId?: string | null;
            /**
             * Format: uuid
             * @description The order a Return returns (required for a Return); an order of the tenant.
             */
            relatedToOrderId?: string | null;
            /** @description Ids of tags of the tenant. */
            tags?: string[];
            /** @description At least one line. */
            lines: components["schemas"]["OrderLineIntake"][];
        };
        OrderLine: {
            /** Format: uuid */
            id: string;
            /** @description The line's index in the order, from 0; stop outcomes address lines by it. */
            line: number;
            /** Format: uuid */
            warehouseId: string;
            /** Format: uuid */
            productId: string;
            quantity: number;
            role: components["schemas"]["LineRole"];
            weightKg: number;
            volumeM3: number;
            price: number;
        };
        /** @description The integration API's Order, with its lines, related order, trip and archive time. */
        OrderDetail: integration["schemas"]["Order"] & {
            /** Format: uuid */
            relatedToOrderId: string | null;
            /**
             * Format: uuid
             * @description The trip the order is (or was last) on; null when none.
             */
            tripId: string | null;
            archivedAtUtc: integration["schemas"]["UtcTimestamp"] | null;
            lines: components["schemas"]["OrderLine"][];
        };
        /**
         * @description The rows to import, each an OrderIntake, judged one by one. A body whose `rows` is
         *     not an array of objects is `import.file.invalid`; more than 1000 rows is
         *     `import.rows.too_many` (D37).
         */
        ImportRequest: {
            rows: (components["schemas"]["OrderIntake"] | {
                [key: string]: unknown;
            })[];
        };
        ImportRowResult: {
            /** @description The row's index in `rows`. */
            row: number;
            externalId: string | null;
            /**
             * Format: uuid
             * @description The created order; null when the row was refused.
             */
            orderId: string | null;
            /** @description `import.row.invalid` when the row was refused, else null. */
            type: string | null;
            detail: string | null;
            /** @description The row's field errors, field names relative to the row; empty when created. */
            errors: integration["schemas"]["FieldError"][];
        };
        ImportResult: {
            created: number;
            failed: number;
            rows: components["schemas"]["ImportRowResult"][];
        };
        /** @description Any value is refused (D40). */
        RetiredPage: unknown;
        /** @description One event of the order's life; what it records is in `data`, by `kind`. */
        HistoryEntry: {
            seq: number;
            atUtc: integration["schemas"]["UtcTimestamp"];
            /** @description What happened. Kinds may be added; a reader skips one it does not know. */
            kind: string;
            data: components["schemas"]["HistoryData"];
        };
        /**
         * @description What an event records; its members by `kind`: created, archive and restore `status`
         *     (the order's); status `from`, `to`, `tripId`, and `reasonCode` when a cancelled trip
         *     let the order go; outcome `tripId`, `stop`, `status` (the stop's), `reasonCode` and
         *     `lines`; payment `paymentId`, `amount` and `currency`; cancel `from`, `to` and
         *     `reason`; miniStatus `miniStatus` and `status`. A kind added later may record members
         *     of its own.
         */
        HistoryData: {
            /** @description The order's status, or for an outcome the stop's (Completed or Failed). */
            status?: string;
            /** @description The order's status before the move. */
            from?: string;
            /** @description The order's status after it. */
            to?: string;
            /**
             * Format: uuid
             * @description The trip of the move or outcome; null for a move off every trip.
             */
            tripId?: string | null;
            reasonCode?: string | null;
            /** @description The index of the stop on its trip. */
            stop?: number;
            /** @description Each line's outcome, by its index in the order. */
            lines?: components["schemas"]["HistoryLine"][];
            paymentId?: string;
            amount?: number;
            currency?: string;
            /** @description Why the order was cancelled; null when no reason was given. */
            reason?: string | null;
            miniStatus?: string;
        } & {
            [key: string]: unknown;
        };
        /** @description One line's outcome as a stop recorded it. */
        HistoryLine: components["schemas"]["LineOutcome"] & {
            line: number;
        };
        HistoryPage: {
            items: components["schemas"]["HistoryEntry"][];
            /** @description Pass back as `after`; null at the end of the history. */
            nextCursor: string | null;
        };
        /** @description One request to the integration API as the log keeps it, without bodies (D48). */
        RequestLogSummary: {
            /** @description Increasing in the order entries were written; never reused. */
            id: number;
            atUtc: integration["schemas"]["UtcTimestamp"];
            /** @description The operationId of the integration API. */
            operation: string;
            method: string;
            /** @description The path with its query, as sent. */
            path: string;
            /** @description The status the client got; 0 when a fault (D51) closed the connection before any answer (`reset`, `empty`). */
            status: number;
            /** @description The problem's `type`; null for an answer that is no problem. */
            problemType: string | null;
            /** @description The problem's field errors; empty when it has none. */
            errors: integration["schemas"]["FieldError"][];
            /** @description From the request's arrival to the last byte of the answer handed to the socket. */
            latencyMs: number;
            /** @description The id of the key the request authenticated with; never the key. */
            keyId: string;
            requestId: string;
            idempotencyKey: string | null;
            /** @description True when the answer was a stored one replayed for the Idempotency-Key (`Idempotent-Replayed`). */
            replayed: boolean;
            /** @description The orders the request changed. */
            orderIds: string[];
            /** @description The trips the request changed. */
            tripIds: string[];
            /** @description The fault injected into the call (D51), or null. */
            fault: components["schemas"]["RequestLogFault"] | null;
        };
        /** @description A request or response body, cut at 16 KiB of UTF-8. */
        RequestLogBody: {
            contentType: string | null;
            /** @description Null when there was no body. */
            body: string | null;
            /** @description The whole body's length. */
            bytes: number;
            /** @description True when `body` holds only the first 16 KiB. */
            truncated: boolean;
        };
        RequestLogEntry: components["schemas"]["RequestLogSummary"] & {
            request: components["schemas"]["RequestLogBody"];
            response: components["schemas"]["RequestLogBody"];
            page: components["schemas"]["RequestLogFeedPage"] | null;
            /** @description A command for `sh` that sends the request again, with the key as `$WAYBILL_KEY`. */
            curl: string;
        };
        /**
         * @description The page an `orderFeed` or `tripFeed` answer gave the client, kept whatever the body's
         *     size (the body itself is cut at 16 KiB): its `nextCursor` and each item's `id`,
         *     `updatedAtUtc` and `status`, in page order (D48). An entry has one only for a 200
         *     the client got whole; `page` is null for any other entry, and for an answer a
         *     `malformed` fault cut (D51).
         */
        RequestLogFeedPage: {
            nextCursor: string | null;
            items: {
                id: string;
                updatedAtUtc: string;
                status: string;
            }[];
        };
        OrderListPage: {
            items: integration["schemas"]["Order"][];
            /** @description Pass back as `after`, with the same `sort`; null on the last page. */
            nextCursor: string | null;
        };
        TripListPage: {
            items: integration["schemas"]["Trip"][];
            /** @description Pass back as `after`, with the same `sort`; null on the last page. */
            nextCursor: string | null;
        };
        RequestLogPage: {
            items: components["schemas"]["RequestLogSummary"][];
            /** @description Pass back as `after`; null on the last page. */
            nextCursor: string | null;
        };
        /**
         * @description An operationId of the integration API (`spec/openapi.yaml`).
         * @enum {string}
         */
        IntegrationOperation: "orderFeed" | "tripFeed" | "attachPayment" | "cancelOrder" | "archiveOrder" | "whoami";
        /**
         * @description What the fault does to the call (D51; `problem`, D95).
         * @enum {string}
         */
        FaultKind: "latency" | "status" | "reset" | "empty" | "malformed" | "stall" | "problem";
        LatencyRange: {
            min: number;
            max: number;
        };
        /** @description A fault rule to add (D51). Fields that do not fit the `fault` are refused, naming the field. */
        NewFaultRule: {
            operation: components["schemas"]["IntegrationOperation"];
            /** @description Only calls made with this key of the tenant. */
            keyId?: string;
            fault: components["schemas"]["FaultKind"];
            /**
             * @description For `status`: the status answered.
             * @enum {integer}
             */
            status?: 429 | 500 | 503;
            /** @description For 429 (default 1) and 503 (none unless given), and a `problem` whose code is a 429 (default 1): the `Retry-After` header. */
            retryAfterSeconds?: number;
            /**
             * @description For 429: the problem answered, the rate limit (default) or, on the writes only, a request with the same `Idempotency-Key` still in flight, exactly as the server answers one.
             * @enum {string}
             */
            problemType?: "api.rate_limited" | "idempotency.inFlight";
            /** @description For `problem` (D95): a code the operation lists in `x-error-codes` of `spec/openapi.yaml`, answered as the sandbox answers it for real, before the request runs; another code is refused, naming `problem`, with the codes the operation can answer. */
            problem?: string;
            /** @description For `latency`: the wait in ms, or a range drawn from uniformly. */
            latencyMs?: number | components["schemas"]["LatencyRange"];
            /** @description For `stall`: how long the body takes to arrive (default 10,000). */
            durationMs?: number;
            /**
             * @description Writes only: strike before the request runs, or after its effect is committed. Default `before`, and `after` for `malformed` and `stall`; a `problem` is always `before`.
             * @enum {string}
             */
            when?: "before" | "after";
            /** @description Fire on the next `times` matching calls (default 1 when `probability` is absent). */
            times?: number;
            /** @description Fire on each matching call with this probability, until the rule is deleted. */
            probability?: number;
            /** @description Seeds the draws of `probability` and of a `latencyMs` range (default: a random seed, shown in the rule). */
            seed?: number;
        };
        /** @description A fault rule of a tenant (D51). */
        FaultRule: {
            /** Format: uuid */
            id: string;
            operation: components["schemas"]["IntegrationOperation"];
            keyId: string | null;
            fault: components["schemas"]["FaultKind"];
            status: (429 | 500 | 503) | null;
            retryAfterSeconds: number | null;
            /** @description The problem a 429 answers; null unless `status` is 429. */
            problemType: ("api.rate_limited" | "idempotency.inFlight") | null;
            /** @description The code a `problem` rule answers (D95); null for other faults. */
            problem: string | null;
            /** @description The wait of a `latency` rule as a range (`min` = `max` for a fixed wait); null for other faults. */
            latencyMs: null | components["schemas"]["LatencyRange"];
            durationMs: number | null;
            /** @description Null for the reads. */
            when: ("before" | "after") | null;
            /** @description Null for a `probability` rule. */
            times: number | null;
            /** @description How many of `times` are left; null for a `probability` rule. */
            remaining: number | null;
            probability: number | null;
            /** @description The seed of the draws; null when the rule draws nothing. */
            seed: number | null;
            /** @description Calls the rule matched since it was added. */
            matched: number;
            /** @description Calls it fired on. */
            fired: number;
            createdAtUtc: integration["schemas"]["UtcTimestamp"];
        };
        FaultRuleList: {
            items: components["schemas"]["FaultRule"][];
        };
        /**
         * @description The fault injected into the call (D51). When a `latency` and another fault both
         *     fired, `fault` is the other one (which decided the answer) and `latencyMs` the sum
         *     of the waits.
         */
        RequestLogFault: {
            fault: components["schemas"]["FaultKind"];
            /**
             * @description A fault rule, or the request's own `Prefer` header.
             * @enum {string}
             */
            source: "rule" | "prefer";
            /** @description The rule that decided the answer (the first latency rule that fired, when only waits fired); null for `Prefer`. */
            ruleId: string | null;
            /** @description Null for the reads. */
            when: ("before" | "after") | null;
            /** @description The wait added, when a latency fault fired. */
            latencyMs?: number;
        };
        /** @description A tenant's test clock (D52). */
        Clock: {
            /**
             * @description The wall clock, a stopped clock, or the wall clock shifted by `offsetMs`.
             * @enum {string}
             */
            mode: "system" | "frozen" | "offset";
            nowUtc: integration["schemas"]["UtcTimestamp"];
            /** @description The tenant's time minus the wall clock's, when the answer was made. */
            offsetMs: number;
        };
        ClockSetting: {
            /** @enum {string} */
            mode: "system" | "frozen" | "offset";
            atUtc?: integration["schemas"]["UtcTimestamp"];
        };
        ClockAdvance: {
            /** @description An ISO 8601 duration of days, hours, minutes and seconds: `PT25H`, `P1DT30M`, `PT0.5S`. */
            by: string;
        };
        ClockAdvanced: {
            clock: components["schemas"]["Clock"];
            /** @description The changes the simulation made in the skipped time. */
            changes: number;
        };
        /** @description A tenant's living-feed simulation (D53). */
        Simulation: {
            running: boolean;
            /** @description Null when the tenant never had a simulation. */
            changesPerMinute: number | null;
            seed: number | null;
            unknownStatuses: boolean;
            unknownMembers: boolean;
            unknownTripStatuses: boolean;
            /** @description In the tenant's time. */
            startedAtUtc: string | null;
            /** @description Changes made since it started. */
            changes: number;
            /** @description In the tenant's time; null when it is stopped. */
            nextChangeAtUtc: string | null;
        };
        SimulationSetting: {
            /** @description Writes per minute of the tenant's clock, on average. */
            changesPerMinute: number;
            /** @description Default: a random seed, shown in the answer. */
            seed?: number;
            /**
             * @description Let some orders pass through an order status the contract does not list yet (D54).
             * @default false
             */
            unknownStatuses?: boolean;
            /**
             * @description Give the orders it takes in `deliveryWindow`, a member the contract does not list yet (D93).
             * @default false
             */
            unknownMembers?: boolean;
            /**
             * @description Let some trips pass through `OnHold`, a trip status the contract does not list (D93).
             * @default false
             */
            unknownTripStatuses?: boolean;
        };
        TripBuild: {
            /** @description The orders, one stop each, in stop order. */
            orderIds: string[];
            /** Format: uuid */
            driverId?: string | null;
            /** Format: uuid */
            vehicleId?: string | null;
        };
        /**
         * @description Open until its outcome is recorded; Completed or Failed after; Cancelled when its
         *     trip was cancelled while it was open; Removed when its order left the trip (D43).
         * @enum {string}
         */
        StopStatus: "Open" | "Completed" | "Failed" | "Cancelled" | "Removed";
        /** @description What happened to a line; delivery or collection quantities by the line's vocabulary. */
        LineOutcome: {
            delivered?: number;
            returned?: number;
            rejected?: number;
            lost?: number;
            collected?: number;
            notCollected?: number;
            reasonCode?: string | null;
        };
        StopLine: {
            line: number;
            /** Format: uuid */
            lineId: string;
            role: components["schemas"]["LineRole"];
            quantity: number;
            /**
             * @description Which quantities the line's outcome takes.
             * @enum {string}
             */
            vocabulary: "delivery" | "collection";
            outcome: components["schemas"]["LineOutcome"] | null;
        };
        Stop: {
            index: number;
            /** Format: uuid */
            orderId: string;
            status: components["schemas"]["StopStatus"];
            reasonCode: string | null;
            finishedAtUtc: integration["schemas"]["UtcTimestamp"] | null;
            lines: components["schemas"]["StopLine"][];
        };
        /** @description The integration API's Trip with its stops. */
        TripDetail: integration["schemas"]["Trip"] & {
            stops: components["schemas"]["Stop"][];
        };
        /** @description A reason code, 1 to 64 characters, not blank; the sandbox keeps no list of them (D42). */
        ReasonCode: string;
        /** @description A quantity of a line outcome; a whole number, not negative. */
        Quantity: number;
        LineOutcomeInput: {
            /** @description The line's index in the order (`OrderLine.line`). */
            line: number;
            delivered?: components["schemas"]["Quantity"];
            returned?: components["schemas"]["Quantity"];
            rejected?: components["schemas"]["Quantity"];
            lost?: components["schemas"]["Quantity"];
            collected?: components["schemas"]["Quantity"];
            notCollected?: components["schemas"]["Quantity"];
            reasonCode?: components["schemas"]["ReasonCode"];
        };
        /** @description A stop's outcome. Unknown fields are ignored (D19). */
        StopOutcomeRequest: {
            /**
             * @description Completed (default) or Failed (the stop was not served).
             * @default Completed
             * @enum {string}
             */
            status?: "Completed" | "Failed";
            reasonCode?: components["schemas"]["ReasonCode"];
            /** @description One outcome per line of the stop (Completed); not read for Failed. */
            lines?: components["schemas"]["LineOutcomeInput"][];
        };
        TripCancelRequest: {
            /** @description Why the trip is cancelled; 1 to 64 characters. */
            reasonCode: string;
        };
        /** @description How to name a provisioned profile's tenants. Unknown fields are ignored (D19). */
        ProfileRequest: {
            /** @description The three tenants are named `<name> (main)`, `<name> (other tenant)` and `<name> (suspended)`. */
            name?: string;
        };
        /** @description A conformance profile (`conformance/profile.schema.json`), every member waybill provisions filled (D39). */
        Profile: {
            /** Format: uri */
            target: string;
            auth: {
                /** @constant */
                header: "X-Api-Key";
                /** @constant */
                prefix: "";
            };
            keys: {
                full: string;
                ordersRead: string;
                tripsRead: string;
                noScopes: string;
                otherTenant: string;
                revoked: string;
                rateLimited: {
                    key: string;
                    /** @constant */
                    perMinute: 5;
                };
                suspendedTenant: string;
            };
            /** @description Pools of at least 20 external ids of live orders each, disjoint (an id is in one pool only). */
            orders: {
                /** @description Live orders of the main tenant, any status. */
                payable: components["schemas"]["Pool"];
                /** @description Orders of the main tenant in New, InPlanning or Planned. */
                cancellable: components["schemas"]["Pool"];
                /** @description Orders of the main tenant in a status cancel refuses (InProgress or final). */
                notCancellable: components["schemas"]["Pool"];
                /** @description Orders of the main tenant on no live trip (neither Planned nor InProgress). */
                archivable: components["schemas"]["Pool"];
                /** @description Orders of the main tenant on a trip, Planned (Confirmed trip) or InProgress (InProgress trip), both present. */
                onTrip: components["schemas"]["Pool"];
                /** @description Live orders of the second tenant, any status. */
                otherTenant: components["schemas"]["Pool"];
            };
            trips: {
                /** @description Every trip id of the second tenant, as its trip feed shows them. */
                otherTenant: components["schemas"]["Pool"];
            };
            feeds: {
                minOrders: number;
                minTrips: number;
            };
            sandbox: {
                /** Format: uri */
                url: string;
                token: string;
            };
        };
        Pool: string[];
        /** @description The body of a 400 answered as BadRequest (by 23 operations): `type` is one of the codes they can answer with 400 (D91). */
        BadRequestProblem: integration["schemas"]["ValidationProblem"] & {
            /** @enum {string} */
            type?: "api.malformed_request";
        };
        /** @description The body of a 400 answered as TenantBadRequest (by `createTenant`): `type` is one of the codes it can answer with 400 (D91). */
        TenantBadRequestProblem: integration["schemas"]["ValidationProblem"] & {
            /** @enum {string} */
            type?: "api.malformed_request" | "tenants.country.required" | "tenants.country.invalid" | "tenants.skills.value.invalid" | "tenants.skills.duplicate" | "tenants.skills.too_many";
        };
        /** @description The body of a 400 answered as TenantFilterBadRequest (by `listTenants`): `type` is one of the codes it can answer with 400 (D91). */
        TenantFilterBadRequestProblem: integration["schemas"]["ValidationProblem"] & {
            /** @enum {string} */
            type?: "api.malformed_request" | "tenants.lifecycle.state.invalid";
        };
        /** @description The body of a 400 answered as SkillsBadRequest (by `setTenantSkills`): `type` is one of the codes it can answer with 400 (D91). */
        SkillsBadRequestProblem: integration["schemas"]["ValidationProblem"] & {
            /** @enum {string} */
            type?: "api.malformed_request" | "tenants.skills.value.invalid" | "tenants.skills.duplicate" | "tenants.skills.too_many";
        };
        /** @description The body of a 400 answered as KeyBadRequest (by `createApiKey`): `type` is one of the codes it can answer with 400 (D91). */
        KeyBadRequestProblem: integration["schemas"]["ValidationProblem"] & {
            /** @enum {string} */
            type?: "api.malformed_request" | "apikeys.name_required" | "apikeys.invalid_scope" | "apikeys.invalid_rate_limit" | "apikeys.rate_limit_above_max";
        };
        /** @description The body of a 400 answered as TagBadRequest (by `createTag` and `updateTag`): `type` is one of the codes they can answer with 400 (D91). */
        TagBadRequestProblem: integration["schemas"]["ValidationProblem"] & {
            /** @enum {string} */
            type?: "api.malformed_request" | "tags.name.invalid" | "tags.color.invalid";
        };
        /** @description The body of a 400 answered as MiniStatusBadRequest (by `createMiniStatus`): `type` is one of the codes it can answer with 400 (D91). */
        MiniStatusBadRequestProblem: integration["schemas"]["ValidationProblem"] & {
            /** @enum {string} */
            type?: "api.malformed_request" | "ministatuses.name.invalid";
        };
        /** @description The body of a 400 answered as OrderBadRequest (by `createOrder`): `type` is one of the codes it can answer with 400 (D91). */
        OrderBadRequestProblem: integration["schemas"]["ValidationProblem"] & {
            /** @enum {string} */
            type?: "api.malformed_request" | "orders.externalId.required" | "orders.lines.required" | "orders.line.warehouseRequired" | "orders.line.productRequired" | "orders.line.requestedQty.invalid" | "orders.line.measure.invalid" | "orders.price.invalid" | "orders.line.roleNotAllowed" | "orders.return.relatedRequired";
        };
        /** @description The body of a 400 answered as OrderMiniStatusBadRequest (by `setOrderMiniStatus`): `type` is one of the codes it can answer with 400 (D91). */
        OrderMiniStatusBadRequestProblem: integration["schemas"]["ValidationProblem"] & {
            /** @enum {string} */
            type?: "api.malformed_request" | "orders.miniStatus.invalid" | "orders.miniStatus.unknown";
        };
        /** @description The body of a 400 answered as ImportBadRequest (by `importOrders`): `type` is one of the codes it can answer with 400 (D91). */
        ImportBadRequestProblem: integration["schemas"]["ValidationProblem"] & {
            /** @enum {string} */
            type?: "api.malformed_request" | "import.file.invalid" | "import.rows.too_many";
        };
        /** @description The body of a 400 answered as HistoryBadRequest (by `orderHistory`): `type` is one of the codes it can answer with 400 (D91). */
        HistoryBadRequestProblem: integration["schemas"]["ValidationProblem"] & {
            /** @enum {string} */
            type?: "api.malformed_request" | "audit.cursor.invalid" | "audit.page.retired";
        };
        /** @description The body of a 400 answered as TripBadRequest (by `buildTrip`): `type` is one of the codes it can answer with 400 (D91). */
        TripBadRequestProblem: integration["schemas"]["ValidationProblem"] & {
            /** @enum {string} */
            type?: "api.malformed_request" | "planning.trip_no_lines" | "planning.order_not_plannable";
        };
        /** @description The body of a 400 answered as TripCancelBadRequest (by `cancelTrip`): `type` is one of the codes it can answer with 400 (D91). */
        TripCancelBadRequestProblem: integration["schemas"]["ValidationProblem"] & {
            /** @enum {string} */
            type?: "api.malformed_request" | "trips.mutation.cancelReasonRequired";
        };
        /** @description The body of a 400 answered as StopBadRequest (by `recordStopOutcome`): `type` is one of the codes it can answer with 400 (D91). */
        StopBadRequestProblem: integration["schemas"]["ValidationProblem"] & {
            /** @enum {string} */
            type?: "api.malformed_request" | "trips.stop.reasonRequired" | "trips.outcomes.lineMismatch" | "trips.outcomes.wrongVocabulary" | "trips.outcomes.invariantViolation" | "trips.outcomes.reasonRequired";
        };
        /** @description The body of a 400 answered as ListBadRequest (by `listOrders` and `listTrips`): `type` is one of the codes they can answer with 400 (D91). */
        ListBadRequestProblem: integration["schemas"]["ValidationProblem"] & {
            /** @enum {string} */
            type?: "api.malformed_request" | "audit.cursor.invalid";
        };
        /** @description The body of a 400 answered as RequestLogBadRequest (by `listRequests`): `type` is one of the codes it can answer with 400 (D91). */
        RequestLogBadRequestProblem: integration["schemas"]["ValidationProblem"] & {
            /** @enum {string} */
            type?: "api.malformed_request" | "audit.cursor.invalid";
        };
        /** @description The body of a 401 answered as Unauthorized (by 45 operations): `type` is one of the codes they can answer with 401 (D91). */
        UnauthorizedProblem: integration["schemas"]["Problem"] & {
            type?: "about:blank" | null;
        };
        /** @description The body of a 404 answered as TenantNotFound (by 28 operations): `type` is one of the codes they can answer with 404 (D91). */
        TenantNotFoundProblem: integration["schemas"]["Problem"] & {
            type?: "about:blank" | null;
        };
        /** @description The body of a 404 answered as KeyNotFound (by `revokeApiKey`): `type` is one of the codes it can answer with 404 (D91). */
        KeyNotFoundProblem: integration["schemas"]["Problem"] & {
            type?: ("apikeys.not_found" | "about:blank") | null;
        };
        /** @description The body of a 404 answered as TagNotFound (by `updateTag` and `createOrder`): `type` is one of the codes they can answer with 404 (D91). */
        TagNotFoundProblem: integration["schemas"]["Problem"] & {
            type?: ("tags.notFound" | "about:blank") | null;
        };
        /** @description The body of a 404 answered as MiniStatusNotFound (by `deactivateMiniStatus`): `type` is one of the codes it can answer with 404 (D91). */
        MiniStatusNotFoundProblem: integration["schemas"]["Problem"] & {
            type?: ("ministatuses.notFound" | "about:blank") | null;
        };
        /** @description The body of a 404 answered as OrderNotFound (by 4 operations): `type` is one of the codes they can answer with 404 (D91). */
        OrderNotFoundProblem: integration["schemas"]["Problem"] & {
            type?: ("orders.notFound" | "about:blank") | null;
        };
        /** @description The body of a 404 answered as TripNotFound (by 4 operations): `type` is one of the codes they can answer with 404 (D91). */
        TripNotFoundProblem: integration["schemas"]["Problem"] & {
            type?: ("planning.trip_not_found" | "about:blank") | null;
        };
        /** @description The body of a 404 answered as StopNotFound (by `recordStopOutcome`): `type` is one of the codes it can answer with 404 (D91). */
        StopNotFoundProblem: integration["schemas"]["Problem"] & {
            type?: ("planning.trip_not_found" | "trips.stop.notFound" | "about:blank") | null;
        };
        /** @description The body of a 409 answered as TenantConflict (by 5 operations): `type` is one of the codes they can answer with 409 (D91). */
        TenantConflictProblem: integration["schemas"]["Problem"] & {
            type?: ("tenants.tenant.suspended" | "tenants.tenant.archived") | null;
        };
        /** @description The body of a 409 answered as LifecycleConflict (by `suspendTenant`, `reactivateTenant` and `archiveTenant`): `type` is one of the codes they can answer with 409 (D91). */
        LifecycleConflictProblem: integration["schemas"]["Problem"] & {
            type?: "tenants.tenant.archived" | null;
        };
        /** @description The body of a 409 answered as KeyConflict (by `revokeApiKey`): `type` is one of the codes it can answer with 409 (D91). */
        KeyConflictProblem: integration["schemas"]["Problem"] & {
            type?: "apikeys.already_revoked" | null;
        };
        /** @description The body of a 409 answered as TagConflict (by `createTag` and `updateTag`): `type` is one of the codes they can answer with 409 (D91). */
        TagConflictProblem: integration["schemas"]["Problem"] & {
            type?: ("tags.duplicate" | "tenants.tenant.suspended" | "tenants.tenant.archived") | null;
        };
        /** @description The body of a 409 answered as MiniStatusConflict (by `createMiniStatus`): `type` is one of the codes it can answer with 409 (D91). */
        MiniStatusConflictProblem: integration["schemas"]["Problem"] & {
            type?: ("ministatuses.duplicate" | "tenants.tenant.suspended" | "tenants.tenant.archived") | null;
        };
        /** @description The body of a 409 answered as OrderConflict (by `createOrder`): `type` is one of the codes it can answer with 409 (D91). */
        OrderConflictProblem: integration["schemas"]["Problem"] & {
            type?: ("orders.duplicate" | "tenants.tenant.suspended" | "tenants.tenant.archived") | null;
        };
        /** @description The body of a 409 answered as RestoreConflict (by `restoreOrder`): `type` is one of the codes it can answer with 409 (D91). */
        RestoreConflictProblem: integration["schemas"]["Problem"] & {
            type?: ("orders.notArchived" | "orders.duplicate" | "tenants.tenant.suspended" | "tenants.tenant.archived") | null;
        };
        /** @description The body of a 409 answered as TripBuildConflict (by `buildTrip`): `type` is one of the codes it can answer with 409 (D91). */
        TripBuildConflictProblem: integration["schemas"]["Problem"] & {
            type?: ("planning.order_line_already_assigned" | "tenants.tenant.suspended" | "tenants.tenant.archived") | null;
        };
        /** @description The body of a 409 answered as TripStartConflict (by `startTrip`): `type` is one of the codes it can answer with 409 (D91). */
        TripStartConflictProblem: integration["schemas"]["Problem"] & {
            type?: ("planning.trip_not_confirmed" | "tenants.tenant.suspended" | "tenants.tenant.archived") | null;
        };
        /** @description The body of a 409 answered as StopConflict (by `recordStopOutcome`): `type` is one of the codes it can answer with 409 (D91). */
        StopConflictProblem: integration["schemas"]["Problem"] & {
            type?: ("trips.stop.tripNotActive" | "trips.stop.illegalTransition" | "tenants.tenant.suspended" | "tenants.tenant.archived") | null;
        };
        /** @description The body of a 409 answered as TripCompleteConflict (by `completeTrip`): `type` is one of the codes it can answer with 409 (D91). */
        TripCompleteConflictProblem: integration["schemas"]["Problem"] & {
            type?: ("planning.trip_not_in_progress" | "planning.trip_has_open_stops" | "tenants.tenant.suspended" | "tenants.tenant.archived") | null;
        };
        /** @description The body of a 409 answered as TripCancelConflict (by `cancelTrip`): `type` is one of the codes it can answer with 409 (D91). */
        TripCancelConflictProblem: integration["schemas"]["Problem"] & {
            type?: ("trips.mutation.tripNotCancelable" | "tenants.tenant.suspended" | "tenants.tenant.archived") | null;
        };
        /** @description The body of a 400 answered as FaultBadRequest (by `createFault`): `type` is one of the codes it can answer with 400 (D91). */
        FaultBadRequestProblem: integration["schemas"]["ValidationProblem"] & {
            /** @enum {string} */
            type?: "api.malformed_request";
        };
        /** @description The body of a 400 answered as ClockBadRequest (by `setClock` and `advanceClock`): `type` is one of the codes they can answer with 400 (D91). */
        ClockBadRequestProblem: integration["schemas"]["ValidationProblem"] & {
            /** @enum {string} */
            type?: "api.malformed_request";
        };
        /** @description The body of a 409 answered as ClockConflict (by `setClock`): `type` is one of the codes it can answer with 409 (D91). */
        ClockConflictProblem: integration["schemas"]["Problem"] & {
            type?: "about:blank" | null;
        };
        /** @description The body of a 400 answered as SimulationBadRequest (by `setSimulation`): `type` is one of the codes it can answer with 400 (D91). */
        SimulationBadRequestProblem: integration["schemas"]["ValidationProblem"] & {
            /** @enum {string} */
            type?: "api.malformed_request";
        };
        /** @description The body of a 408 answered as RequestBodyIncomplete (by 17 operations): `type` is one of the codes they can answer with 408 (D91). */
        RequestBodyIncompleteProblem: integration["schemas"]["Problem"] & {
            type?: "api.request_body_incomplete" | null;
        };
        /** @description The body of a 413 answered as PayloadTooLarge (by 17 operations): `type` is one of the codes they can answer with 413 (D91). */
        PayloadTooLargeProblem: integration["schemas"]["Problem"] & {
            type?: "api.payload_too_large" | null;
        };
        /** @description The body of a 415 answered as UnsupportedMediaType (by 17 operations): `type` is one of the codes they can answer with 415 (D91). */
        UnsupportedMediaTypeProblem: integration["schemas"]["Problem"] & {
            type?: ("api.malformed_request" | "api.unsupported_media_type") | null;
        };
        /** @description The body of a 400 answered as MalformedRequest (by `resetSandbox`): `type` is one of the codes it can answer with 400 (D91). */
        MalformedRequestProblem: integration["schemas"]["ValidationProblem"] & {
            /** @enum {string} */
            type?: "api.malformed_request";
        };
        /** @description The body of a 417 answered as ExpectationFailed (by 45 operations): `type` is one of the codes they can answer with 417 (D91). */
        ExpectationFailedProblem: integration["schemas"]["Problem"] & {
            type?: "about:blank" | null;
        };
        /** @description The body of a 500 answered as InternalError (by 45 operations): `type` is one of the codes they can answer with 500 (D91). */
        InternalErrorProblem: integration["schemas"]["Problem"] & {
            type?: "about:blank" | null;
        };
    };
    responses: {
        /** @description The tenant. */
        TenantAnswer: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Tenant"];
            };
        };
        /** @description The tag. */
        TagAnswer: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Tag"];
            };
        };
        /** @description The order with its lines. */
        OrderAnswer: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["OrderDetail"];
            };
        };
        /** @description The trip with its stops. */
        TripAnswer: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["TripDetail"];
            };
        };
        /** @description A parameter or the body is malformed. */
        BadRequest: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["BadRequestProblem"];
            };
        };
        /** @description A field of the new tenant breaks its rule. */
        TenantBadRequest: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["TenantBadRequestProblem"];
            };
        };
        /** @description The lifecycle state filter names no state. */
        TenantFilterBadRequest: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["TenantFilterBadRequestProblem"];
            };
        };
        /** @description A capability skill breaks its rule. */
        SkillsBadRequest: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["SkillsBadRequestProblem"];
            };
        };
        /** @description A key field breaks its rule. */
        KeyBadRequest: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["KeyBadRequestProblem"];
            };
        };
        /** @description A tag field breaks its rule. */
        TagBadRequest: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["TagBadRequestProblem"];
            };
        };
        /** @description A mini-status field breaks its rule. */
        MiniStatusBadRequest: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["MiniStatusBadRequestProblem"];
            };
        };
        /** @description An order field breaks an intake rule. */
        OrderBadRequest: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["OrderBadRequestProblem"];
            };
        };
        /** @description The mini-status is not one of the order's status group. */
        OrderMiniStatusBadRequest: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["OrderMiniStatusBadRequestProblem"];
            };
        };
        /** @description The import as a whole is refused. */
        ImportBadRequest: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["ImportBadRequestProblem"];
            };
        };
        /** @description A paging parameter is refused. */
        HistoryBadRequest: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["HistoryBadRequestProblem"];
            };
        };
        /** @description The orders cannot make a trip. */
        TripBadRequest: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["TripBadRequestProblem"];
            };
        };
        /** @description The cancel has no reason code. */
        TripCancelBadRequest: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["TripCancelBadRequestProblem"];
            };
        };
        /** @description A stop outcome breaks a rule. */
        StopBadRequest: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["StopBadRequestProblem"];
            };
        };
        /** @description A filter or paging parameter is refused. */
        ListBadRequest: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["ListBadRequestProblem"];
            };
        };
        /** @description A filter or paging parameter is refused. */
        RequestLogBadRequest: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["RequestLogBadRequestProblem"];
            };
        };
        /** @description Missing or wrong admin token (D3, D30). */
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
        /** @description No tenant has the id, or the tenant has no request-log entry or fault rule with the id the path names (`about:blank`, D30). */
        TenantNotFound: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["TenantNotFoundProblem"];
            };
        };
        /** @description No tenant has the id (`about:blank`, D30), or the tenant has no key with the id. */
        KeyNotFound: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["KeyNotFoundProblem"];
            };
        };
        /** @description No tenant has the id (`about:blank`, D30), or the tenant has no tag with the id. */
        TagNotFound: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["TagNotFoundProblem"];
            };
        };
        /** @description No tenant has the id (`about:blank`, D30), or the tenant has no active mini-status with the id. */
        MiniStatusNotFound: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["MiniStatusNotFoundProblem"];
            };
        };
        /** @description No tenant has the id (`about:blank`, D30), or the tenant has no order with the id. */
        OrderNotFound: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["OrderNotFoundProblem"];
            };
        };
        /** @description No tenant has the id (`about:blank`, D30), or the tenant has no trip with the id. */
        TripNotFound: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["TripNotFoundProblem"];
            };
        };
        /** @description No tenant has the id (`about:blank`, D30), the tenant has no trip with the id, or the trip has no stop at the index. */
        StopNotFound: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["StopNotFoundProblem"];
            };
        };
        /** @description The tenant is Suspended or Archived and refuses the write (D22, D31). */
        TenantConflict: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["TenantConflictProblem"];
            };
        };
        /** @description The tenant is Archived, which no move leaves (D31). */
        LifecycleConflict: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["LifecycleConflictProblem"];
            };
        };
        /** @description The key is already revoked. */
        KeyConflict: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["KeyConflictProblem"];
            };
        };
        /** @description The tag name is taken, or the tenant refuses writes. */
        TagConflict: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["TagConflictProblem"];
            };
        };
        /** @description The status group has an active entry of that name, or the tenant refuses writes. */
        MiniStatusConflict: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["MiniStatusConflictProblem"];
            };
        };
        /** @description A live order has the external id, or the tenant refuses writes. */
        OrderConflict: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["OrderConflictProblem"];
            };
        };
        /** @description The order is not archived, a live order has its external id, or the tenant refuses writes. */
        RestoreConflict: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["RestoreConflictProblem"];
            };
        };
        /** @description An order is on another trip, or the tenant refuses writes. */
        TripBuildConflict: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["TripBuildConflictProblem"];
            };
        };
        /** @description The trip is not Confirmed, or the tenant refuses writes. */
        TripStartConflict: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["TripStartConflictProblem"];
            };
        };
        /** @description The trip is not Confirmed or InProgress, or the stop is not open; or the tenant refuses writes. */
        StopConflict: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["StopConflictProblem"];
            };
        };
        /** @description The trip is not InProgress or has open stops, or the tenant refuses writes. */
        TripCompleteConflict: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["TripCompleteConflictProblem"];
            };
        };
        /** @description The trip is Completed or Cancelled, or the tenant refuses writes. */
        TripCancelConflict: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["TripCancelConflictProblem"];
            };
        };
        /** @description The fault rule cannot be honoured (D51); the field is named. */
        FaultBadRequest: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["FaultBadRequestProblem"];
            };
        };
        /** @description The clock setting or the duration is malformed (D52). */
        ClockBadRequest: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["ClockBadRequestProblem"];
            };
        };
        /** @description The setting would move the tenant's clock backwards (D7, D52). */
        ClockConflict: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["ClockConflictProblem"];
            };
        };
        /** @description The simulation setting is malformed (D53). */
        SimulationBadRequest: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["SimulationBadRequestProblem"];
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
        /** @description The body is not `application/json`, or has no `Content-Type` (D17). */
        UnsupportedMediaType: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["UnsupportedMediaTypeProblem"];
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
    };
    parameters: {
        /**
         * @description The tenant's id. An unknown tenant is 404 `about:blank` (D30).
         * @example 8e4f2a6c-1b3d-4f5e-9a7b-c2d4e6f8a0b1
         */
        TenantId: string;
        /**
         * @description The key's id as the key list shows it.
         * @example key_3Lk9QmZ2aB7c
         */
        KeyId: string;
        TagId: string;
        MiniStatusId: string;
        /** @description The order's id (the `id` of the Order), archived orders included. */
        OrderId: string;
        /** @description The rule's id. */
        FaultId: string;
        TripId: string;
        /**
         * @description The stop's index on the trip, from 0.
         * @example 0
         */
        StopIndex: number;
        /** @description Keep only tenants in this state; anything else is 400 `tenants.lifecycle.state.invalid`. */
        TenantStateFilter: components["schemas"]["TenantStateFilter"];
        /** @description The `nextCursor` of the previous page. A value the server did not issue is 400 `audit.cursor.invalid` (D40). */
        After: string;
        /** @description Page size; default 50, values above 100 are capped. */
        HistoryLimit: number;
        /**
         * @deprecated
         * @description Retired with cursor paging; any value is refused with 400 `audit.page.retired` (D40).
         */
        RetiredPage: components["schemas"]["RetiredPage"];
        /** @description The `nextCursor` of the previous page, sent with the same `sort`. A value the server did not issue for this tenant's list in that sort is 400 `audit.cursor.invalid` (D87). */
        ListAfter: string;
        /** @description `newest` (the default): the item changed last comes first; `oldest`: the feed's order (D87). */
        ListSort: "newest" | "oldest";
        /** @description Repeat to keep only those statuses (`?status=New&status=Planned`); an unknown status is 400 `api.malformed_request`, field `status`. */
        OrderListStatus: integration["schemas"]["OrderStatusName"][];
        /** @description Repeat to keep only those trip statuses; an unknown status is 400 `api.malformed_request`, field `status`. */
        TripListStatus: integration["schemas"]["TripStatus"][];
        /** @description The `nextCursor` of the previous page. A value the server did not issue for this tenant's log is 400 `audit.cursor.invalid` (D48). */
        RequestLogAfter: string;
        /** @description Keep only requests to this operation of the integration API. */
        RequestLogOperation: "orderFeed" | "tripFeed" | "attachPayment" | "cancelOrder" | "archiveOrder" | "whoami";
        /** @description Keep only answers of this status class. */
        RequestLogStatusClass: "2xx" | "3xx" | "4xx" | "5xx";
        /** @description Keep only problem answers of this `type` (a catalog code or `about:blank`). */
        RequestLogProblemType: string;
        /** @description Keep only requests made with this key (its id as the key list shows it). */
        RequestLogKeyId: string;
        /**
         * @description Keep only requests received at or after this instant (any RFC 3339 date-time).
         * @example 2026-11-20T09:00:00.000Z
         */
        RequestLogSince: string;
        /** @description Optional request id, echoed on the answer (D23). */
        RequestId: string;
    };
    requestBodies: never;
    headers: {
        /** @description The request's id, echoed when the client sent one, issued otherwise (D23). */
        "X-Request-Id": string;
        /** @description The scheme the control plane accepts (D3). */
        "WWW-Authenticate": string;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    resetSandbox: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional request id, echoed on the answer (D23). */
                "X-Request-Id"?: components["parameters"]["RequestId"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The sandbox is empty. */
            204: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["MalformedRequest"];
            401: components["responses"]["Unauthorized"];
            417: components["responses"]["ExpectationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    createProfile: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional request id, echoed on the answer (D23). */
                "X-Request-Id"?: components["parameters"]["RequestId"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["ProfileRequest"];
            };
        };
        responses: {
            /** @description The profile; it holds live secrets, shown only here. */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Profile"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            408: components["responses"]["RequestBodyIncomplete"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            417: components["responses"]["ExpectationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    listTenants: {
        parameters: {
            query?: {
                /** @description Keep only tenants in this state; anything else is 400 `tenants.lifecycle.state.invalid`. */
                state?: components["parameters"]["TenantStateFilter"];
            };
            header?: {
                /** @description Optional request id, echoed on the answer (D23). */
                "X-Request-Id"?: components["parameters"]["RequestId"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The tenants. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TenantList"];
                };
            };
            400: components["responses"]["TenantFilterBadRequest"];
            401: components["responses"]["Unauthorized"];
            417: components["responses"]["ExpectationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    createTenant: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional request id, echoed on the answer (D23). */
                "X-Request-Id"?: components["parameters"]["RequestId"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NewTenant"];
            };
        };
        responses: {
            201: components["responses"]["TenantAnswer"];
            400: components["responses"]["TenantBadRequest"];
            401: components["responses"]["Unauthorized"];
            408: components["responses"]["RequestBodyIncomplete"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            417: components["responses"]["ExpectationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    getTenant: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional request id, echoed on the answer (D23). */
                "X-Request-Id"?: components["parameters"]["RequestId"];
            };
            path: {
                /**
                 * @description The tenant's id. An unknown tenant is 404 `about:blank` (D30).
                 * @example 8e4f2a6c-1b3d-4f5e-9a7b-c2d4e6f8a0b1
                 */
                tenantId: components["parameters"]["TenantId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["TenantAnswer"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["TenantNotFound"];
            417: components["responses"]["ExpectationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    suspendTenant: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional request id, echoed on the answer (D23). */
                "X-Request-Id"?: components["parameters"]["RequestId"];
            };
            path: {
                /**
                 * @description The tenant's id. An unknown tenant is 404 `about:blank` (D30).
                 * @example 8e4f2a6c-1b3d-4f5e-9a7b-c2d4e6f8a0b1
                 */
                tenantId: components["parameters"]["TenantId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["TenantAnswer"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["TenantNotFound"];
            409: components["responses"]["LifecycleConflict"];
            417: components["responses"]["ExpectationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    reactivateTenant: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional request id, echoed on the answer (D23). */
                "X-Request-Id"?: components["parameters"]["RequestId"];
            };
            path: {
                /**
                 * @description The tenant's id. An unknown tenant is 404 `about:blank` (D30).
                 * @example 8e4f2a6c-1b3d-4f5e-9a7b-c2d4e6f8a0b1
                 */
                tenantId: components["parameters"]["TenantId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["TenantAnswer"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["TenantNotFound"];
            409: components["responses"]["LifecycleConflict"];
            417: components["responses"]["ExpectationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    archiveTenant: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional request id, echoed on the answer (D23). */
                "X-Request-Id"?: components["parameters"]["RequestId"];
            };
            path: {
                /**
                 * @description The tenant's id. An unknown tenant is 404 `about:blank` (D30).
                 * @example 8e4f2a6c-1b3d-4f5e-9a7b-c2d4e6f8a0b1
                 */
                tenantId: components["parameters"]["TenantId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["TenantAnswer"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["TenantNotFound"];
            409: components["responses"]["LifecycleConflict"];
            417: components["responses"]["ExpectationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    setTenantSkills: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional request id, echoed on the answer (D23). */
                "X-Request-Id"?: components["parameters"]["RequestId"];
            };
            path: {
                /**
                 * @description The tenant's id. An unknown tenant is 404 `about:blank` (D30).
                 * @example 8e4f2a6c-1b3d-4f5e-9a7b-c2d4e6f8a0b1
                 */
                tenantId: components["parameters"]["TenantId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SkillsRequest"];
            };
        };
        responses: {
            200: components["responses"]["TenantAnswer"];
            400: components["responses"]["SkillsBadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["TenantNotFound"];
            408: components["responses"]["RequestBodyIncomplete"];
            409: components["responses"]["TenantConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            417: components["responses"]["ExpectationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    listApiKeys: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional request id, echoed on the answer (D23). */
                "X-Request-Id"?: components["parameters"]["RequestId"];
            };
            path: {
                /**
                 * @description The tenant's id. An unknown tenant is 404 `about:blank` (D30).
                 * @example 8e4f2a6c-1b3d-4f5e-9a7b-c2d4e6f8a0b1
                 */
                tenantId: components["parameters"]["TenantId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The keys. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKeyList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["TenantNotFound"];
            417: components["responses"]["ExpectationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    createApiKey: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional request id, echoed on the answer (D23). */
                "X-Request-Id"?: components["parameters"]["RequestId"];
            };
            path: {
                /**
                 * @description The tenant's id. An unknown tenant is 404 `about:blank` (D30).
                 * @example 8e4f2a6c-1b3d-4f5e-9a7b-c2d4e6f8a0b1
                 */
                tenantId: components["parameters"]["TenantId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NewApiKey"];
            };
        };
        responses: {
            /** @description The key, with its secret shown this once. */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedApiKey"];
                };
            };
            400: components["responses"]["KeyBadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["TenantNotFound"];
            408: components["responses"]["RequestBodyIncomplete"];
            409: components["responses"]["TenantConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            417: components["responses"]["ExpectationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    revokeApiKey: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional request id, echoed on the answer (D23). */
                "X-Request-Id"?: components["parameters"]["RequestId"];
            };
            path: {
                /**
                 * @description The tenant's id. An unknown tenant is 404 `about:blank` (D30).
                 * @example 8e4f2a6c-1b3d-4f5e-9a7b-c2d4e6f8a0b1
                 */
                tenantId: components["parameters"]["TenantId"];
                /**
                 * @description The key's id as the key list shows it.
                 * @example key_3Lk9QmZ2aB7c
                 */
                keyId: components["parameters"]["KeyId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The revoked key. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKey"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["KeyNotFound"];
            409: components["responses"]["KeyConflict"];
            417: components["responses"]["ExpectationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    listTags: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional request id, echoed on the answer (D23). */
                "X-Request-Id"?: components["parameters"]["RequestId"];
            };
            path: {
                /**
                 * @description The tenant's id. An unknown tenant is 404 `about:blank` (D30).
                 * @example 8e4f2a6c-1b3d-4f5e-9a7b-c2d4e6f8a0b1
                 */
                tenantId: components["parameters"]["TenantId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The tags, by name. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TagList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["TenantNotFound"];
            417: components["responses"]["ExpectationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    createTag: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional request id, echoed on the answer (D23). */
                "X-Request-Id"?: components["parameters"]["RequestId"];
            };
            path: {
                /**
                 * @description The tenant's id. An unknown tenant is 404 `about:blank` (D30).
                 * @example 8e4f2a6c-1b3d-4f5e-9a7b-c2d4e6f8a0b1
                 */
                tenantId: components["parameters"]["TenantId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NewTag"];
            };
        };
        responses: {
            201: components["responses"]["TagAnswer"];
            400: components["responses"]["TagBadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["TenantNotFound"];
            408: components["responses"]["RequestBodyIncomplete"];
            409: components["responses"]["TagConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            417: components["responses"]["ExpectationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    updateTag: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional request id, echoed on the answer (D23). */
                "X-Request-Id"?: components["parameters"]["RequestId"];
            };
            path: {
                /**
                 * @description The tenant's id. An unknown tenant is 404 `about:blank` (D30).
                 * @example 8e4f2a6c-1b3d-4f5e-9a7b-c2d4e6f8a0b1
                 */
                tenantId: components["parameters"]["TenantId"];
                tagId: components["parameters"]["TagId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TagPatch"];
            };
        };
        responses: {
            200: components["responses"]["TagAnswer"];
            400: components["responses"]["TagBadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["TagNotFound"];
            408: components["responses"]["RequestBodyIncomplete"];
            409: components["responses"]["TagConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            417: components["responses"]["ExpectationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    listMiniStatuses: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional request id, echoed on the answer (D23). */
                "X-Request-Id"?: components["parameters"]["RequestId"];
            };
            path: {
                /**
                 * @description The tenant's id. An unknown tenant is 404 `about:blank` (D30).
                 * @example 8e4f2a6c-1b3d-4f5e-9a7b-c2d4e6f8a0b1
                 */
                tenantId: components["parameters"]["TenantId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The directory. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MiniStatusList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["TenantNotFound"];
            417: components["responses"]["ExpectationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    createMiniStatus: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional request id, echoed on the answer (D23). */
                "X-Request-Id"?: components["parameters"]["RequestId"];
            };
            path: {
                /**
                 * @description The tenant's id. An unknown tenant is 404 `about:blank` (D30).
                 * @example 8e4f2a6c-1b3d-4f5e-9a7b-c2d4e6f8a0b1
                 */
                tenantId: components["parameters"]["TenantId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NewMiniStatus"];
            };
        };
        responses: {
            /** @description The new entry. */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MiniStatus"];
                };
            };
            400: components["responses"]["MiniStatusBadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["TenantNotFound"];
            408: components["responses"]["RequestBodyIncomplete"];
            409: components["responses"]["MiniStatusConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            417: components["responses"]["ExpectationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    deactivateMiniStatus: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional request id, echoed on the answer (D23). */
                "X-Request-Id"?: components["parameters"]["RequestId"];
            };
            path: {
                /**
                 * @description The tenant's id. An unknown tenant is 404 `about:blank` (D30).
                 * @example 8e4f2a6c-1b3d-4f5e-9a7b-c2d4e6f8a0b1
                 */
                tenantId: components["parameters"]["TenantId"];
                miniStatusId: components["parameters"]["MiniStatusId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deactivated. */
            204: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["MiniStatusNotFound"];
            409: components["responses"]["TenantConflict"];
            417: components["responses"]["ExpectationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    listOrders: {
        parameters: {
            query?: {
                /** @description The `nextCursor` of the previous page, sent with the same `sort`. A value the server did not issue for this tenant's list in that sort is 400 `audit.cursor.invalid` (D87). */
                after?: components["parameters"]["ListAfter"];
                /** @description Page size; default 50, values above 100 are capped. */
                limit?: components["parameters"]["HistoryLimit"];
                /** @description Repeat to keep only those statuses (`?status=New&status=Planned`); an unknown status is 400 `api.malformed_request`, field `status`. */
                status?: components["parameters"]["OrderListStatus"];
                /** @description `newest` (the default): the item changed last comes first; `oldest`: the feed's order (D87). */
                sort?: components["parameters"]["ListSort"];
            };
            header?: {
                /** @description Optional request id, echoed on the answer (D23). */
                "X-Request-Id"?: components["parameters"]["RequestId"];
            };
            path: {
                /**
                 * @description The tenant's id. An unknown tenant is 404 `about:blank` (D30).
                 * @example 8e4f2a6c-1b3d-4f5e-9a7b-c2d4e6f8a0b1
                 */
                tenantId: components["parameters"]["TenantId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the list. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OrderListPage"];
                };
            };
            400: components["responses"]["ListBadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["TenantNotFound"];
            417: components["responses"]["ExpectationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    createOrder: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional request id, echoed on the answer (D23). */
                "X-Request-Id"?: components["parameters"]["RequestId"];
            };
            path: {
                /**
                 * @description The tenant's id. An unknown tenant is 404 `about:blank` (D30).
                 * @example 8e4f2a6c-1b3d-4f5e-9a7b-c2d4e6f8a0b1
                 */
                tenantId: components["parameters"]["TenantId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["OrderIntake"];
            };
        };
        responses: {
            201: components["responses"]["OrderAnswer"];
            400: components["responses"]["OrderBadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["TagNotFound"];
            408: components["responses"]["RequestBodyIncomplete"];
            409: components["responses"]["OrderConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            417: components["responses"]["ExpectationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    importOrders: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional request id, echoed on the answer (D23). */
                "X-Request-Id"?: components["parameters"]["RequestId"];
            };
            path: {
                /**
                 * @description The tenant's id. An unknown tenant is 404 `about:blank` (D30).
                 * @example 8e4f2a6c-1b3d-4f5e-9a7b-c2d4e6f8a0b1
                 */
                tenantId: components["parameters"]["TenantId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ImportRequest"];
            };
        };
        responses: {
            /** @description What became of each row. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ImportResult"];
                };
            };
            400: components["responses"]["ImportBadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["TenantNotFound"];
            408: components["responses"]["RequestBodyIncomplete"];
            409: components["responses"]["TenantConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            417: components["responses"]["ExpectationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    getOrder: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional request id, echoed on the answer (D23). */
                "X-Request-Id"?: components["parameters"]["RequestId"];
            };
            path: {
                /**
                 * @description The tenant's id. An unknown tenant is 404 `about:blank` (D30).
                 * @example 8e4f2a6c-1b3d-4f5e-9a7b-c2d4e6f8a0b1
                 */
                tenantId: components["parameters"]["TenantId"];
                /** @description The order's id (the `id` of the Order), archived orders included. */
                orderId: components["parameters"]["OrderId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["OrderAnswer"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["OrderNotFound"];
            417: components["responses"]["ExpectationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    restoreOrder: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional request id, echoed on the answer (D23). */
                "X-Request-Id"?: components["parameters"]["RequestId"];
            };
            path: {
                /**
                 * @description The tenant's id. An unknown tenant is 404 `about:blank` (D30).
                 * @example 8e4f2a6c-1b3d-4f5e-9a7b-c2d4e6f8a0b1
                 */
                tenantId: components["parameters"]["TenantId"];
                /** @description The order's id (the `id` of the Order), archived orders included. */
                orderId: components["parameters"]["OrderId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["OrderAnswer"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["OrderNotFound"];
            409: components["responses"]["RestoreConflict"];
            417: components["responses"]["ExpectationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    setOrderMiniStatus: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional request id, echoed on the answer (D23). */
                "X-Request-Id"?: components["parameters"]["RequestId"];
            };
            path: {
                /**
                 * @description The tenant's id. An unknown tenant is 404 `about:blank` (D30).
                 * @example 8e4f2a6c-1b3d-4f5e-9a7b-c2d4e6f8a0b1
                 */
                tenantId: components["parameters"]["TenantId"];
                /** @description The order's id (the `id` of the Order), archived orders included. */
                orderId: components["parameters"]["OrderId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MiniStatusRequest"];
            };
        };
        responses: {
            200: components["responses"]["OrderAnswer"];
            400: components["responses"]["OrderMiniStatusBadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["OrderNotFound"];
            408: components["responses"]["RequestBodyIncomplete"];
            409: components["responses"]["TenantConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            417: components["responses"]["ExpectationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    orderHistory: {
        parameters: {
            query?: {
                /** @description The `nextCursor` of the previous page. A value the server did not issue is 400 `audit.cursor.invalid` (D40). */
                after?: components["parameters"]["After"];
                /** @description Page size; default 50, values above 100 are capped. */
                limit?: components["parameters"]["HistoryLimit"];
                /**
                 * @deprecated
                 * @description Retired with cursor paging; any value is refused with 400 `audit.page.retired` (D40).
                 */
                page?: components["parameters"]["RetiredPage"];
            };
            header?: {
                /** @description Optional request id, echoed on the answer (D23). */
                "X-Request-Id"?: components["parameters"]["RequestId"];
            };
            path: {
                /**
                 * @description The tenant's id. An unknown tenant is 404 `about:blank` (D30).
                 * @example 8e4f2a6c-1b3d-4f5e-9a7b-c2d4e6f8a0b1
                 */
                tenantId: components["parameters"]["TenantId"];
                /** @description The order's id (the `id` of the Order), archived orders included. */
                orderId: components["parameters"]["OrderId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the history. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HistoryPage"];
                };
            };
            400: components["responses"]["HistoryBadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["OrderNotFound"];
            417: components["responses"]["ExpectationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    listTrips: {
        parameters: {
            query?: {
                /** @description The `nextCursor` of the previous page, sent with the same `sort`. A value the server did not issue for this tenant's list in that sort is 400 `audit.cursor.invalid` (D87). */
                after?: components["parameters"]["ListAfter"];
                /** @description Page size; default 50, values above 100 are capped. */
                limit?: components["parameters"]["HistoryLimit"];
                /** @description Repeat to keep only those trip statuses; an unknown status is 400 `api.malformed_request`, field `status`. */
                status?: components["parameters"]["TripListStatus"];
                /** @description `newest` (the default): the item changed last comes first; `oldest`: the feed's order (D87). */
                sort?: components["parameters"]["ListSort"];
            };
            header?: {
                /** @description Optional request id, echoed on the answer (D23). */
                "X-Request-Id"?: components["parameters"]["RequestId"];
            };
            path: {
                /**
                 * @description The tenant's id. An unknown tenant is 404 `about:blank` (D30).
                 * @example 8e4f2a6c-1b3d-4f5e-9a7b-c2d4e6f8a0b1
                 */
                tenantId: components["parameters"]["TenantId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the list. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TripListPage"];
                };
            };
            400: components["responses"]["ListBadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["TenantNotFound"];
            417: components["responses"]["ExpectationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    buildTrip: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional request id, echoed on the answer (D23). */
                "X-Request-Id"?: components["parameters"]["RequestId"];
            };
            path: {
                /**
                 * @description The tenant's id. An unknown tenant is 404 `about:blank` (D30).
                 * @example 8e4f2a6c-1b3d-4f5e-9a7b-c2d4e6f8a0b1
                 */
                tenantId: components["parameters"]["TenantId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TripBuild"];
            };
        };
        responses: {
            201: components["responses"]["TripAnswer"];
            400: components["responses"]["TripBadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["TenantNotFound"];
            408: components["responses"]["RequestBodyIncomplete"];
            409: components["responses"]["TripBuildConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            417: components["responses"]["ExpectationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    getTrip: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional request id, echoed on the answer (D23). */
                "X-Request-Id"?: components["parameters"]["RequestId"];
            };
            path: {
                /**
                 * @description The tenant's id. An unknown tenant is 404 `about:blank` (D30).
                 * @example 8e4f2a6c-1b3d-4f5e-9a7b-c2d4e6f8a0b1
                 */
                tenantId: components["parameters"]["TenantId"];
                tripId: components["parameters"]["TripId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["TripAnswer"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["TripNotFound"];
            417: components["responses"]["ExpectationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    startTrip: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional request id, echoed on the answer (D23). */
                "X-Request-Id"?: components["parameters"]["RequestId"];
            };
            path: {
                /**
                 * @description The tenant's id. An unknown tenant is 404 `about:blank` (D30).
                 * @example 8e4f2a6c-1b3d-4f5e-9a7b-c2d4e6f8a0b1
                 */
                tenantId: components["parameters"]["TenantId"];
                tripId: components["parameters"]["TripId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["TripAnswer"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["TripNotFound"];
            409: components["responses"]["TripStartConflict"];
            417: components["responses"]["ExpectationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    recordStopOutcome: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional request id, echoed on the answer (D23). */
                "X-Request-Id"?: components["parameters"]["RequestId"];
            };
            path: {
                /**
                 * @description The tenant's id. An unknown tenant is 404 `about:blank` (D30).
                 * @example 8e4f2a6c-1b3d-4f5e-9a7b-c2d4e6f8a0b1
                 */
                tenantId: components["parameters"]["TenantId"];
                tripId: components["parameters"]["TripId"];
                /**
                 * @description The stop's index on the trip, from 0.
                 * @example 0
                 */
                stopIndex: components["parameters"]["StopIndex"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["StopOutcomeRequest"];
            };
        };
        responses: {
            200: components["responses"]["TripAnswer"];
            400: components["responses"]["StopBadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["StopNotFound"];
            408: components["responses"]["RequestBodyIncomplete"];
            409: components["responses"]["StopConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            417: components["responses"]["ExpectationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    completeTrip: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional request id, echoed on the answer (D23). */
                "X-Request-Id"?: components["parameters"]["RequestId"];
            };
            path: {
                /**
                 * @description The tenant's id. An unknown tenant is 404 `about:blank` (D30).
                 * @example 8e4f2a6c-1b3d-4f5e-9a7b-c2d4e6f8a0b1
                 */
                tenantId: components["parameters"]["TenantId"];
                tripId: components["parameters"]["TripId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["TripAnswer"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["TripNotFound"];
            409: components["responses"]["TripCompleteConflict"];
            417: components["responses"]["ExpectationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    cancelTrip: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional request id, echoed on the answer (D23). */
                "X-Request-Id"?: components["parameters"]["RequestId"];
            };
            path: {
                /**
                 * @description The tenant's id. An unknown tenant is 404 `about:blank` (D30).
                 * @example 8e4f2a6c-1b3d-4f5e-9a7b-c2d4e6f8a0b1
                 */
                tenantId: components["parameters"]["TenantId"];
                tripId: components["parameters"]["TripId"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["TripCancelRequest"];
            };
        };
        responses: {
            200: components["responses"]["TripAnswer"];
            400: components["responses"]["TripCancelBadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["TripNotFound"];
            408: components["responses"]["RequestBodyIncomplete"];
            409: components["responses"]["TripCancelConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            417: components["responses"]["ExpectationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    listRequests: {
        parameters: {
            query?: {
                /** @description The `nextCursor` of the previous page. A value the server did not issue for this tenant's log is 400 `audit.cursor.invalid` (D48). */
                after?: components["parameters"]["RequestLogAfter"];
                /** @description Page size; default 50, values above 100 are capped. */
                limit?: components["parameters"]["HistoryLimit"];
                /** @description Keep only requests to this operation of the integration API. */
                operation?: components["parameters"]["RequestLogOperation"];
                /** @description Keep only answers of this status class. */
                statusClass?: components["parameters"]["RequestLogStatusClass"];
                /** @description Keep only problem answers of this `type` (a catalog code or `about:blank`). */
                problemType?: components["parameters"]["RequestLogProblemType"];
                /** @description Keep only requests made with this key (its id as the key list shows it). */
                keyId?: components["parameters"]["RequestLogKeyId"];
                /**
                 * @description Keep only requests received at or after this instant (any RFC 3339 date-time).
                 * @example 2026-11-20T09:00:00.000Z
                 */
                since?: components["parameters"]["RequestLogSince"];
            };
            header?: {
                /** @description Optional request id, echoed on the answer (D23). */
                "X-Request-Id"?: components["parameters"]["RequestId"];
            };
            path: {
                /**
                 * @description The tenant's id. An unknown tenant is 404 `about:blank` (D30).
                 * @example 8e4f2a6c-1b3d-4f5e-9a7b-c2d4e6f8a0b1
                 */
                tenantId: components["parameters"]["TenantId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the log. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RequestLogPage"];
                };
            };
            400: components["responses"]["RequestLogBadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["TenantNotFound"];
            417: components["responses"]["ExpectationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    streamRequests: {
        parameters: {
            query?: never;
            header?: {
                /** @description The id of the last entry the client saw; the entries after it are sent first. */
                "Last-Event-ID"?: string;
                /** @description Optional request id, echoed on the answer (D23). */
                "X-Request-Id"?: components["parameters"]["RequestId"];
            };
            path: {
                /**
                 * @description The tenant's id. An unknown tenant is 404 `about:blank` (D30).
                 * @example 8e4f2a6c-1b3d-4f5e-9a7b-c2d4e6f8a0b1
                 */
                tenantId: components["parameters"]["TenantId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The stream; it stays open until the client closes it. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["TenantNotFound"];
            417: components["responses"]["ExpectationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    getRequest: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional request id, echoed on the answer (D23). */
                "X-Request-Id"?: components["parameters"]["RequestId"];
            };
            path: {
                /**
                 * @description The tenant's id. An unknown tenant is 404 `about:blank` (D30).
                 * @example 8e4f2a6c-1b3d-4f5e-9a7b-c2d4e6f8a0b1
                 */
                tenantId: components["parameters"]["TenantId"];
                /**
                 * @description The entry's `id`.
                 * @example 1042
                 */
                entryId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The entry. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RequestLogEntry"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["TenantNotFound"];
            417: components["responses"]["ExpectationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    listFaults: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional request id, echoed on the answer (D23). */
                "X-Request-Id"?: components["parameters"]["RequestId"];
            };
            path: {
                /**
                 * @description The tenant's id. An unknown tenant is 404 `about:blank` (D30).
                 * @example 8e4f2a6c-1b3d-4f5e-9a7b-c2d4e6f8a0b1
                 */
                tenantId: components["parameters"]["TenantId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The rules. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FaultRuleList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["TenantNotFound"];
            417: components["responses"]["ExpectationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    createFault: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional request id, echoed on the answer (D23). */
                "X-Request-Id"?: components["parameters"]["RequestId"];
            };
            path: {
                /**
                 * @description The tenant's id. An unknown tenant is 404 `about:blank` (D30).
                 * @example 8e4f2a6c-1b3d-4f5e-9a7b-c2d4e6f8a0b1
                 */
                tenantId: components["parameters"]["TenantId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NewFaultRule"];
            };
        };
        responses: {
            /** @description The rule, in force from the next call. */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FaultRule"];
                };
            };
            400: components["responses"]["FaultBadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["TenantNotFound"];
            408: components["responses"]["RequestBodyIncomplete"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            417: components["responses"]["ExpectationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    deleteFaults: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional request id, echoed on the answer (D23). */
                "X-Request-Id"?: components["parameters"]["RequestId"];
            };
            path: {
                /**
                 * @description The tenant's id. An unknown tenant is 404 `about:blank` (D30).
                 * @example 8e4f2a6c-1b3d-4f5e-9a7b-c2d4e6f8a0b1
                 */
                tenantId: components["parameters"]["TenantId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The tenant has no fault rules. */
            204: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["TenantNotFound"];
            417: components["responses"]["ExpectationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    deleteFault: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional request id, echoed on the answer (D23). */
                "X-Request-Id"?: components["parameters"]["RequestId"];
            };
            path: {
                /**
                 * @description The tenant's id. An unknown tenant is 404 `about:blank` (D30).
                 * @example 8e4f2a6c-1b3d-4f5e-9a7b-c2d4e6f8a0b1
                 */
                tenantId: components["parameters"]["TenantId"];
                /** @description The rule's id. */
                faultId: components["parameters"]["FaultId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The rule is gone. */
            204: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["TenantNotFound"];
            417: components["responses"]["ExpectationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    getClock: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional request id, echoed on the answer (D23). */
                "X-Request-Id"?: components["parameters"]["RequestId"];
            };
            path: {
                /**
                 * @description The tenant's id. An unknown tenant is 404 `about:blank` (D30).
                 * @example 8e4f2a6c-1b3d-4f5e-9a7b-c2d4e6f8a0b1
                 */
                tenantId: components["parameters"]["TenantId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The clock. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Clock"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["TenantNotFound"];
            417: components["responses"]["ExpectationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    setClock: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional request id, echoed on the answer (D23). */
                "X-Request-Id"?: components["parameters"]["RequestId"];
            };
            path: {
                /**
                 * @description The tenant's id. An unknown tenant is 404 `about:blank` (D30).
                 * @example 8e4f2a6c-1b3d-4f5e-9a7b-c2d4e6f8a0b1
                 */
                tenantId: components["parameters"]["TenantId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ClockSetting"];
            };
        };
        responses: {
            /** @description The clock as set. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Clock"];
                };
            };
            400: components["responses"]["ClockBadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["TenantNotFound"];
            408: components["responses"]["RequestBodyIncomplete"];
            409: components["responses"]["ClockConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            417: components["responses"]["ExpectationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    advanceClock: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional request id, echoed on the answer (D23). */
                "X-Request-Id"?: components["parameters"]["RequestId"];
            };
            path: {
                /**
                 * @description The tenant's id. An unknown tenant is 404 `about:blank` (D30).
                 * @example 8e4f2a6c-1b3d-4f5e-9a7b-c2d4e6f8a0b1
                 */
                tenantId: components["parameters"]["TenantId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ClockAdvance"];
            };
        };
        responses: {
            /** @description The clock after the move, and the changes the simulation made. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ClockAdvanced"];
                };
            };
            400: components["responses"]["ClockBadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["TenantNotFound"];
            408: components["responses"]["RequestBodyIncomplete"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            417: components["responses"]["ExpectationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    getSimulation: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional request id, echoed on the answer (D23). */
                "X-Request-Id"?: components["parameters"]["RequestId"];
            };
            path: {
                /**
                 * @description The tenant's id. An unknown tenant is 404 `about:blank` (D30).
                 * @example 8e4f2a6c-1b3d-4f5e-9a7b-c2d4e6f8a0b1
                 */
                tenantId: components["parameters"]["TenantId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The simulation. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Simulation"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["TenantNotFound"];
            417: components["responses"]["ExpectationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    setSimulation: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional request id, echoed on the answer (D23). */
                "X-Request-Id"?: components["parameters"]["RequestId"];
            };
            path: {
                /**
                 * @description The tenant's id. An unknown tenant is 404 `about:blank` (D30).
                 * @example 8e4f2a6c-1b3d-4f5e-9a7b-c2d4e6f8a0b1
                 */
                tenantId: components["parameters"]["TenantId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SimulationSetting"];
            };
        };
        responses: {
            /** @description The simulation, running. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Simulation"];
                };
            };
            400: components["responses"]["SimulationBadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["TenantNotFound"];
            408: components["responses"]["RequestBodyIncomplete"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            417: components["responses"]["ExpectationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    stopSimulation: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional request id, echoed on the answer (D23). */
                "X-Request-Id"?: components["parameters"]["RequestId"];
            };
            path: {
                /**
                 * @description The tenant's id. An unknown tenant is 404 `about:blank` (D30).
                 * @example 8e4f2a6c-1b3d-4f5e-9a7b-c2d4e6f8a0b1
                 */
                tenantId: components["parameters"]["TenantId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The simulation, stopped. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Simulation"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["TenantNotFound"];
            417: components["responses"]["ExpectationFailed"];
            500: components["responses"]["InternalError"];
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
export const tenantStateValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["TenantState"]> = ["Active", "Suspended", "Archived"];
export const tenantStateFilterValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["TenantStateFilter"]> = ["Active", "Suspended", "Archived"];
export const scopeValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["Scope"]> = ["orders:read", "orders:write", "trips:read"];
export const lineRoleValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["LineRole"]> = ["Delivery", "PickUp"];
export const integrationOperationValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["IntegrationOperation"]> = ["orderFeed", "tripFeed", "attachPayment", "cancelOrder", "archiveOrder", "whoami"];
export const faultKindValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["FaultKind"]> = ["latency", "status", "reset", "empty", "malformed", "stall", "problem"];
export const newFaultRuleStatusValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["NewFaultRule"]["status"]> = [429, 500, 503];
export const newFaultRuleProblemTypeValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["NewFaultRule"]["problemType"]> = ["api.rate_limited", "idempotency.inFlight"];
export const newFaultRuleWhenValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["NewFaultRule"]["when"]> = ["before", "after"];
export const faultRuleStatusOneOf0Values: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["FaultRule"]["status"]> = [429, 500, 503];
export const faultRuleProblemTypeOneOf0Values: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["FaultRule"]["problemType"]> = ["api.rate_limited", "idempotency.inFlight"];
export const faultRuleWhenOneOf0Values: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["FaultRule"]["when"]> = ["before", "after"];
export const requestLogFaultSourceValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["RequestLogFault"]["source"]> = ["rule", "prefer"];
export const requestLogFaultWhenOneOf0Values: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["RequestLogFault"]["when"]> = ["before", "after"];
export const clockModeValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["Clock"]["mode"]> = ["system", "frozen", "offset"];
export const clockSettingModeValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["ClockSetting"]["mode"]> = ["system", "frozen", "offset"];
export const stopStatusValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["StopStatus"]> = ["Open", "Completed", "Failed", "Cancelled", "Removed"];
export const stopLineVocabularyValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["StopLine"]["vocabulary"]> = ["delivery", "collection"];
export const stopOutcomeRequestStatusValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["StopOutcomeRequest"]["status"]> = ["Completed", "Failed"];
export const badRequestProblemTypeValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["BadRequestProblem"]["type"]> = ["api.malformed_request"];
export const tenantBadRequestProblemTypeValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["TenantBadRequestProblem"]["type"]> = ["api.malformed_request", "tenants.country.required", "tenants.country.invalid", "tenants.skills.value.invalid", "tenants.skills.duplicate", "tenants.skills.too_many"];
export const tenantFilterBadRequestProblemTypeValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["TenantFilterBadRequestProblem"]["type"]> = ["api.malformed_request", "tenants.lifecycle.state.invalid"];
export const skillsBadRequestProblemTypeValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["SkillsBadRequestProblem"]["type"]> = ["api.malformed_request", "tenants.skills.value.invalid", "tenants.skills.duplicate", "tenants.skills.too_many"];
export const keyBadRequestProblemTypeValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["KeyBadRequestProblem"]["type"]> = ["api.malformed_request", "apikeys.name_required", "apikeys.invalid_scope", "apikeys.invalid_rate_limit", "apikeys.rate_limit_above_max"];
export const tagBadRequestProblemTypeValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["TagBadRequestProblem"]["type"]> = ["api.malformed_request", "tags.name.invalid", "tags.color.invalid"];
export const miniStatusBadRequestProblemTypeValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["MiniStatusBadRequestProblem"]["type"]> = ["api.malformed_request", "ministatuses.name.invalid"];
export const orderBadRequestProblemTypeValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["OrderBadRequestProblem"]["type"]> = ["api.malformed_request", "orders.externalId.required", "orders.lines.required", "orders.line.warehouseRequired", "orders.line.productRequired", "orders.line.requestedQty.invalid", "orders.line.measure.invalid", "orders.price.invalid", "orders.line.roleNotAllowed", "orders.return.relatedRequired"];
export const orderMiniStatusBadRequestProblemTypeValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["OrderMiniStatusBadRequestProblem"]["type"]> = ["api.malformed_request", "orders.miniStatus.invalid", "orders.miniStatus.unknown"];
export const importBadRequestProblemTypeValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["ImportBadRequestProblem"]["type"]> = ["api.malformed_request", "import.file.invalid", "import.rows.too_many"];
export const historyBadRequestProblemTypeValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["HistoryBadRequestProblem"]["type"]> = ["api.malformed_request", "audit.cursor.invalid", "audit.page.retired"];
export const tripBadRequestProblemTypeValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["TripBadRequestProblem"]["type"]> = ["api.malformed_request", "planning.trip_no_lines", "planning.order_not_plannable"];
export const tripCancelBadRequestProblemTypeValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["TripCancelBadRequestProblem"]["type"]> = ["api.malformed_request", "trips.mutation.cancelReasonRequired"];
export const stopBadRequestProblemTypeValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["StopBadRequestProblem"]["type"]> = ["api.malformed_request", "trips.stop.reasonRequired", "trips.outcomes.lineMismatch", "trips.outcomes.wrongVocabulary", "trips.outcomes.invariantViolation", "trips.outcomes.reasonRequired"];
export const listBadRequestProblemTypeValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["ListBadRequestProblem"]["type"]> = ["api.malformed_request", "audit.cursor.invalid"];
export const requestLogBadRequestProblemTypeValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["RequestLogBadRequestProblem"]["type"]> = ["api.malformed_request", "audit.cursor.invalid"];
export const unauthorizedProblemTypeOneOf0Values: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["UnauthorizedProblem"]["type"]> = ["about:blank"];
export const tenantNotFoundProblemTypeOneOf0Values: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["TenantNotFoundProblem"]["type"]> = ["about:blank"];
export const keyNotFoundProblemTypeOneOf0Values: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["KeyNotFoundProblem"]["type"]> = ["apikeys.not_found", "about:blank"];
export const tagNotFoundProblemTypeOneOf0Values: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["TagNotFoundProblem"]["type"]> = ["tags.notFound", "about:blank"];
export const miniStatusNotFoundProblemTypeOneOf0Values: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["MiniStatusNotFoundProblem"]["type"]> = ["ministatuses.notFound", "about:blank"];
export const orderNotFoundProblemTypeOneOf0Values: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["OrderNotFoundProblem"]["type"]> = ["orders.notFound", "about:blank"];
export const tripNotFoundProblemTypeOneOf0Values: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["TripNotFoundProblem"]["type"]> = ["planning.trip_not_found", "about:blank"];
export const stopNotFoundProblemTypeOneOf0Values: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["StopNotFoundProblem"]["type"]> = ["planning.trip_not_found", "trips.stop.notFound", "about:blank"];
export const tenantConflictProblemTypeOneOf0Values: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["TenantConflictProblem"]["type"]> = ["tenants.tenant.suspended", "tenants.tenant.archived"];
export const lifecycleConflictProblemTypeOneOf0Values: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["LifecycleConflictProblem"]["type"]> = ["tenants.tenant.archived"];
export const keyConflictProblemTypeOneOf0Values: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["KeyConflictProblem"]["type"]> = ["apikeys.already_revoked"];
export const tagConflictProblemTypeOneOf0Values: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["TagConflictProblem"]["type"]> = ["tags.duplicate", "tenants.tenant.suspended", "tenants.tenant.archived"];
export const miniStatusConflictProblemTypeOneOf0Values: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["MiniStatusConflictProblem"]["type"]> = ["ministatuses.duplicate", "tenants.tenant.suspended", "tenants.tenant.archived"];
export const orderConflictProblemTypeOneOf0Values: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["OrderConflictProblem"]["type"]> = ["orders.duplicate", "tenants.tenant.suspended", "tenants.tenant.archived"];
export const restoreConflictProblemTypeOneOf0Values: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["RestoreConflictProblem"]["type"]> = ["orders.notArchived", "orders.duplicate", "tenants.tenant.suspended", "tenants.tenant.archived"];
export const tripBuildConflictProblemTypeOneOf0Values: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["TripBuildConflictProblem"]["type"]> = ["planning.order_line_already_assigned", "tenants.tenant.suspended", "tenants.tenant.archived"];
export const tripStartConflictProblemTypeOneOf0Values: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["TripStartConflictProblem"]["type"]> = ["planning.trip_not_confirmed", "tenants.tenant.suspended", "tenants.tenant.archived"];
export const stopConflictProblemTypeOneOf0Values: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["StopConflictProblem"]["type"]> = ["trips.stop.tripNotActive", "trips.stop.illegalTransition", "tenants.tenant.suspended", "tenants.tenant.archived"];
export const tripCompleteConflictProblemTypeOneOf0Values: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["TripCompleteConflictProblem"]["type"]> = ["planning.trip_not_in_progress", "planning.trip_has_open_stops", "tenants.tenant.suspended", "tenants.tenant.archived"];
export const tripCancelConflictProblemTypeOneOf0Values: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["TripCancelConflictProblem"]["type"]> = ["trips.mutation.tripNotCancelable", "tenants.tenant.suspended", "tenants.tenant.archived"];
export const faultBadRequestProblemTypeValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["FaultBadRequestProblem"]["type"]> = ["api.malformed_request"];
export const clockBadRequestProblemTypeValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["ClockBadRequestProblem"]["type"]> = ["api.malformed_request"];
export const clockConflictProblemTypeOneOf0Values: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["ClockConflictProblem"]["type"]> = ["about:blank"];
export const simulationBadRequestProblemTypeValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["SimulationBadRequestProblem"]["type"]> = ["api.malformed_request"];
export const requestBodyIncompleteProblemTypeOneOf0Values: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["RequestBodyIncompleteProblem"]["type"]> = ["api.request_body_incomplete"];
export const payloadTooLargeProblemTypeOneOf0Values: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["PayloadTooLargeProblem"]["type"]> = ["api.payload_too_large"];
export const unsupportedMediaTypeProblemTypeOneOf0Values: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["UnsupportedMediaTypeProblem"]["type"]> = ["api.malformed_request", "api.unsupported_media_type"];
export const malformedRequestProblemTypeValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["MalformedRequestProblem"]["type"]> = ["api.malformed_request"];
export const expectationFailedProblemTypeOneOf0Values: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["ExpectationFailedProblem"]["type"]> = ["about:blank"];
export const internalErrorProblemTypeOneOf0Values: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["InternalErrorProblem"]["type"]> = ["about:blank"];
export const componentsParametersListSortValues: ReadonlyArray<FlattenedDeepRequired<components>["parameters"]["ListSort"]> = ["newest", "oldest"];
export const componentsParametersRequestLogOperationValues: ReadonlyArray<FlattenedDeepRequired<components>["parameters"]["RequestLogOperation"]> = ["orderFeed", "tripFeed", "attachPayment", "cancelOrder", "archiveOrder", "whoami"];
export const componentsParametersRequestLogStatusClassValues: ReadonlyArray<FlattenedDeepRequired<components>["parameters"]["RequestLogStatusClass"]> = ["2xx", "3xx", "4xx", "5xx"];
