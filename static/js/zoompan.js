/* Zoom and pan of an inline SVG by its viewBox, shared by the campaign maps (map.js) and the
   trade-route maps (routemap.js). No library: without script each map shows whole.

   ftZoomPan(frame, viewport, svg, options) wires the frame's [data-zoom] buttons ("in", "out",
   "reset", or a name in options.buttons), the mouse wheel and dragging, and returns
   { show(view), zoom(factor, cx, cy), toSvg(clientX, clientY), view() }. Options:
   home() -> the first and "reset" view {x, y, w, h}; minWidth, maxWidth in map units;
   onView(view) after every change; onTap(event) for a click that did not drag;
   onHover(event) for a move that is not a drag; buttons {name: function}. */
(function () {
  "use strict";
  var DRAG_FROM = 4;  // px of movement before a press becomes a drag (a click stays a click)

  window.ftZoomPan = function (frame, viewport, svg, options) {
    var o = options || {};
    var view = o.home();

    function apply() {
      svg.setAttribute("viewBox", [view.x, view.y, view.w, view.h].join(" "));
      if (o.onView) { o.onView(view); }
    }
    function show(next) { view = next; apply(); }
    function toSvg(clientX, clientY) {
      var pt = svg.createSVGPoint();
      pt.x = clientX;
      pt.y = clientY;
      return pt.matrixTransform(svg.getScreenCTM().inverse());
    }
    function zoom(factor, cx, cy) {
      var w = Math.min(o.maxWidth, Math.max(o.minWidth, view.w * factor));
      var f = w / view.w;
      if (cx === undefined) { cx = view.x + view.w / 2; cy = view.y + view.h / 2; }
      show({ x: cx - (cx - view.x) * f, y: cy - (cy - view.y) * f, w: view.w * f, h: view.h * f });
    }

    frame.querySelectorAll("[data-zoom]").forEach(function (button) {
      button.addEventListener("click", function () {
        var how = button.getAttribute("data-zoom");
        if (how === "in") { zoom(0.7); }
        else if (how === "out") { zoom(1 / 0.7); }
        else if (o.buttons && o.buttons[how]) { o.buttons[how](); }
        else { show(o.home()); }
      });
    });

    viewport.addEventListener("wheel", function (e) {
      e.preventDefault();
      var p = toSvg(e.clientX, e.clientY);
      zoom(e.deltaY < 0 ? 0.8 : 1.25, p.x, p.y);
    }, { passive: false });

    var drag = null;
    function stop() { drag = null; viewport.classList.remove("dragging"); }
    viewport.addEventListener("pointerdown", function (e) {
      if (e.button !== 0) { return; }
      drag = { x: e.clientX, y: e.clientY, view: view, scale: svg.getScreenCTM().a, moved: false };
      viewport.setPointerCapture(e.pointerId);
    });
    viewport.addEventListener("pointermove", function (e) {
      if (!drag) {
        if (o.onHover) { o.onHover(e); }
        return;
      }
      var dx = e.clientX - drag.x, dy = e.clientY - drag.y;
      if (Math.abs(dx) + Math.abs(dy) > DRAG_FROM) { drag.moved = true; viewport.classList.add("dragging"); }
      if (drag.moved) {
        show({ x: drag.view.x - dx / drag.scale, y: drag.view.y - dy / drag.scale, w: view.w, h: view.h });
      }
    });
    viewport.addEventListener("pointerup", function (e) {
      var tapped = drag && !drag.moved;
      stop();
      if (tapped && o.onTap) { o.onTap(e); }
    });
    viewport.addEventListener("pointercancel", stop);

    apply();
    return { show: show, zoom: zoom, toSvg: toSvg, view: function () { return view; } };
  };
})();
