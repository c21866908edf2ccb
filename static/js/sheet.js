// The order sheet: ask before submitting orders that would be rejected (issue 17). The
// projection marks such orders on their rows; without JavaScript the warning text shows alone.
document.addEventListener("htmx:confirm", (event) => {
  const form = document.getElementById("submit-bar");
  const submitter = event.detail.triggeringEvent && event.detail.triggeringEvent.submitter;
  if (event.detail.elt !== form || !submitter || submitter.value !== "submit") return;
  const marked = document.querySelectorAll("#order-list .error").length;
  if (marked === 0) return;
  event.preventDefault();
  const warning = document.getElementById("submit-warning");
  const said = (warning && warning.textContent.trim()) || `${marked} of your orders would be rejected.`;
  if (window.confirm(`${said} Submit anyway?`)) event.detail.issueRequest(true);
});
