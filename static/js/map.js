/* Zoom and pan for the campaign maps, and the hex panel on click. No library: the map is a
   server-rendered SVG that works without this file; this only changes its viewBox. */
(function () {
  "use strict";
  var SQRT3 = Math.sqrt(3);

  // The inverse of powers/hexgrid.py centre_px (flat-topped, odd columns "up"): pixel -> XXYY.
  function hexAt(x, y, size) {
    var q = (x - size) / (1.5 * size);
    var z = (y - SQRT3 * size / 2) / (SQRT3 * size) - q / 2;
    var cy = -q - z;
    var rx = Math.round(q), ry = Math.round(cy), rz = Math.round(z);
    var dx = Math.abs(rx - q), dy = Math.abs(ry - cy), dz = Math.abs(rz - z);
    if (dx > dy && dx > dz) { rx = -ry - rz; } else if (dy <= dz) { rz = -rx - ry; }
    var col = rx + 1, row = rz + (rx - (rx & 1)) / 2 + 1;
    if (col < 1 || col > 99 || row < 1 || row > 99) { return null; }
    return (col < 10 ? "0" : "") + col + (row < 10 ? "0" : "") + row;
  }

  function loadPanel(url) {
    var panel = document.getElementById("hex-panel");
    if (window.htmx) {
      window.htmx.ajax("GET", url, { target: "#hex-panel", swap: "innerHTML" });
    } else if (panel) {
      fetch(url, { headers: { "HX-Request": "true" }, credentials: "same-origin" })
        .then(function (r) { return r.text(); })
        .then(function (html) { panel.innerHTML = html; });
    }
  }

  function init(frame) {
    var viewport = frame.querySelector(".map-viewport");
    var svg = frame.querySelector("svg.ftmap");
    if (!viewport || !svg) { return; }
    var size = parseFloat(svg.getAttribute("data-hex-size"));
    var base = svg.viewBox.baseVal;
    var home = { x: base.x, y: base.y, w: base.width, h: base.height };
    var view = { x: home.x, y: home.y, w: home.w, h: home.h };
    var hover = frame.querySelector("#map-hover");
    var hexUrl = frame.getAttribute("data-hex-url");

    // With script, the SVG fills the frame and zooming changes what part of it is shown.
    viewport.classList.add("js");
    svg.removeAttribute("width");
    svg.removeAttribute("height");
    svg.style.width = "100%";
    svg.style.height = "100%";

    function apply() {
      svg.setAttribute("viewBox", [view.x, view.y, view.w, view.h].join(" "));
    }
    function toSvg(clientX, clientY) {
      var pt = svg.createSVGPoint();
      pt.x = clientX;
      pt.y = clientY;
      return pt.matrixTransform(svg.getScreenCTM().inverse());
    }
    function zoom(factor, cx, cy) {
      var w = Math.min(home.w * 2, Math.max(size * 4, view.w * factor));
      var f = w / view.w;
      if (cx === undefined) { cx = view.x + view.w / 2; cy = view.y + view.h / 2; }
      view = { x: cx - (cx - view.x) * f, y: cy - (cy - view.y) * f, w: view.w * f, h: view.h * f };
      apply();
    }

    frame.querySelectorAll("[data-zoom]").forEach(function (button) {
      button.addEventListener("click", function () {
        var how = button.getAttribute("data-zoom");
        if (how === "in") { zoom(0.7); }
        else if (how === "out") { zoom(1 / 0.7); }
        else { view = { x: home.x, y: home.y, w: home.w, h: home.h }; apply(); }
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
      drag = { x: e.clientX, y: e.clientY, view: view, scale: svg.getScreenCTM().a, moved: false };
      viewport.setPointerCapture(e.pointerId);
    });
    viewport.addEventListener("pointermove", function (e) {
      if (drag) {
        var dx = e.clientX - drag.x, dy = e.clientY - drag.y;
        if (Math.abs(dx) + Math.abs(dy) > 4) { drag.moved = true; viewport.classList.add("dragging"); }
        if (drag.moved) {
          view = { x: drag.view.x - dx / drag.scale, y: drag.view.y - dy / drag.scale, w: view.w, h: view.h };
          apply();
        }
        return;
      }
      var p = toSvg(e.clientX, e.clientY);
      if (hover) { hover.textContent = hexAt(p.x, p.y, size) || ""; }
    });
    viewport.addEventListener("pointerup", function (e) {
      var wasDrag = drag && drag.moved;
      drag = null;
      viewport.classList.remove("dragging");
      if (wasDrag || !hexUrl) { return; }
      var p = toSvg(e.clientX, e.clientY);
      var code = hexAt(p.x, p.y, size);
      if (code) { loadPanel(hexUrl.replace("XXYY", code)); }
    });
    // Systems are links to their panel (for readers without script): load it in place instead,
    // and still answer the keyboard (a click with no pointer: detail 0).
    viewport.addEventListener("click", function (e) {
      var link = e.target.closest ? e.target.closest("a") : null;
      if (!link) { return; }
      e.preventDefault();
      var g = link.querySelector("[data-hex]");
      if (e.detail === 0 && g && hexUrl) { loadPanel(hexUrl.replace("XXYY", g.getAttribute("data-hex"))); }
    });
    viewport.addEventListener("pointercancel", function () {
      drag = null;
      viewport.classList.remove("dragging");
    });
  }

  document.querySelectorAll(".map-frame").forEach(init);
})();
