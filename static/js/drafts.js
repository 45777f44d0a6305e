// Drafts on an answer's page (triage/drafts.py): the reviewer's unsent claim notes, decision reason and edit are
// saved as they type (after a pause, and when they leave the box) and put back when they return, here or on another
// device. Leaving the page with unsent text asks first; submitting a form is sending, so it never asks.
(function () {
  "use strict";
  var holder = document.getElementById("answer-drafts");
  if (!holder) return;
  var url = holder.getAttribute("data-drafts-url");
  var drafts = {};
  try { drafts = JSON.parse(document.getElementById("answer-drafts-data").textContent) || {}; } catch (e) { drafts = {}; }
  var timers = {};

  function csrf() {
    try { return JSON.parse(document.body.getAttribute("hx-headers"))["x-csrftoken"]; } catch (e) { return ""; }
  }

  // Which box this is, in the names the server keeps: "reason", "edit", "note-<claim id>".
  function fieldOf(box) {
    if (!box || !box.matches || !box.matches("textarea, input")) return null;
    if (box.matches("#decision-form [name=reason]")) return "reason";
    if (box.matches("#decision-form [name=edited_text]")) return "edit";
    var card = box.matches("[data-claim-note]") && box.closest("[data-claim-card]");
    return card ? "note-" + card.getAttribute("data-claim-card") : null;
  }

  function boxes() {
    return Array.prototype.filter.call(document.querySelectorAll("#decision-form textarea, [data-claim-note]"),
      function (box) { return fieldOf(box) !== null; });
  }

  function save(box) {
    var field = fieldOf(box);
    if (!field) return;
    clearTimeout(timers[field]);
    delete timers[field];
    var body = new URLSearchParams({field: field, text: box.value});
    fetch(url, {method: "POST", body: body, credentials: "same-origin", keepalive: true,
                headers: {"X-CSRFToken": csrf()}}).then(function (response) {
      if (response.ok) box.dataset.draftSaved = box.value;
    });
  }

  function restore(root) {
    var restored = false;
    boxes().forEach(function (box) {
      if (root && !root.contains(box)) return;
      var text = drafts[fieldOf(box)];
      if (text === undefined || box.value === text || box.dataset.draftRestored) return;
      box.value = text;
      box.dataset.draftRestored = "1";
      restored = true;
      var panel = box.closest("details");
      if (panel) panel.open = true;
    });
    if (restored && !document.getElementById("draft-restored")) {
      var note = document.createElement("p");
      note.id = "draft-restored";
      note.className = "msg msg-info small";
      note.setAttribute("role", "status");
      note.textContent = holder.getAttribute("data-restored-text");
      var panel = document.getElementById("decision-panel") || document.getElementById("claims");
      if (panel) panel.insertBefore(note, panel.firstChild);
    }
  }

  function unsent() {
    return boxes().some(function (box) { return box.value.trim() !== "" && box.value !== box.defaultValue; });
  }

  document.addEventListener("input", function (event) {
    var field = fieldOf(event.target);
    if (!field) return;
    clearTimeout(timers[field]);
    var box = event.target;
    timers[field] = setTimeout(function () { save(box); }, 800);
  });
  document.addEventListener("focusout", function (event) {
    var field = fieldOf(event.target);
    if (field && event.target.dataset.draftSaved !== event.target.value && timers[field]) save(event.target);
  });

  var sending = false;
  document.addEventListener("submit", function () { sending = true; setTimeout(function () { sending = false; }, 1500); });
  window.addEventListener("beforeunload", function (event) {
    if (sending || !unsent()) return;
    event.preventDefault();
    event.returnValue = holder.getAttribute("data-leave-text");  // browsers show their own words
    return event.returnValue;
  });
  // A claim card swapped in after a mark brings its own (settled) note; one marked elsewhere may get its draft back.
  document.addEventListener("htmx:afterSettle", function (event) { restore(event.detail.target); });
  restore(null);
})();
