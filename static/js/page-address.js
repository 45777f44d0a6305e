// A page rendered in answer to a form (a refused decision at /decide/) takes the address it stands for, so that a
// reload reads that page again instead of sending the form again.
(function () {
  "use strict";
  var script = document.currentScript;
  var address = script && script.getAttribute("data-page-address");
  if (address && window.history.replaceState) window.history.replaceState(null, "", address + window.location.hash);
})();
