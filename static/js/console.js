// Keyboard shortcuts. Queue: n takes the next item. Review page: j/k move between claims, c/x
// confirm/reject the selected claim, a approves & sends, r rejects the answer, ? shows the help.
(function () {
  "use strict";

  function cards() { return Array.from(document.querySelectorAll("[data-claim-card]")); }

  function selected() { return document.querySelector("[data-claim-card].selected"); }

  function select(card) {
    if (!card) return;
    cards().forEach(function (c) { c.classList.remove("selected"); });
    card.classList.add("selected");
    card.scrollIntoView({ block: "nearest", behavior: "smooth" });
    card.focus({ preventScroll: true });
  }

  function move(step) {
    var all = cards();
    if (!all.length) return;
    var index = all.indexOf(selected());
    select(all[Math.max(0, Math.min(all.length - 1, index + step))] || all[0]);
  }

  function click(selector, scope) {
    var button = (scope || document).querySelector(selector);
    if (button && !button.disabled) button.click();
  }

  function typing(event) {
    var tag = (event.target.tagName || "").toLowerCase();
    return tag === "input" || tag === "textarea" || tag === "select" || event.target.isContentEditable;
  }

  document.addEventListener("keydown", function (event) {
    if (typing(event) || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key === "n" && document.querySelector("[data-shortcut='next']")) {
      click("[data-shortcut='next']");
      event.preventDefault();
      return;
    }
    if (!document.querySelector("[data-review-page]")) return;
    var card = selected() || cards()[0];
    switch (event.key) {
      case "j": move(1); break;
      case "k": move(-1); break;
      case "c": if (card) { select(card); click("[data-shortcut='confirm']", card); } break;
      case "x": if (card) { select(card); click("[data-shortcut='reject-claim']", card); } break;
      case "a": click("[data-shortcut='approve']"); break;
      case "r": click("[data-shortcut='reject-answer']"); break;
      case "?": document.getElementById("shortcuts").showModal(); break;
      default: return;
    }
    event.preventDefault();
  });

  // A form with data-confirm asks first (instead of an inline onsubmit, which the CSP forbids).
  document.addEventListener("submit", function (event) {
    var message = event.target.getAttribute && event.target.getAttribute("data-confirm");
    if (message && !window.confirm(message)) event.preventDefault();
  });

  // Narrow screens: the header's Menu button folds the navigation (and Log out) in and out.
  document.addEventListener("click", function (event) {
    var toggle = event.target.closest("[data-nav-toggle]");
    if (!toggle) return;
    var open = toggle.closest(".topbar").classList.toggle("nav-open");
    toggle.setAttribute("aria-expanded", open ? "true" : "false");
  });

  // A new document's key is suggested from its title until the curator types a key of their own.
  function slug(text) {
    return text.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase()
      .replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 100).replace(/-+$/, "");
  }
  document.addEventListener("input", function (event) {
    var key = document.querySelector("[data-key-from-title]");
    if (!key) return;
    if (event.target === key) { key.dataset.edited = key.value ? "true" : ""; return; }
    if (event.target.id === key.dataset.keyFromTitle && !key.dataset.edited) key.value = slug(event.target.value);
  });

  document.addEventListener("click", function (event) {
    var help = event.target.closest("[data-shortcut='help']");
    if (help) { document.getElementById("shortcuts").showModal(); return; }
    var span = event.target.closest(".claim-span[data-claim]");
    if (span) select(document.getElementById("claim-" + span.dataset.claim));
  });

  // After a claim is confirmed or rejected, move on to the next claim so "c c c" walks the answer.
  document.addEventListener("htmx:afterSwap", function (event) {
    var id = event.detail.target && event.detail.target.id;
    var card = id ? document.getElementById(id) : null;
    if (!card || !card.matches("[data-claim-card]")) return;
    var all = cards();
    select(all[all.indexOf(card) + 1] || card);
  });
})();
