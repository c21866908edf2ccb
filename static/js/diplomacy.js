// A thread's poll (issue 31): htmx asks every few seconds with the ETag the thread was drawn
// with (hx-headers); the server answers 304 while nothing changed, and a 304 must not swap
// (the page's htmx config swaps every 2xx/3xx answer, and a 304 has no body).
(function () {
  "use strict";
  document.addEventListener("htmx:beforeSwap", function (evt) {
    if (evt.detail.xhr && evt.detail.xhr.status === 304) {
      evt.detail.shouldSwap = false;
      evt.detail.isError = false;
    }
  });
  // the newest message in view when the thread is drawn or redrawn
  function toEnd() {
    var list = document.getElementById("thread-messages");
    if (list) list.scrollTop = list.scrollHeight;
  }
  document.addEventListener("DOMContentLoaded", toEnd);
  document.addEventListener("htmx:afterSwap", toEnd);
})();
