// Deadlines in the viewer's own time with a countdown (issue 18). The server writes the UTC
// time in <time datetime="..." data-countdown>; without this script that UTC text stays.
(function () {
  "use strict";

  function countdown(ms) {
    if (ms <= 0) return "passed";
    var minutes = Math.floor(ms / 60000);
    var days = Math.floor(minutes / 1440);
    var hours = Math.floor((minutes % 1440) / 60);
    var mins = minutes % 60;
    var parts = [];
    if (days) parts.push(days + " d");
    if (days || hours) parts.push(hours + " h");
    parts.push(mins + " min");
    return "in " + parts.join(" ");
  }

  function render() {
    var now = Date.now();
    document.querySelectorAll("time[data-countdown]").forEach(function (el) {
      var at = new Date(el.getAttribute("datetime"));
      if (isNaN(at.getTime())) return;
      var local = at.toLocaleString(undefined, {
        weekday: "short", year: "numeric", month: "short", day: "numeric",
        hour: "2-digit", minute: "2-digit", timeZoneName: "short"
      });
      el.textContent = local + " (" + countdown(at.getTime() - now) + ")";
      el.title = at.toISOString().slice(0, 16).replace("T", " ") + " UTC";
      el.classList.toggle("soon", at.getTime() - now < 24 * 3600 * 1000);
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    render();
    setInterval(render, 30000);
  });
  document.addEventListener("htmx:afterSettle", render);
})();
