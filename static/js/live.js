// Live pages. The answer page asks every few seconds (only while its tab is visible) who else is looking and
// whether a teammate changed it (a decision, an undo, a claim mark, a lease taken or released, a comment, an
// assignment); when they did, it fetches itself and swaps in each part marked data-live whose content changed —
// never a part holding what the reviewer is typing or choosing (that part waits for the next round). The queue's
// rows do the same through htmx (#queue-rows): a fingerprint in the URL, 204 while nothing changed, and the ticked
// rows stay ticked across a refresh.
(function () {
  "use strict";

  var TEXT = ["text", "search", "email", "url", "number", "password", "date", ""];

  function isField(element) {
    if (!element || !element.tagName) return false;
    var tag = element.tagName.toLowerCase();
    if (tag === "input") return TEXT.indexOf((element.getAttribute("type") || "").toLowerCase()) !== -1;
    return tag === "textarea" || tag === "select" || element.isContentEditable;
  }

  // A part is busy while the reviewer is in one of its fields, or has changed one from what the server sent.
  function busy(part) {
    if (part.contains(document.activeElement) && isField(document.activeElement)) return true;
    return Array.prototype.some.call(part.querySelectorAll("input, textarea, select"), function (field) {
      if (field.tagName.toLowerCase() === "select") {
        return Array.prototype.some.call(field.options, function (o) { return o.selected !== o.defaultSelected; });
      }
      if (field.type === "checkbox" || field.type === "radio") return field.checked !== field.defaultChecked;
      return isField(field) && field.value !== field.defaultValue;
    });
  }

  // What the server rendered, without what differs on every render (the masked CSRF token) or what the page's own
  // scripts set (the selected claim, htmx's working classes).
  function comparable(part) {
    var copy = part.cloneNode(true);
    [copy].concat(Array.prototype.slice.call(copy.querySelectorAll("*"))).forEach(function (element) {
      element.classList.remove("selected", "htmx-request", "htmx-settling", "htmx-swapping", "htmx-added");
      element.removeAttribute("data-settled");
      if (element.getAttribute("name") === "csrfmiddlewaretoken") element.removeAttribute("value");
      if (element.getAttribute("class") === "") element.removeAttribute("class");
    });
    return copy.outerHTML;
  }

  var presence = document.getElementById("presence");
  if (presence && presence.hasAttribute("data-live-url")) {
    var seen = presence.getAttribute("data-fingerprint");
    var every = 1000 * Number(presence.getAttribute("data-poll-seconds") || 5);
    var asking = false;

    // Swap in each live part whose content changed; a busy one waits, and the next round tries it again.
    var swapChanged = function (html, fingerprint) {
      var fresh = new DOMParser().parseFromString(html, "text/html");
      var waiting = false;
      fresh.querySelectorAll("[data-live][id]").forEach(function (part) {
        var current = document.getElementById(part.id);
        if (!current || comparable(current) === comparable(part)) return;
        if (busy(current)) { waiting = true; return; }
        var adopted = document.importNode(part, true);
        current.replaceWith(adopted);
        if (window.htmx) window.htmx.process(adopted);
      });
      if (!waiting) seen = fingerprint;
    };

    var refresh = function (fingerprint) {
      return fetch(window.location.pathname + window.location.search, { credentials: "same-origin" })
        .then(function (response) { return response.ok ? response.text() : null; })
        .then(function (html) { if (html !== null) swapChanged(html, fingerprint); });
    };

    var ask = function () {
      if (document.hidden || asking) return;
      asking = true;
      var asked = { credentials: "same-origin", headers: { Accept: "application/json" } };
      fetch(presence.getAttribute("data-live-url"), asked)
        .then(function (response) { return response.ok ? response.json() : null; })
        .then(function (state) {
          if (!state) return null;
          presence.innerHTML = state.presence;
          return state.fingerprint !== seen ? refresh(state.fingerprint) : null;
        })
        .catch(function () { /* offline for a moment: the next round asks again */ })
        .then(function () { asking = false; });
    };

    window.setInterval(ask, every);
    document.addEventListener("visibilitychange", function () { if (!document.hidden) ask(); });
  }

  // The queue: no refresh while the tab is hidden; the rows ticked for a bulk action stay ticked.
  var ticked = [];
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (event.detail.elt.id === "queue-rows" && document.hidden) event.preventDefault();
  });
  document.addEventListener("htmx:beforeSwap", function (event) {
    if (event.detail.target && event.detail.target.id === "queue-rows") {
      ticked = Array.prototype.map.call(document.querySelectorAll("#queue-rows input[name=answers]:checked"),
                                        function (box) { return box.value; });
    }
  });
  document.addEventListener("htmx:afterSettle", function () {
    if (!ticked.length) return;
    ticked.forEach(function (value) {
      var box = document.querySelector("#queue-rows input[name=answers][value='" + value + "']");
      if (box) box.checked = true;
    });
    ticked = [];
    tickedCount();
  });

  // Phones: the queue's filters other than the search fold behind "More filters".
  document.addEventListener("click", function (event) {
    var more = event.target.closest && event.target.closest("[data-more-filters]");
    if (!more) return;
    more.closest("form").classList.add("show-all");
    more.setAttribute("aria-expanded", "true");
  });

  // Bulk actions: the panel says how many rows are ticked (and opens at the first), each action asks first, naming
  // the count.
  function tickedBoxes() { return document.querySelectorAll("#queue-rows input[name=answers]:checked"); }

  function tickedCount() {
    var badge = document.querySelector("[data-ticked-count]");
    if (!badge) return;
    var count = tickedBoxes().length;
    badge.textContent = String(count);
    var panel = document.getElementById("bulk-panel");
    if (count && panel && !panel.dataset.opened) { panel.open = true; panel.dataset.opened = "1"; }
  }

  document.addEventListener("change", function (event) {
    if (event.target.matches && event.target.matches("#queue-rows input[name=answers]")) tickedCount();
  });

  document.addEventListener("submit", function (event) {
    var button = event.submitter;
    if (!button || !button.hasAttribute("data-bulk-action")) return;
    var count = tickedBoxes().length;
    if (!count) return;  // the server says what to tick
    var message = count === 1 ? button.getAttribute("data-confirm-one")
      : button.getAttribute("data-confirm-other").replace("{count}", String(count));
    if (!window.confirm(message)) event.preventDefault();
  }, true);
})();
