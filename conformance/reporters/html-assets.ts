/** The inline CSS and script of `report.html`: no fonts, images or requests, only what the file holds. */

/** Styles of the report. */
export const reportCss = `
:root { color-scheme: light dark; --pass: #1a7f37; --fail: #cf222e; --skip: #6e7781; --error: #8250df; --warn: #9a6700; --line: #d0d7de; }
@media (prefers-color-scheme: dark) { :root { --pass: #3fb950; --fail: #ff7b72; --skip: #9ea7b3; --error: #bc8cff; --warn: #d29922; --line: #3d444d; } }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0 auto; max-width: 1200px; padding: 1rem 1.5rem 4rem; }
h1 { font-size: 1.5rem; margin: .5rem 0; } h2 { font-size: 1.15rem; margin-top: 2rem; border-bottom: 1px solid var(--line); }
pre { white-space: pre-wrap; word-break: break-word; background: rgba(127,127,127,.1); padding: .5rem; margin: .25rem 0; font: 12px/1.4 ui-monospace, Menlo, Consolas, monospace; }
table { border-collapse: collapse; } th, td { border: 1px solid var(--line); padding: .2rem .5rem; text-align: left; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
dl.meta { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: .1rem 1rem; } dl.meta dt { font-weight: 600; } dl.meta dd { margin: 0; min-width: 0; overflow-wrap: anywhere; }
.table-scroll { max-width: 100%; overflow-x: auto; }
.verdict { font-weight: 700; font-size: 1.1rem; } .verdict.exit-0 { color: var(--pass); } .verdict.exit-1 { color: var(--fail); } .verdict.exit-2 { color: var(--error); }
.cards { display: flex; gap: .75rem; flex-wrap: wrap; } .card { border: 1px solid var(--line); border-radius: 6px; padding: .5rem 1rem; min-width: 6rem; }
.card b { display: block; font-size: 1.4rem; }
.o-pass { color: var(--pass); } .o-fail { color: var(--fail); } .o-skip { color: var(--skip); } .o-error { color: var(--error); } .o-warn { color: var(--warn); } .o-waived { color: var(--warn); }
section.certificate { border: 2px solid var(--line); border-radius: 6px; padding: .5rem 1rem; margin: .5rem 0 1rem; } section.certificate h2 { margin-top: .25rem; }
fieldset { border: 1px solid var(--line); margin: .5rem 0; } label { margin-right: 1rem; white-space: nowrap; }
article.check { border: 1px solid var(--line); border-radius: 6px; margin: .5rem 0; padding: .25rem .75rem; }
article.check summary { cursor: pointer; } .id { font-family: ui-monospace, Menlo, Consolas, monospace; font-weight: 600; }
.level { font-size: .75rem; border: 1px solid currentColor; border-radius: 3px; padding: 0 .25rem; }
.finding { border-left: 3px solid var(--fail); padding-left: .75rem; margin: .75rem 0; }
.finding dl { display: grid; grid-template-columns: max-content 1fr; gap: 0 .75rem; } .finding dd { margin: 0; }
.muted { color: var(--skip); }
.replay code { font: 12px/1.4 ui-monospace, Menlo, Consolas, monospace; background: rgba(127,127,127,.1); padding: 0 .25rem; overflow-wrap: anywhere; }
.filters fieldset { display: inline-block; margin-right: .5rem; vertical-align: top; max-width: 100%; box-sizing: border-box; }
label[for=requirement-search] { white-space: normal; }
input[type=search] { font: inherit; padding: .15rem .35rem; width: 18rem; max-width: 100%; }
.requirement-summary { font-size: 1rem; }
table.requirements { width: 100%; margin-top: .5rem; table-layout: fixed; }
table.requirements th, table.requirements td { vertical-align: top; overflow-wrap: anywhere; }
table.requirements thead th { position: sticky; top: 0; background: Canvas; }
col.c-id { width: 16%; } col.c-level { width: 8%; } col.c-source { width: 14%; } col.c-quote { width: 33%; } col.c-outcome { width: 11%; } col.c-checks { width: 18%; }
table.requirements .id { font-size: .92em; } table.requirements .level { white-space: nowrap; overflow-wrap: normal; }
table.requirements td.source { font-size: .9em; color: var(--skip); }
table.requirements td.outcome { font-weight: 600; }
td.o-untested { color: var(--warn); } td.o-not-testable { color: var(--skip); font-weight: 400; }
.reason { margin: .25rem 0 0; color: var(--skip); } .quote p { margin: .25rem 0 0; }
ul.checks { list-style: none; margin: 0; padding: 0; } ul.checks li { display: flex; gap: .3rem; }
:target { outline: 2px solid var(--warn); outline-offset: 2px; }
a:focus-visible, input:focus-visible, select:focus-visible, summary:focus-visible { outline: 2px solid Highlight; outline-offset: 2px; }
@media (max-width: 760px) {
  table.requirements, table.requirements tbody, table.requirements tr, table.requirements th, table.requirements td { display: block; width: auto; }
  table.requirements thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
  table.requirements tr { border: 1px solid var(--line); border-radius: 6px; margin: .5rem 0; padding: .25rem .5rem; }
  table.requirements th, table.requirements td { border: 0; padding: .1rem 0; }
  table.requirements td.source { font-size: .85em; }
  table.requirements td.checks::before { content: "Checks: "; color: var(--skip); }
}
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
`;

