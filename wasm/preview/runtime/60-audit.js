// 60-audit.js — the accessibility audit (preview.audit, issue 17; docs/design.md §5.17).
// The one message the parent ever posts into the frame, over the mount's MessagePort (which
// lives in this closure: page code cannot post on it or read it): {type: T.audit, id, limits,
// source?}. source is axe-core's bundle as text, sent with the first audit of the document and
// evaluated here, once, in global scope with the eval captured before any page code. The
// engine then audits the document and the reply {type: T.audit, id, reply} goes back over the
// port. Page code shares this realm and could tamper with the engine, so the parent treats
// the reply as untrusted data (preview.DecodeAudit). Nothing runs unless the parent asks.
var evalF = W.eval, isArray = Array.isArray, axeEngine = null, auditing = false;
var IMPACTS = { critical: 1, serious: 1, moderate: 1, minor: 1 };
var CONTROL_RE = /[\u0000-\u001f\u007f-\u009f]+/g;
function clean(v, n) { return cut(apply(trim, apply(replaceStr, S(v), [CONTROL_RE, " "]), []), n); }
function auditReply(id, reply) { reply.v = 1; send({ type: T.audit, id: id, reply: reply }); }
function targetText(t) {
  if (!isArray(t)) return S(t);
  var parts = [];
  for (var i = 0; i < t.length && i < 8; i++) parts[i] = isArray(t[i]) ? apply(join, t[i], [" "]) : S(t[i]);
  return apply(join, parts, [" "]);
}
function auditResult(id, res, lim) {
  var vs = (res && isArray(res.violations)) ? res.violations : [], out = [], seen = create(null);
  for (var i = 0; i < vs.length && out.length < lim.rules; i++) {
    var v = vs[i] || {}, rid = clean(v.id, lim.idChars);
    if (!rid || seen[rid]) continue;
    seen[rid] = true;
    var nodes = isArray(v.nodes) ? v.nodes : [], sels = [];
    for (var j = 0; j < nodes.length && sels.length < lim.selectors; j++) {
      var s = clean(targetText(nodes[j] && nodes[j].target), lim.selectorChars);
      if (s) sels[sels.length] = s;
    }
    var r = { id: rid, impact: apply(hasOwn, IMPACTS, [S(v.impact)]) ? S(v.impact) : null,
      help: clean(v.help, lim.helpChars) || rid, count: nodes.length < 1 ? 1 : nodes.length > lim.count ? lim.count : nodes.length, selectors: sels,
      selectorsTruncated: nodes.length > sels.length };
    var url = clean(v.helpUrl, lim.urlChars);
    if (apply(indexOf, url, ["https://"]) === 0) r.helpUrl = url;
    out[out.length] = r;
  }
  auditReply(id, { ok: true, engine: clean(axeEngine && axeEngine.version, 40) || "axe-core", violations: out, truncated: vs.length > out.length });
}
function runAudit(d) {
  var id = d.id, lim = d.limits || {};
  function failed(e) { auditing = false; auditReply(id, { ok: false, error: cut(text(e) || "the audit failed", L.error) }); }
  if (auditing) { auditReply(id, { ok: false, error: "an audit is already running in this preview" }); return; }
  try {
    if (!axeEngine && typeof d.source === "string" && d.source) {
      evalF(d.source); // indirect: global scope
      axeEngine = W.axe;
      try { delete W.axe; } catch (e) {}
    }
    if (!axeEngine || typeof axeEngine.run !== "function") { auditReply(id, { ok: false, error: "the audit engine did not start in the preview" }); return; }
    auditing = true;
    // The whole document, no frames (a sandboxed frame's own frames cannot answer axe's
    // messages); violations only. axe-core's defaults otherwise: WCAG 2 A/AA + best practices.
    apply(promiseThen, apply(PromiseResolve, PromiseC, [axeEngine.run(D, { iframes: false, resultTypes: ["violations"], elementRef: false })]),
      [function (res) { auditing = false; try { auditResult(id, res, lim); } catch (e) { failed(e); } }, failed]);
  } catch (e) { failed(e); }
}
if (port) {
  try {
    port.onmessage = function (e) {
      var d = e && e.data;
      if (d && typeof d === "object" && d.type === T.audit && typeof d.id === "number") runAudit(d);
    };
  } catch (e) {}
}
