#!/usr/bin/env python3
"""An example client of the Delivery Integration API in Python 3, standard library only.

The same pattern as client.mjs, in another language: a pattern to copy, and a client that
`waybill client-check` grades in the project's own tests:

    waybill client-check -- python3 conformance/client-check/example/client.py

It reads its task from the environment, as client-check gives it:
    WAYBILL_BASE_URL, WAYBILL_API_KEY   where the API is, and the key (sent as X-Api-Key)
    WAYBILL_TASK                        sync-orders | sync-trips | pay | cancel | archive
    WAYBILL_EXTERNAL_ID                 the order of pay, cancel and archive
    WAYBILL_PAYMENT_ID, WAYBILL_AMOUNT, WAYBILL_CURRENCY   the payment of pay
    WAYBILL_STATE_FILE                  where a sync keeps its position between runs

A sync reads 100 orders or trips a page, the most the API serves; --page-size N (1 to 100)
reads N. Exit 0 when the task got a success, 1 when the API refused it or could not be reached.
"""

import email.utils
import json
import os
import random
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid

API = "/api/v1/integration"
MAX_ATTEMPTS = 6
# The API answers in milliseconds: an answer still incomplete after 5 s is treated as lost.
TIMEOUT_SECONDS = 5

# The order statuses this client knows to be final: the end values the seeds give each type
# (a Delivery or Rebox ends FullyDelivered, PartiallyDelivered or Returned; a Pickup or Return
# Collected, PartiallyCollected or NotCollected), Cancelled (D11: nothing moves an order out of
# it), and Refused and Closed (D41: every status but New, InPlanning, Planned and InProgress "is
# on a trip or final"; D12). The project's tests hold these lists to spec/openapi.yaml.
FINAL_ORDER_STATUSES = frozenset([
    "FullyDelivered", "PartiallyDelivered", "Returned", "Collected", "PartiallyCollected", "NotCollected",
    "Cancelled", "Refused", "Closed",
])
# Every order status this client was written for. Any other, one added since, is not final (the seeds' rule).
KNOWN_ORDER_STATUSES = frozenset(["New", "InPlanning", "Planned", "InProgress"]) | FINAL_ORDER_STATUSES


def page_size_of(argv):
    """The page size a sync asks for: --page-size N among argv, else 100 (the most a page holds)."""
    if "--page-size" not in argv:
        return 100
    at = argv.index("--page-size")
    value = argv[at + 1] if at + 1 < len(argv) else ""
    if not value.isdigit() or not 1 <= int(value) <= 100:
        raise SystemExit("--page-size takes a whole number from 1 to 100")
    return int(value)


def retry_after_seconds(value):
    """Retry-After in seconds: delay-seconds (what waybill sends) or an HTTP-date; 0 when absent."""
    if value is None:
        return 0
    if value.strip().isdigit():
        return int(value.strip())
    try:
        return max(email.utils.parsedate_to_datetime(value).timestamp() - time.time(), 0)
    except (TypeError, ValueError):
        return 0


class Answer:
    """An answer: its status, headers and JSON body; or, with `error` set, none (or a broken one)."""

    def __init__(self, status=None, headers=None, body=None, error=None):
        self.status = status
        self.headers = headers or {}
        self.body = body
        self.error = error


def is_retryable(answer):
    """Network errors, 5xx and 429 say "not done, try again". Any other 4xx is the server's
    verdict on this request: sending it again cannot change it, so it is never retried."""
    return answer.error is not None or answer.status >= 500 or answer.status == 429


def wait_before(attempt, answer):
    """The wait before attempt `attempt + 1`: at least what Retry-After asks (a 429, a 503), and an
    exponential backoff with jitter otherwise (0.25 s, 0.5 s, 1 s ... up to 8 s), so that clients
    hit by the same outage do not all come back at the same moment."""
    backoff = min(0.25 * 2 ** (attempt - 1), 8) * (0.5 + random.random() / 2)
    return max(retry_after_seconds(answer.headers.get("retry-after")), backoff)


def pace_by(headers):
    """The wait before the next request, by the RateLimit headers every answer carries: while
    RateLimit-Remaining is above 0 a request may go at once; at 0, RateLimit-Reset says in how
    many seconds one more is available (D14), so wait that long rather than be refused."""
    remaining, reset = headers.get("ratelimit-remaining"), headers.get("ratelimit-reset")
    if remaining == "0" and reset is not None and reset.isdigit():
        return int(reset)
    return 0


