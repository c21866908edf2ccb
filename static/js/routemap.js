/* The trade-route map (trade/routes/svg.py draws it inline): zoom and pan (zoompan.js), and
   labels that appear as the reader zooms in: names first, then hex numbers and UWPs. Without
   this file the whole map shows at the page's width with every label. */
(function () {
  "use strict";
  var NAMES_FROM = 1.6, DETAILS_FROM = 3.5;  // screen px per map unit (a hex is 20 units wide)

  function init(frame) {
    var viewport = frame.querySelector(".routemap-viewport");
    var svg = viewport && viewport.querySelector("svg");
    if (!svg || frame.getAttribute("data-ready")) { return; }
    frame.setAttribute("data-ready", "1");
    var base = svg.viewBox.baseVal;
    var full = { x: base.x, y: base.y, w: base.width, h: base.height };
    viewport.classList.add("js");
    svg.removeAttribute("width");
    svg.removeAttribute("height");
    svg.setAttribute("preserveAspectRatio", "xMidYMin meet");

    // The first view fits the map's width (a one-sector map is then readable) from its top.
    function home() {
      var aspect = viewport.clientHeight / Math.max(viewport.clientWidth, 1);
      return { x: full.x, y: full.y, w: full.w, h: full.w * aspect };
    }
    var map = window.ftZoomPan(frame, viewport, svg, {
      home: home,
      minWidth: 40,
      maxWidth: full.w * 2,
      onView: function (view) {
        var scale = viewport.clientWidth / view.w;
        svg.setAttribute("data-level", scale >= DETAILS_FROM ? "near" : scale >= NAMES_FROM ? "mid" : "far");
        svg.setAttribute("data-scale", scale.toFixed(2));
      }
    });
    frame.routemap = {
      // Centre on a world (its data-id) at a given scale; used by the buttons' keyboard users
      // and by the browser tests.
      focus: function (id, scale) {
        var g = svg.querySelector('.world[data-id="' + id.replace(/"/g, "") + '"] circle');
        if (!g) { return false; }
        var cx = parseFloat(g.getAttribute("cx")), cy = parseFloat(g.getAttribute("cy"));
        var w = viewport.clientWidth / scale, h = viewport.clientHeight / scale;
        map.show({ x: cx - w / 2, y: cy - h / 2, w: w, h: h });
        return true;
      }
    };
  }

  function initAll() {
    document.querySelectorAll("[data-routemap]").forEach(init);
    document.querySelectorAll(".routemap-legend .dot[data-colour]").forEach(function (dot) {
      dot.style.background = dot.getAttribute("data-colour");
    });
  }
  document.addEventListener("DOMContentLoaded", initAll);
  document.addEventListener("htmx:afterSwap", initAll);  // the map arrives when the job is done
})();
