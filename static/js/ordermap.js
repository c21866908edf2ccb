/* The orders page's map (issue 30; templates/economy/_orders_map.html). Pick one of your groups
   (click, tap, or Tab to it and press Enter), then a hex (click it, or move the yellow cursor
   with the arrow keys and press Enter): the declaration is posted by the group's own row of the
   sheet's declarations table, so the sheet and the map cannot disagree. Every change of the
   sheet reloads the map (htmx: "sheet-changed"), which draws the drafted moves as arrows; this
   file keeps the view and the focus across that reload. Clicking a system shows what can be
   ordered there. Any hex on the map may be declared (R-2: movement is not simulated); the
   distance is only shown. Zoom and pan: zoompan.js; the hex under a point: map.js. */
(function () {
  "use strict";
  var SQRT3 = Math.sqrt(3);
  var NS = "http://www.w3.org/2000/svg";
  // What outlives a reload of the map: the view, the group to focus, what to tell.
  var kept = { view: null, focus: null, say: null };

  function parse(code) { return { col: +code.slice(0, 2), row: +code.slice(2, 4) }; }
  function code(h) { return (h.col < 10 ? "0" : "") + h.col + (h.row < 10 ? "0" : "") + h.row; }
  // powers/hexgrid.py centre_px and distance, the same odd-q layout.
  function centre(h, size) {
    var c = h.col - 1;
    return { x: size + c * 1.5 * size, y: SQRT3 * size * (h.row - 0.5 + (c % 2 ? 0.5 : 0)) };
  }
  function cube(h) {
    var c = h.col - 1, z = (h.row - 1) - (c - (c & 1)) / 2;
    return [c, -c - z, z];
  }
  function distance(a, b) {
    var p = cube(a), q = cube(b);
    return Math.max(Math.abs(p[0] - q[0]), Math.abs(p[1] - q[1]), Math.abs(p[2] - q[2]));
  }
  function corners(h, size) {
    var o = centre(h, size), pts = [];
    for (var i = 0; i < 6; i++) {
      pts.push((o.x + size * Math.cos(Math.PI / 3 * i)).toFixed(1) + "," +
               (o.y + size * Math.sin(Math.PI / 3 * i)).toFixed(1));
    }
    return pts.join(" ");
  }
  function el(name, attrs) {
    var e = document.createElementNS(NS, name);
    Object.keys(attrs).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    return e;
  }

  function init(frame) {
    if (frame.getAttribute("data-ready")) { return; }
    frame.setAttribute("data-ready", "1");
    var viewport = frame.querySelector(".map-viewport");
    var svg = frame.querySelector("svg.ftmap");
    var status = frame.querySelector(".map-status");
    var panel = document.getElementById("order-map-panel");
    var cancel = frame.querySelector("[data-cancel]");
    var size = parseFloat(svg.getAttribute("data-hex-size"));
    var cols = +frame.getAttribute("data-cols"), rows = +frame.getAttribute("data-rows");
    var declareUrl = frame.getAttribute("data-declare-url");
    var base = svg.viewBox.baseVal;
    var whole = { x: base.x, y: base.y, w: base.width, h: base.height };
    var chosen = null, layer = null, cursor = null, here = null;

    viewport.classList.add("js");
    svg.removeAttribute("width");
    svg.removeAttribute("height");
    svg.style.width = "100%";
    svg.style.height = "100%";

    function say(text) { status.textContent = text; }
    function onMap(h) { return h.col >= 1 && h.row >= 1 && h.col <= cols && h.row <= rows; }
    function systemName(c) {
      var t = svg.querySelector('.sys[data-hex="' + c + '"] text.name');
      return t ? t.textContent : "";
    }
    function describe(h) {
      var c = code(h), name = systemName(c), d = distance(here, h);
      return c + (name ? " (" + name + ")" : "") + ", " +
        (d === 0 ? "where it is now" : d + (d === 1 ? " hex" : " hexes") + " from " + code(here));
    }

    var saved = kept.view;  // ftZoomPan reports its first (whole) view: keep the one before
    var map = window.ftZoomPan(frame, viewport, svg, {
      home: function () { return whole; },
      minWidth: size * 4,
      maxWidth: whole.w * 2,
      onView: function (view) { kept.view = view; },
      onTap: tap
    });
    if (saved) { map.show(saved); }

    function clear() {
      if (layer) { layer.remove(); }
      if (chosen) { chosen.el.classList.remove("chosen"); }
      chosen = layer = cursor = null;
      cancel.hidden = true;
    }

    function choose(group) {
      clear();
      chosen = { el: group, key: group.getAttribute("data-key"), name: group.getAttribute("data-group") };
      here = parse(group.getAttribute("data-hex"));
      group.classList.add("chosen");
      // Every hex on the map may be declared: the map's whole area is tinted, the group's hex
      // ringed, and the cursor says how far a hex is.
      var far = centre({ col: cols, row: rows }, size);
      layer = el("g", { "class": "targets" });
      layer.appendChild(el("rect", { "class": "reach", x: 0, y: 0, width: far.x + size, height: far.y + SQRT3 * size }));
      layer.appendChild(el("polygon", { "class": "here", points: corners(here, size) }));
      var mark = el("g", { "class": "cursor", tabindex: "0", role: "button" });
      mark.appendChild(el("polygon", {}));
      mark.appendChild(el("text", { "class": "dist" }));
      layer.appendChild(mark);
      svg.appendChild(layer);
      mark.addEventListener("keydown", key);
      cancel.hidden = false;
      point(here);
      mark.focus({ preventScroll: true });
      say("Group " + chosen.name + " at " + code(here) + ": click a hex, or move with the arrow " +
          "keys and press Enter, to declare it there. Escape cancels.");
    }

    function point(h) {
      cursor = h;
      var mark = layer.querySelector(".cursor"), o = centre(h, size);
      mark.querySelector("polygon").setAttribute("points", corners(h, size));
      var label = mark.querySelector("text");
      label.setAttribute("x", o.x.toFixed(1));
      label.setAttribute("y", (o.y - size / 2).toFixed(1));
      label.textContent = distance(here, h) || "";
      mark.setAttribute("aria-label", "Declare group " + chosen.name + " at " + describe(h));
      var v = map.view();
      if (o.x < v.x || o.x > v.x + v.w || o.y < v.y || o.y > v.y + v.h) {
        map.show({ x: o.x - v.w / 2, y: o.y - v.h / 2, w: v.w, h: v.h });
      }
      say(describe(h));
    }

    function declare(c) {
      var url = declareUrl.replace("GROUPKEY", encodeURIComponent(chosen.key));
      var form = document.querySelector('#declarations form[action="' + url + '"]');
      var input = form && form.querySelector('input[name="hex"]');
      if (!input || input.disabled) {
        say("The round is not open for orders: nothing was changed.");
        return;
      }
      // The row's own form posts it (htmx: hx-trigger="change"), with its standing order
      // and outcome as they are; the sheet answers, and its change reloads this map.
      kept.focus = chosen.key;
      kept.say = "Group " + chosen.name + " declared at " + c + ".";
      say("Declaring group " + chosen.name + " at " + c + "…");
      input.value = c;
      clear();
      input.dispatchEvent(new Event("change", { bubbles: true }));
    }

    function stop() {
      var group = chosen && chosen.el;
      clear();
      say("No move.");
      if (group) { group.focus({ preventScroll: true }); }
    }

    function key(e) {
      var step = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[e.key];
      if (step) {
        e.preventDefault();
        var next = { col: cursor.col + step[0], row: cursor.row + step[1] };
        if (onMap(next)) { point(next); }
      } else if (e.key === "Enter" || e.key === " ") {
        e.preventDefault();
        declare(code(cursor));
      } else if (e.key === "Escape") {
        e.preventDefault();
        stop();
      }
    }

    function showPlace(c, fromKeys) {
      var places = document.getElementById("order-map-places");
      var found = places.querySelector('[data-place="' + c + '"]');
      if (found) {
        panel.innerHTML = found.innerHTML;
      } else {
        var name = systemName(c);
        panel.innerHTML = "";
        var h = document.createElement("h3");
        h.textContent = name ? name + " (" + c + ")" : "Hex " + c;
        panel.appendChild(h);
        panel.appendChild(places.querySelector('[data-place=""]').cloneNode(true));
      }
      if (fromKeys) { panel.setAttribute("tabindex", "-1"); panel.focus(); }
    }

    function tap(e) {
      var hit = document.elementFromPoint(e.clientX, e.clientY);
      var group = hit && hit.closest ? hit.closest(".own-group[data-key]") : null;
      var p = map.toSvg(e.clientX, e.clientY);
      var c = window.ftHexAt(p.x, p.y, size);
      if (chosen) {
        if (group === chosen.el) { stop(); }
        else if (c && onMap(parse(c))) { declare(c); }
        return;
      }
      if (group) { choose(group); }
      else if (c) { showPlace(c, false); }
    }

    svg.querySelectorAll(".own-group[data-key]").forEach(function (group) {
      group.addEventListener("keydown", function (e) {
        if (e.key === "Enter" || e.key === " ") { e.preventDefault(); choose(group); }
      });
    });
    cancel.addEventListener("click", stop);
    // Systems are links to their hex page (for readers without script): here a pointer's click
    // is a tap (above), and Enter on one (a click with no pointer: detail 0) picks that hex.
    viewport.addEventListener("click", function (e) {
      var link = e.target.closest ? e.target.closest("a") : null;
      if (!link) { return; }
      e.preventDefault();
      var g = link.querySelector("[data-hex]");
      if (e.detail !== 0 || !g) { return; }
      if (chosen) { declare(g.getAttribute("data-hex")); } else { showPlace(g.getAttribute("data-hex"), true); }
    });

    if (kept.focus) {
      var back = svg.querySelector('.own-group[data-key="' + CSS.escape(kept.focus) + '"]');
      if (back) { back.focus({ preventScroll: true }); }
      kept.focus = null;
    }
    if (kept.say) { say(kept.say); kept.say = null; }
  }

  document.body.addEventListener("htmx:load", function (e) {
    var root = e.target;
    var frame = root.id === "order-map-frame" ? root : root.querySelector && root.querySelector("#order-map-frame");
    if (frame) { init(frame); }
  });
})();
