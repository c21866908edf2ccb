/* The campaign maps: zoom and pan (zoompan.js), the hex panel on click, and on a large map a
   first view centred on the player's own systems, with a "My systems" button. The map is a
   server-rendered SVG that works without this file; this only changes its viewBox. */
(function () {
  "use strict";
  var SQRT3 = Math.sqrt(3);
  // screen px a hex (2 x its size) spans at least when the map opens: its 9-unit labels
  // (powers/maps.py) then read at 11 px or more (issue 30)
  var READABLE = 60;

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
  window.ftHexAt = hexAt;  // the orders page's map (ordermap.js) picks hexes the same way

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
    var whole = { x: base.x, y: base.y, w: base.width, h: base.height };
    var hover = frame.querySelector("#map-hover");
    var hexUrl = frame.getAttribute("data-hex-url");
    var mine = Array.prototype.map.call(svg.querySelectorAll(".sys circle[data-own]"), function (c) {
      return { x: parseFloat(c.getAttribute("cx")), y: parseFloat(c.getAttribute("cy")) };
    });

    // With script, the SVG fills the frame and zooming changes what part of it is shown.
    viewport.classList.add("js");
    svg.removeAttribute("width");
    svg.removeAttribute("height");
    svg.style.width = "100%";
    svg.style.height = "100%";

    // The player's own systems with a hex or two around them, at least a readable size.
    function mySystems() {
      var xs = mine.map(function (p) { return p.x; }), ys = mine.map(function (p) { return p.y; });
      var x0 = Math.min.apply(null, xs) - 2 * size, x1 = Math.max.apply(null, xs) + 2 * size;
      var y0 = Math.min.apply(null, ys) - 2 * size, y1 = Math.max.apply(null, ys) + 2 * size;
      var aspect = viewport.clientHeight / Math.max(viewport.clientWidth, 1);
      var w = Math.max(x1 - x0, (y1 - y0) / aspect);
      w = Math.min(w, viewport.clientWidth / READABLE * 2 * size);
      var cx = (x0 + x1) / 2, cy = (y0 + y1) / 2;
      return { x: cx - w / 2, y: cy - w * aspect / 2, w: w, h: w * aspect };
    }
    function centred() {
      var aspect = viewport.clientHeight / Math.max(viewport.clientWidth, 1);
      var w = viewport.clientWidth / READABLE * 2 * size;
      return { x: whole.x + (whole.w - w) / 2, y: whole.y + (whole.h - w * aspect) / 2, w: w, h: w * aspect };
    }
    var fit = Math.min(viewport.clientWidth / whole.w, viewport.clientHeight / whole.h);
    var large = fit * 2 * size < READABLE;
    // a map too large to read whole opens on the player's systems, or (the public map) on its
    // centre, readable; "Whole map" shows it all
    var first = !large ? whole : mine.length ? mySystems() : centred();
    var tools = frame.querySelector('[data-zoom="mine"]');
    if (tools) { tools.hidden = !mine.length; }

    var map = window.ftZoomPan(frame, viewport, svg, {
      home: function () { return whole; },
      minWidth: size * 4,
      maxWidth: whole.w * 2,
      buttons: { mine: function () { if (mine.length) { map.show(mySystems()); } } },
      onHover: function (e) {
        var p = map ? map.toSvg(e.clientX, e.clientY) : null;
        if (hover && p) { hover.textContent = hexAt(p.x, p.y, size) || ""; }
      },
      onTap: function (e) {
        if (!hexUrl) { return; }
        var p = map.toSvg(e.clientX, e.clientY);
        var code = hexAt(p.x, p.y, size);
        if (code) { loadPanel(hexUrl.replace("XXYY", code)); }
      }
    });
    map.show(first);
    // Systems are links to their panel (for readers without script): load it in place instead,
    // and still answer the keyboard (a click with no pointer: detail 0).
    viewport.addEventListener("click", function (e) {
      var link = e.target.closest ? e.target.closest("a") : null;
      if (!link) { return; }
      e.preventDefault();
      var g = link.querySelector("[data-hex]");
      if (e.detail === 0 && g && hexUrl) { loadPanel(hexUrl.replace("XXYY", g.getAttribute("data-hex"))); }
    });
  }

  document.querySelectorAll(".map-frame").forEach(init);
})();
