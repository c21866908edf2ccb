/* Zoom and pan for the trade-route map (trade/routes/svg.py draws it inline), and labels that
   appear as the reader zooms in: names first, then hex numbers and UWPs. No library; without
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
    var view = home();

    function apply() {
      svg.setAttribute("viewBox", [view.x, view.y, view.w, view.h].join(" "));
      var scale = viewport.clientWidth / view.w;
      svg.setAttribute("data-level", scale >= DETAILS_FROM ? "near" : scale >= NAMES_FROM ? "mid" : "far");
      svg.setAttribute("data-scale", scale.toFixed(2));
    }
    function toSvg(clientX, clientY) {
      var pt = svg.createSVGPoint();
      pt.x = clientX;
      pt.y = clientY;
      return pt.matrixTransform(svg.getScreenCTM().inverse());
    }
    function zoom(factor, cx, cy) {
      var w = Math.min(full.w * 2, Math.max(40, view.w * factor));
      var f = w / view.w;
      if (cx === undefined) { cx = view.x + view.w / 2; cy = view.y + view.h / 2; }
      view = { x: cx - (cx - view.x) * f, y: cy - (cy - view.y) * f, w: view.w * f, h: view.h * f };
      apply();
    }
    frame.routemap = {
      // Centre on a world (its data-id) at a given scale; used by the buttons' keyboard users
      // and by the browser tests.
      focus: function (id, scale) {
        var g = svg.querySelector('.world[data-id="' + id.replace(/"/g, "") + '"] circle');
        if (!g) { return false; }
        var cx = parseFloat(g.getAttribute("cx")), cy = parseFloat(g.getAttribute("cy"));
        var w = viewport.clientWidth / scale, h = viewport.clientHeight / scale;
        view = { x: cx - w / 2, y: cy - h / 2, w: w, h: h };
        apply();
        return true;
      }
    };

    frame.querySelectorAll("[data-zoom]").forEach(function (button) {
      button.addEventListener("click", function () {
        var how = button.getAttribute("data-zoom");
        if (how === "in") { zoom(0.7); } else if (how === "out") { zoom(1 / 0.7); } else { view = home(); apply(); }
      });
    });
    viewport.addEventListener("wheel", function (e) {
      e.preventDefault();
      var p = toSvg(e.clientX, e.clientY);
      zoom(e.deltaY < 0 ? 0.8 : 1.25, p.x, p.y);
    }, { passive: false });
    var drag = null;
    viewport.addEventListener("pointerdown", function (e) {
      if (e.button !== 0) { return; }
      drag = { x: e.clientX, y: e.clientY, view: view, scale: viewport.clientWidth / view.w };
      viewport.setPointerCapture(e.pointerId);
      viewport.classList.add("dragging");
    });
    viewport.addEventListener("pointermove", function (e) {
      if (!drag) { return; }
      view = { x: drag.view.x - (e.clientX - drag.x) / drag.scale, y: drag.view.y - (e.clientY - drag.y) / drag.scale, w: view.w, h: view.h };
      apply();
    });
    function stop() { drag = null; viewport.classList.remove("dragging"); }
    viewport.addEventListener("pointerup", stop);
    viewport.addEventListener("pointercancel", stop);
    apply();
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
