/** The inline CSS and script of `report.html`: no fonts, images or requests, only what the file holds. */

/** Styles of the report. */
export const reportCss = `
:root { color-scheme: light dark; --pass: #1a7f37; --fail: #cf222e; --skip: #6e7781; --error: #8250df; --warn: #9a6700; --line: #d0d7de; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0 auto; max-width: 1200px; padding: 1rem 1.5rem 4rem; }
h1 { font-size: 1.5rem; margin: .5rem 0; } h2 { font-size: 1.15rem; margin-top: 2rem; border-bottom: 1px solid var(--line); }
pre { white-space: pre-wrap; word-break: break-word; background: rgba(127,127,127,.1); padding: .5rem; margin: .25rem 0; font: 12px/1.4 ui-monospace, Menlo, Consolas, monospace; }
table { border-collapse: collapse; } th, td { border: 1px solid var(--line); padding: .2rem .5rem; text-align: left; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
dl.meta { display: grid; grid-template-columns: max-content 1fr; gap: .1rem 1rem; } dl.meta dt { font-weight: 600; } dl.meta dd { margin: 0; }
.verdict { font-weight: 700; font-size: 1.1rem; } .verdict.exit-0 { color: var(--pass); } .verdict.exit-1 { color: var(--fail); } .verdict.exit-2 { color: var(--error); }
.cards { display: flex; gap: .75rem; flex-wrap: wrap; } .card { border: 1px solid var(--line); border-radius: 6px; padding: .5rem 1rem; min-width: 6rem; }
.card b { display: block; font-size: 1.4rem; }
.o-pass { color: var(--pass); } .o-fail { color: var(--fail); } .o-skip { color: var(--skip); } .o-error { color: var(--error); } .o-warn { color: var(--warn); }
fieldset { border: 1px solid var(--line); margin: .5rem 0; } label { margin-right: 1rem; white-space: nowrap; }
article.check { border: 1px solid var(--line); border-radius: 6px; margin: .5rem 0; padding: .25rem .75rem; }
article.check summary { cursor: pointer; } .id { font-family: ui-monospace, Menlo, Consolas, monospace; font-weight: 600; }
.level { font-size: .75rem; border: 1px solid currentColor; border-radius: 3px; padding: 0 .25rem; }
.finding { border-left: 3px solid var(--fail); padding-left: .75rem; margin: .75rem 0; }
.finding dl { display: grid; grid-template-columns: max-content 1fr; gap: 0 .75rem; } .finding dd { margin: 0; }
.muted { color: var(--skip); }
`;

/**
 * Filters checks by outcome, level and family, and coverage rows by state; works from a file
 * (no server) and touches nothing but the page.
 */
export const reportScript = `
(function () {
  // No less-than sign or ampersand here: trusted() refuses them, and the page stays well-formed XML.
  var boxes = document.querySelectorAll('input[data-filter]');
  var family = document.getElementById('family-filter');
  function each(list, visit) {
    for (var i = 0; i !== list.length; i++) visit(list[i]);
  }
  function apply() {
    var on = { outcome: {}, level: {}, state: {} };
    each(boxes, function (box) {
      if (box.checked) on[box.getAttribute('data-filter')][box.value] = true;
    });
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
  }
  each(boxes, function (box) {
    box.addEventListener('change', apply);
  });
  family.addEventListener('change', apply);
  apply();
})();
`;
