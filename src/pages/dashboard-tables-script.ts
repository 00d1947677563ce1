/**
 * The dashboard script's part for its tables (runs inside its closure: it uses loadSection()). A filter
 * bar, a pager button or a query link rewrites its table's fields of the section's `data-query` (the
 * other table's fields stay) and reloads the section; the focus then goes back to the control used, or
 * to what the link names. A table's scroll region is a Tab stop only while it scrolls sideways.
 */
export const TABLES_SCRIPT = String.raw`
  var TABLE_FIELDS = ["q", "status", "page", "per_page", "event"];
  function sectionOf(el) { return el.closest("[data-section]"); }
  // The section's query with this table's fields (those after \`prefix\`) replaced by \`fields\`.
  function setQuery(node, prefix, fields) {
    var params = new URLSearchParams(node.getAttribute("data-query") || "");
    TABLE_FIELDS.forEach(function (name) { params.delete(prefix + name); });
    fields.forEach(function (pair) { if (pair[1] !== "") params.set(pair[0], pair[1]); });
    node.setAttribute("data-query", params.toString());
    return loadSection(node);
  }
  function focusById(id, fallback) {
    var el = document.getElementById(id) || (fallback && document.getElementById(fallback));
    if (!el) return;
    if (!el.matches("a, button, input, select, textarea, [tabindex]")) el.setAttribute("tabindex", "-1");
    el.focus();
    if (el.scrollIntoView) el.scrollIntoView({ block: "nearest" });
  }
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.hasAttribute("data-filter")) return;
    event.preventDefault();
    // Enter in the search box submits through the form's button: the box keeps the focus then.
    var active = document.activeElement;
    var used = (active && form.contains(active) && active.id) || (event.submitter && event.submitter.id) || "";
    var fields = [];
    Array.prototype.forEach.call(form.elements, function (el) { if (el.name) fields.push([el.name, el.value.trim()]); });
    setQuery(sectionOf(form), form.getAttribute("data-filter"), fields).then(function () { if (used) focusById(used); });
  });
  document.addEventListener("click", function (event) {
    var target = event.target.closest && event.target.closest("button[data-page-to], a[data-query-set]");
    if (!target) return;
    event.preventDefault();
    var node = sectionOf(target);
    if (target.hasAttribute("data-page-to")) {
      var prefix = target.getAttribute("data-page-prefix");
      var fields = [[prefix + "page", target.getAttribute("data-page-to")]];
      var params = new URLSearchParams(node.getAttribute("data-query") || "");
      TABLE_FIELDS.filter(function (name) { return name !== "page"; }).forEach(function (name) { var v = params.get(prefix + name); if (v !== null) fields.push([prefix + name, v]); });
      var id = target.id;
      // The last page has no Next: the focus then goes to the count of what is shown.
      setQuery(node, prefix, fields).then(function () { focusById(id, id.replace(/-(next|prev)$/, "-count")); });
      return;
    }
    var set = [];
    new URLSearchParams(target.getAttribute("data-query-set")).forEach(function (value, name) { set.push([target.getAttribute("data-query-prefix") + name, value]); });
    var focus = target.getAttribute("data-focus");
    setQuery(node, target.getAttribute("data-query-prefix"), set).then(function () { focusById(focus); });
  });
  function fitRegions() {
    Array.prototype.forEach.call(document.querySelectorAll(".scroll-x"), function (region) {
      if (region.scrollWidth > region.clientWidth + 1) region.setAttribute("tabindex", "0");
      else region.removeAttribute("tabindex");
    });
  }
  var fitting = false;
  function fitSoon() {
    if (fitting) return;
    fitting = true;
    requestAnimationFrame(function () { fitting = false; fitRegions(); });
  }
  new MutationObserver(fitSoon).observe(document.getElementById("app"), { childList: true, subtree: true });
  window.addEventListener("resize", fitSoon);
  // An opened panel (a delivery's payload) may widen its table.
  document.addEventListener("toggle", fitSoon, true);
`;
