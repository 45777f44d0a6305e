// Keyboard shortcuts. Queue: n takes the next item. Review page: n starts the review (takes the lease), j/k move
// between claims, c/x mark the selected claim correct/wrong (1-6 then say why it is wrong), g agrees with every supported claim, u undoes the last
// mark, e edits, a approves & sends, r rejects the answer (z undoes it while its toast shows), s skips, [ / ] open
// the previous / next item, ? shows the help.
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

  // Only typing into text ignores shortcuts: a focused checkbox or button must not stop them.
  var NOT_TEXT = ["checkbox", "radio", "button", "submit", "reset", "range", "color", "file", "image"];

  function typing(event) {
    var target = event.target;
    var tag = (target.tagName || "").toLowerCase();
    if (tag === "input") return NOT_TEXT.indexOf((target.type || "text").toLowerCase()) === -1;
    return tag === "textarea" || tag === "select" || target.isContentEditable;
  }

  function csrfToken() {
    try { return JSON.parse(document.body.getAttribute("hx-headers"))["x-csrftoken"]; } catch (e) { return ""; }
  }

  // Undo: each claim mark remembers what the claim said before; u puts the last one back.
  var undoStack = [];

  function showUndo() {
    var button = document.querySelector("[data-shortcut='undo']");
    if (button) button.hidden = undoStack.length === 0;
  }

  function undo() {
    var last = undoStack.pop();
    showUndo();
    var card = last && document.getElementById(last.cardId);
    if (!card) return;
    htmx.ajax("POST", last.url, {
      source: card, target: "#" + last.cardId, swap: "outerHTML",
      values: { state: last.state, note: last.note, kind: last.state === "rejected" ? last.kind : "" },
    });
  }

  function editAnswer() {
    var panel = document.getElementById("edit-panel");
    if (!panel) return;
    panel.open = true;
    var text = panel.querySelector("textarea");
    if (text) text.focus();
  }

  document.addEventListener("keydown", function (event) {
    if (typing(event)) {
      // Inside a text box only two keys act: Esc leaves it (to the selected card), Ctrl/Cmd+Enter submits it;
      // every other key is text, so a shortcut letter can never act on what is being written.
      if (event.key === "Escape") {
        event.target.blur();
        var current = selected() || cards()[0];
        if (current) select(current);
        event.preventDefault();
      } else if (event.key === "Enter" && (event.ctrlKey || event.metaKey) && event.target.form) {
        // The box's own button (the reason rejects, the edit box sends the edit), and only when it may be pressed.
        var own = event.target.getAttribute("data-submits");
        var button = event.target.form.querySelector(own || "[data-submit-default]");
        if (!button) event.target.form.requestSubmit();
        else if (!button.disabled) event.target.form.requestSubmit(button);
        event.preventDefault();
      }
      return;
    }
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key === "z" && document.querySelector("[data-shortcut='undo-reject']")) {
      click("[data-shortcut='undo-reject']");
      event.preventDefault();
      return;
    }
    if (event.key === "n" && document.querySelector("[data-shortcut='next']")) {
      click("[data-shortcut='next']");
      event.preventDefault();
      return;
    }
    if (event.key === "?" && document.getElementById("shortcuts")) {
      document.getElementById("shortcuts").showModal();  // every page with keys lists them
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
      // A claim marked wrong asks why: 1-6 press its kinds (wrong number or date, ... other).
      case "1": case "2": case "3": case "4": case "5": case "6":
        if (card) click("[data-kind-key='" + event.key + "']", card);
        break;
      case "u": undo(); break;
      case "e": editAnswer(); break;
      case "a": click("[data-shortcut='approve']"); break;
      case "g": click("[data-shortcut='confirm-supported']"); break;
      case "r": click("[data-shortcut='reject-answer']"); break;
      case "s": click("[data-shortcut='skip']"); break;
      case "[": click("[data-shortcut='previous-item']"); break;
      case "]": click("[data-shortcut='next-item']"); break;
      default: return;
    }
    event.preventDefault();
  });

  // Leaving the page by one of its own forms (decide, skip, start, release) settles the lease itself.
  var leavingByForm = false;

  // A form or a button with data-confirm asks first (instead of an inline onsubmit, which the CSP forbids).
  document.addEventListener("submit", function (event) {
    var form = event.target;
    // The button that submitted it may ask first (Reject), or the form itself.
    var message = (event.submitter && event.submitter.getAttribute("data-confirm")) ||
      (form.getAttribute && form.getAttribute("data-confirm"));
    if (message && !window.confirm(message)) { event.preventDefault(); return; }
    if (!form.hasAttribute("hx-post")) leavingByForm = true;
  });

  // Closing (or leaving) the review page gives the answer back to the queue at once.
  window.addEventListener("pagehide", function () {
    var lease = document.querySelector("#lease[data-release-url]");
    if (!lease || leavingByForm) return;
    var body = new FormData();
    body.append("csrfmiddlewaretoken", csrfToken());
    body.append("quiet", "1");
    navigator.sendBeacon(lease.getAttribute("data-release-url"), body);
  });

  // Coming back from the history cache: the lease may be gone, so show the page as it is now.
  window.addEventListener("pageshow", function (event) {
    if (event.persisted && document.querySelector("[data-review-page]")) window.location.reload();
  });

  // The undo toast of a reject counts down and goes once its window is over (the server holds the same limit).
  function undoToastTick() {
    var toast = document.getElementById("undo-toast");
    if (!toast) return;
    var left = Math.ceil((Number(toast.getAttribute("data-undo-until")) - Date.now()) / 1000);
    if (left <= 0) { toast.remove(); return; }
    toast.querySelector("[data-undo-countdown]").textContent = left + "s";
    window.setTimeout(undoToastTick, 250);
  }
  document.addEventListener("DOMContentLoaded", undoToastTick);

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
    if (event.target.id !== key.dataset.keyFromTitle || key.dataset.edited) return;
    var title = event.target.value;
    // Letters the browser cannot spell in ASCII (Chinese) are spelled by the server (pinyin); the last answer for
    // the title as it stands wins.
    if (!/[^\u0000-\u024f\u2000-\u206f]/.test(title) || !key.dataset.keySuggestionUrl) { key.value = slug(title); return; }
    fetch(key.dataset.keySuggestionUrl + "?title=" + encodeURIComponent(title), {credentials: "same-origin"})
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (body) {
        if (body && event.target.value === title && !key.dataset.edited) key.value = body.key;
      });
  });

  // Mentions: typing "@ro" in a comment box narrows its Mention buttons to the names that start so; a button
  // completes the name at the cursor (or puts "@name " there).
  function mentionTyped(box) {
    var match = /(^|\s)@([\w.@+-]*)$/.exec(box.value.slice(0, box.selectionStart));
    return match ? match[2] : null;
  }

  function insertMention(button) {
    var box = button.closest("form").querySelector("[data-mention-box]");
    if (!box) return;
    var typed = mentionTyped(box);
    var start = box.selectionStart - (typed === null ? 0 : typed.length + 1);
    var before = box.value.slice(0, start);
    var text = (before && !/\s$/.test(before) ? " " : "") + "@" + button.getAttribute("data-mention") + " ";
    box.value = before + text + box.value.slice(box.selectionEnd);
    box.focus();
    box.selectionStart = box.selectionEnd = before.length + text.length;
    filterMentions(box);
  }

  function filterMentions(box) {
    var typed = mentionTyped(box);
    box.closest("form").querySelectorAll("[data-mention]").forEach(function (button) {
      var name = button.getAttribute("data-mention").toLowerCase();
      button.hidden = typed !== null && name.indexOf(typed.toLowerCase()) !== 0;
    });
  }

  document.addEventListener("input", function (event) {
    if (event.target.matches && event.target.matches("[data-mention-box]")) filterMentions(event.target);
  });

  document.addEventListener("click", function (event) {
    var help = event.target.closest("[data-shortcut='help']");
    if (help) { document.getElementById("shortcuts").showModal(); return; }
    if (event.target.closest("[data-shortcut='undo']")) { undo(); return; }
    var mention = event.target.closest("[data-mention]");
    if (mention) { insertMention(mention); return; }
    var span = event.target.closest(".claim-span[data-claim]");
    if (span) select(document.getElementById("claim-" + span.dataset.claim));
  });

  // Remember what a claim said before it is marked, so u can put it back once the mark is in.
  var pendingMark = null;
  // Saying which conflicting source is right is no claim mark: the claim stays selected, still to be marked.
  var settlingConflictOn = null;

  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail.elt;
    if (elt.matches && elt.matches("form.conflict-settle")) {
      settlingConflictOn = elt.closest("[data-claim-card]").id;
      return;
    }
    if (!elt.matches || !elt.matches("form.claim-actions")) return;
    var card = elt.closest("[data-claim-card]");
    pendingMark = {
      url: elt.getAttribute("hx-post"), cardId: card.id,
      state: card.dataset.reviewState, note: card.dataset.reviewNote, kind: card.dataset.errorKind || "",
    };
  });

  // Refusals (a note is needed, the lease was lost, the re-check failed) come back as 4xx/503 with the part to
  // show in their place: swap them in rather than drop them.
  document.addEventListener("htmx:beforeSwap", function (event) {
    var status = event.detail.xhr.status;
    if ((status === 400 || status === 409 || status === 503) && event.detail.serverResponse) {
      event.detail.shouldSwap = true;
      event.detail.isError = false;
    }
  });

  // After a claim is marked, move on to the next claim so "c c c" walks the answer; a refused mark keeps the
  // claim selected with its note field ready. (After settling: htmx puts the focus back once it has swapped.)
  document.addEventListener("htmx:afterSettle", function (event) {
    var id = event.detail.target && event.detail.target.id;
    var card = id ? document.getElementById(id) : null;
    if (!card || !card.matches("[data-claim-card]") || card.dataset.settled) return;
    card.dataset.settled = "1";  // once per swap, though every swapped part reports it
    var mark = pendingMark;
    pendingMark = null;
    if (mark && mark.cardId === card.id && !card.classList.contains("has-error")) {
      undoStack.push(mark);
      showUndo();
    }
    if (settlingConflictOn === card.id) {
      settlingConflictOn = null;
      card.classList.add("selected");
      if (!card.classList.contains("has-error")) return;
    }
    if (card.classList.contains("has-error")) {
      select(card);
      var note = card.querySelector("[data-claim-note]");
      if (note) note.focus();
      return;
    }
    // Marked wrong without saying why: stay on it, its "Why is it wrong?" keys (1-6) are next.
    if (card.dataset.reviewState === "rejected" && !card.dataset.errorKind) {
      select(card);
      return;
    }
    var all = cards();
    select(all[all.indexOf(card) + 1] || card);
  });
})();