class Client:
    """Requests to the API with one key, paced by its rate limit."""

    def __init__(self, env):
        self.env = env
        self.next_request_at = 0.0

    def attempt(self, method, path, body=None, idempotency_key=None):
        """One attempt: the answer, or Answer(error=...) when none (or a broken one) arrived."""
        if self.next_request_at > time.monotonic():
            time.sleep(self.next_request_at - time.monotonic())
        headers = {"X-Api-Key": self.env["WAYBILL_API_KEY"], "Accept": "application/json"}
        data = None
        if body is not None:
            headers["Content-Type"] = "application/json"
            data = json.dumps(body).encode("utf-8")
        if idempotency_key is not None:
            headers["Idempotency-Key"] = idempotency_key
        request = urllib.request.Request(urllib.parse.urljoin(self.env["WAYBILL_BASE_URL"], path), data=data, headers=headers, method=method)
        try:
            try:
                response = urllib.request.urlopen(request, timeout=TIMEOUT_SECONDS)
            except urllib.error.HTTPError as refused:
                # A 4xx or 5xx is an answer too: its status, headers and problem body.
                response = refused
            with response:
                text = response.read().decode("utf-8")
                status = response.status
                answer_headers = {name.lower(): value for name, value in response.headers.items()}
        except (OSError, ValueError) as error:
            # A reset, a timeout, an answer cut short: nobody knows whether a write happened.
            return Answer(error=error)
        self.next_request_at = time.monotonic() + pace_by(answer_headers)
        try:
            return Answer(status, answer_headers, json.loads(text) if text else None)
        except ValueError as error:
            # A body that does not parse is an answer cut short.
            return Answer(error=error)

    def request(self, method, path, body=None, idempotency_key=None):
        """Sends a request until it gets an answer that decides it (see is_retryable), waiting between attempts."""
        attempt = 1
        while True:
            answer = self.attempt(method, path, body, idempotency_key)
            if not is_retryable(answer) or attempt == MAX_ATTEMPTS:
                return answer
            time.sleep(wait_before(attempt, answer))
            attempt += 1


def read_state(file):
    """The state file: each feed's saved position, {} before the first save."""
    try:
        with open(file, encoding="utf-8") as state:
            return json.load(state)
    except (OSError, ValueError):
        return {}


def save_position(file, feed, position):
    """Saves the position atomically (write, then rename), so a crash never leaves half a file."""
    state = read_state(file)
    state[feed] = position
    with open(f"{file}.tmp", "w", encoding="utf-8") as out:
        json.dump(state, out)
    os.replace(f"{file}.tmp", file)


def sync(client, feed, handle, page_size):
    """Reads a feed (orders or trips) from the saved position: since = the newest updatedAtUtc
    processed last time, then nextCursor page after page until it is null. The feed is
    at-least-once (since is inclusive), so items are deduplicated on id + updatedAtUtc. The
    position is saved after every page: a crash resumes where it stopped."""
    file = client.env["WAYBILL_STATE_FILE"]
    position = read_state(file).get(feed, {"since": None, "idsAtSince": []})
    query = {"limit": page_size}
    if position["since"] is not None:
        query["since"] = position["since"]
    while True:
        page = client.request("GET", f"{API}/{feed}?{urllib.parse.urlencode(query)}")
        if page.error is not None or page.status != 200:
            return page
        for item in page.body["items"]:
            at_since = item["updatedAtUtc"] == position["since"]
            if at_since and item["id"] in position["idsAtSince"]:
                continue  # seen already: the same version again
            if handle(item) == "stop":
                return page
            if at_since:
                position = {"since": position["since"], "idsAtSince": position["idsAtSince"] + [item["id"]]}
            else:
                position = {"since": item["updatedAtUtc"], "idsAtSince": [item["id"]]}
        save_position(file, feed, position)
        if page.body["nextCursor"] is None:
            return page  # caught up: next time, start from since
        query = {"limit": page_size, "cursor": page.body["nextCursor"]}


def handle_order(order):
    """What this example does with an order change: a line on stderr. Yours would update your own system.
    A status it does not know (one added after it was written) is not final: the order stays open."""
    final = order["status"] in FINAL_ORDER_STATUSES
    known = order["status"] in KNOWN_ORDER_STATUSES
    print(f"order {order['externalId']}: {order['status']}{' (final)' if final else '' if known else ' (unknown: not final)'}", file=sys.stderr)
    return "go on"


def run_task(env, page_size):
    """Runs the task env names; returns the exit code."""
    client = Client(env)
    task = env.get("WAYBILL_TASK")
    order_path = f"{API}/orders/externalid/{urllib.parse.quote(env.get('WAYBILL_EXTERNAL_ID', ''), safe='')}"
    if task == "sync-orders":
        answer = sync(client, "orders", handle_order, page_size)
    elif task == "sync-trips":
        answer = sync(client, "trips", lambda trip: print(f"trip {trip['id']}: {trip['status']}", file=sys.stderr), page_size)
    elif task == "pay":
        # One logical payment, one Idempotency-Key, derived from the payment's own id: a
        # restarted process retries under the same key too.
        body = {"paymentId": env["WAYBILL_PAYMENT_ID"], "amount": float(env["WAYBILL_AMOUNT"]), "currency": env["WAYBILL_CURRENCY"]}
        answer = client.request("POST", f"{order_path}/payment", body, f"pay-{env['WAYBILL_PAYMENT_ID']}")
    elif task == "cancel":
        answer = client.request("POST", f"{order_path}/cancel", {}, f"cancel-{uuid.uuid4()}")
    elif task == "archive":
        answer = client.request("DELETE", order_path, None, f"archive-{uuid.uuid4()}")
    else:
        print(f"unknown WAYBILL_TASK {task}", file=sys.stderr)
        return 2
    if answer.error is not None:
        print(f"{task}: no answer ({answer.error})", file=sys.stderr)
        return 1
    ok = 200 <= answer.status <= 299
    problem = answer.body if isinstance(answer.body, dict) else {}
    print(f"{task}: {answer.status}{'' if ok else ' ' + str(problem.get('type', '')) + ' ' + str(problem.get('detail', ''))}", file=sys.stderr)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(run_task(os.environ, page_size_of(sys.argv[1:])))
