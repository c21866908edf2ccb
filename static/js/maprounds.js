/* The map's round stepper (issue 30): "[" or "←" steps back a round, "]" or "→" forward, as
   the stepper's links do (they work without this file). Keys typed in a field are left alone,
   and so are the arrows while the map itself has the focus (its own buttons may use them). */
(function () {
  "use strict";
  var KEYS = { "[": "prev", "ArrowLeft": "prev", "]": "next", "ArrowRight": "next" };
  document.addEventListener("keydown", function (e) {
    var step = KEYS[e.key];
    if (!step || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) { return; }
    var t = e.target;
    if (t && t.closest && t.closest("input, textarea, select, [contenteditable], .map-frame")) { return; }
    var link = document.querySelector('#map-rounds [data-step="' + step + '"]');
    if (link) { e.preventDefault(); window.location.assign(link.href); }
  });
})();
