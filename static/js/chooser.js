// The order chooser (issue 30): the search box filters the order types by their words (group,
// label, what each does), the select and the list of those not available now alike. Enter
// chooses the first type named by the words, else the first that mentions them (htmx then
// fetches its fields, as when it is picked by hand) and puts the cursor in its first field;
// the down arrow moves to the select, Escape clears.
// Without JavaScript the box stays hidden and the whole select is there.
(() => {
  const fold = (text) => text.toLowerCase().normalize("NFD").replace(/[\u0300-\u036f]/g, "");
  // each word typed must begin a word there ("ep" finds EP, not "step" or "keep")
  const starts = (text, words) => {
    const said = fold(text).split(/[^a-z0-9]+/);
    return words.every((w) => said.some((s) => s.startsWith(w)));
  };
  const fits = (el, words) => starts(el.dataset.words || el.textContent, words);
  const wordsOf = (input) => fold(input.value).split(/\s+/).filter(Boolean);
  const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;

  function filter(input) {
    const select = document.getElementById("id_type");
    if (!select) return;
    const words = wordsOf(input);
    let found = 0;
    for (const group of select.querySelectorAll("optgroup")) {
      let any = false;
      for (const option of group.querySelectorAll("option")) {
        const fit = fits(option, words);
        found += fit ? 1 : 0;
        // the chosen type stays in view: the form sends it whatever the filter shows
        option.hidden = !(fit || option.selected);
        any = any || !option.hidden;
      }
      group.hidden = !any;
    }
    let apart = 0;
    for (const item of document.querySelectorAll("#order-unavailable li")) {
      item.hidden = !fits(item, words);
      apart += item.hidden ? 0 : 1;
    }
    const said = document.getElementById("order-find-said");
    if (!said) return;
    if (!words.length) {
      said.textContent = "";
      return;
    }
    said.textContent =
      (found ? `${plural(found, "order type matches", "order types match")}` : "No order type matches") +
      (apart ? `; ${apart} more not available now (listed below)` : "") +
      (found ? `. Enter chooses “${best(select, words).textContent.trim()}”.` : ".");
  }

  // the first field of the chosen type, once its fields are in (else the select)
  let focusFields = false;
  const toFields = () => {
    const first = document.querySelector(
      "#order-fields input:not([type=hidden]), #order-fields select, #order-fields textarea",
    );
    (first || document.getElementById("id_type"))?.focus();
  };

  // what Enter chooses: the first type whose name has the words, else the first whose
  // paragraph mentions them
  const best = (select, words) => {
    const options = Array.from(select.querySelectorAll("optgroup option"));
    return options.find((o) => starts(o.textContent, words)) || options.find((o) => fits(o, words));
  };

  function choose(input) {
    const select = document.getElementById("id_type");
    const words = wordsOf(input);
    if (!select || !words.length) return;
    const first = best(select, words);
    if (!first) return;
    if (select.value === first.value) {
      toFields();
      return;
    }
    select.value = first.value;
    focusFields = true;
    select.dispatchEvent(new Event("change", { bubbles: true })); // htmx fetches its fields
  }

  document.addEventListener("htmx:afterSettle", (event) => {
    if (!focusFields || event.detail.target?.id !== "order-fields") return;
    focusFields = false;
    toFields();
  });

  document.addEventListener("input", (event) => {
    if (event.target.id === "order-find") filter(event.target);
  });

  document.addEventListener("keydown", (event) => {
    const input = event.target;
    if (input.id !== "order-find") return;
    if (event.key === "Enter") {
      event.preventDefault(); // never submit the order form from the search box
      choose(input);
    } else if (event.key === "ArrowDown") {
      event.preventDefault();
      document.getElementById("id_type")?.focus();
    } else if (event.key === "Escape" && input.value) {
      event.preventDefault();
      input.value = "";
      filter(input);
    }
  });

  // the sheet is swapped whole after each change: show the box again each time
  const reveal = () => {
    const box = document.getElementById("order-find-box");
    if (box) box.hidden = false;
  };
  reveal();
  document.addEventListener("htmx:afterSwap", reveal);
})();
