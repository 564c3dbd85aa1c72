/** The request log: not served by this sandbox yet; the view says so instead of guessing. */
export function RequestLogView(_: { param: string }) {
  return (
    <section class="panel" aria-labelledby="log-missing">
      <h2 id="log-missing">Not available yet</h2>
      <p>This sandbox does not record requests yet: the request log (a live tail with filters, each request beside its answer, the catalog meaning of its problem type, copy as curl) comes with the control plane's request-log endpoints.</p>
      <p>Meanwhile every answer carries an <code>X-Request-Id</code>, and <code>waybill serve</code> prints an access line per request unless started with <code>--quiet</code>.</p>
    </section>
  );
}