/**
 * Filters checks by outcome, level and family, requirement rows by level, outcome and text, and
 * coverage rows by state; shows (and opens) the check or requirement a link points at. Works
 * from a file (no server) and touches nothing but the page.
 */
export const reportScript = `
(function () {
  // No less-than sign or ampersand here: trusted() refuses them, and the page stays well-formed XML.
  var boxes = document.querySelectorAll('input[data-filter]');
  var family = document.getElementById('family-filter');
  var search = document.getElementById('requirement-search');
  function each(list, visit) {
    for (var i = 0; i !== list.length; i++) visit(list[i]);
  }
  function checkedBoxes() {
    var on = { outcome: {}, level: {}, state: {}, 'requirement-level': {}, 'requirement-outcome': {} };
    each(boxes, function (box) {
      if (box.checked) on[box.getAttribute('data-filter')][box.value] = true;
    });
    return on;
  }
  // Every word typed must occur in the row's text, case aside.
  function matches(text, query) {
    var words = query.toLowerCase().split(/\\s+/);
    var lower = text.toLowerCase();
    for (var i = 0; i !== words.length; i++) if (lower.indexOf(words[i]) === -1) return false;
    return true;
  }
  function applyRequirements(on) {
    var rows = document.querySelectorAll('[data-requirement]');
    var query = search.value.trim();
    var shown = 0;
    each(rows, function (row) {
      var visible = on['requirement-level'][row.getAttribute('data-level')] === true ? on['requirement-outcome'][row.getAttribute('data-outcome')] === true : false;
      if (visible ? query !== '' : false) visible = matches(row.textContent, query);
      row.hidden = !visible;
      if (visible) shown++;
    });
    document.getElementById('requirements-shown').textContent = shown + ' of ' + rows.length + ' requirements shown';
  }
  function apply() {
    var on = checkedBoxes();
    var chosen = family.value;
    var checks = document.querySelectorAll('[data-check]');
    var shown = 0;
    each(checks, function (check) {
      var visible = on.outcome[check.getAttribute('data-outcome')] === true ? on.level[check.getAttribute('data-level')] === true : false;
      if (chosen !== '' ? check.getAttribute('data-family') !== chosen : false) visible = false;
      check.hidden = !visible;
      if (visible) shown++;
    });
    each(document.querySelectorAll('[data-state]'), function (row) {
      row.hidden = on.state[row.getAttribute('data-state')] !== true;
    });
    document.getElementById('shown-count').textContent = shown + ' of ' + checks.length + ' checks shown';
    applyRequirements(on);
  }
  // A link to a check or a requirement shows it even when a filter hides it, and opens a check.
  function reveal(id) {
    var target = document.getElementById(id);
    if (target === null) return null;
    if (target.hasAttribute('data-check') || target.hasAttribute('data-requirement')) {
      target.hidden = false;
      var details = target.querySelector('details');
      if (details) details.open = true;
    }
    return target;
  }
  function revealLinked(event) {
    var link = event.target.closest('a[href^="#"]');
    if (link) reveal(decodeURIComponent(link.getAttribute('href').slice(1)));
  }
  function revealHash() {
    var target = reveal(decodeURIComponent(location.hash.slice(1)));
    if (target) target.scrollIntoView();
  }
  each(boxes, function (box) {
    box.addEventListener('change', apply);
  });
  family.addEventListener('change', apply);
  search.addEventListener('input', apply);
  document.addEventListener('click', revealLinked);
  window.addEventListener('hashchange', revealHash);
  apply();
  if (location.hash) revealHash();
})();
`;
