// ingest review: keyboard shortcuts and fragment swaps. Loaded from /static (CSP: no inline script).
"use strict";

(function () {
  const csrf = () => document.querySelector('meta[name="csrf-token"]').content;
  const typing = (el) => el && (el.tagName === "INPUT" || el.tagName === "TEXTAREA" || el.tagName === "SELECT" || el.isContentEditable);
  // every swap runs after the one before: a key pressed while a change is loading is queued,
  // then acts on the change that is showing by then (never dropped)
  let chain = Promise.resolve();
  function later(step) { chain = chain.then(step).catch(() => {}); return chain; }

  // each marked quote in the middle of its scrolling context box (one box per source)
  function centreQuote() {
    document.querySelectorAll("pre.context").forEach((box) => {
      const mark = box.querySelector("mark");
      if (!mark) return;
      box.scrollTop = Math.max(0, mark.offsetTop - box.clientHeight / 2 + mark.offsetHeight / 2);
    });
  }

  // the `?` overlay, and a paper's picture enlarged on click
  function help(show) {
    const box = document.getElementById("help");
    if (box) box.hidden = show === undefined ? !box.hidden : !show;
  }
  function shrinkPictures() {
    let any = false;
    document.querySelectorAll("figure.enlarged").forEach((f) => { f.classList.remove("enlarged"); any = true; });
    return any;
  }
  document.addEventListener("click", (event) => {
    const figure = event.target.closest("figure[data-enlarge]");
    if (figure) figure.classList.toggle("enlarged");
    if (event.target.id === "help") help(false);
  });
  document.addEventListener("DOMContentLoaded", centreQuote);

  // ---- one change: swap the #change fragment without reloading the page -------------------
  async function swap(url, options) {
    const slot = document.getElementById("change-slot");
    if (!slot) return;
    const article = document.getElementById("change");
    if (article) article.classList.add("loading");
    try {
      const headers = Object.assign({ "X-Fragment": "1" }, (options && options.headers) || {});
      const response = await fetch(url, Object.assign({ credentials: "same-origin" }, options || {}, { headers }));
      if (response.status === 401 || response.status === 403) { window.location.reload(); return; }
      slot.innerHTML = await response.text();
      const fresh = document.getElementById("change");
      if (fresh && fresh.dataset.url) history.replaceState(null, "", fresh.dataset.url);
      const title = fresh && fresh.querySelector("h1");
      if (title) document.title = title.textContent.trim() + " · ingest";
      if (fresh) fresh.focus({ preventScroll: true });
      centreQuote();
      window.scrollTo(0, 0);
    } finally {
      const still = document.getElementById("change");
      if (still) still.classList.remove("loading");
    }
  }

  function post(form, extra) {
    const body = new FormData(form);
    for (const [k, v] of Object.entries(extra || {})) body.set(k, v);
    return swap(form.getAttribute("action"), { method: "POST", body, headers: { "X-CSRF-Token": csrf() } });
  }

  function decide(action) {
    return later(() => {
      const form = document.getElementById("decide-form");
      if (!form) return undefined;
      const button = form.querySelector(`button[value="${action}"]`);
      if (!button || button.disabled) return undefined;
      return post(form, { action });
    });
  }

  function go(which) {
    return later(() => {
      const article = document.getElementById("change");
      const url = article && article.dataset[which];
      return url ? swap(url) : undefined;
    });
  }

  function undo() {
    if (!document.getElementById("change-slot")) {
      const form = document.getElementById("undo-form");
      if (form) form.submit();
      return;
    }
    later(() => {
      const form = document.getElementById("undo-form");
      return form ? post(form) : undefined;
    });
  }

  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (!document.getElementById("change-slot")) return;
    if (form.id === "decide-form") {
      event.preventDefault();
      const action = event.submitter ? event.submitter.value : "skip";
      later(() => post(form, { action }));
    } else if (form.id === "undo-form") {
      event.preventDefault();
      later(() => post(form));
    }
  });

  document.addEventListener("click", (event) => {
    const link = event.target.closest("a[data-nav]");
    if (!link || !document.getElementById("change-slot")) return;
    event.preventDefault();
    later(() => swap(link.href));
  });

  // ---- the queue: move between rows, check/uncheck, bulk toggles ----------------------------
  function rows() { return Array.from(document.querySelectorAll("tr[data-row]")); }
  function moveRow(step) {
    const all = rows();
    if (!all.length) return;
    let index = all.findIndex((r) => r.classList.contains("current"));
    if (index >= 0) all[index].classList.remove("current");
    index = Math.min(all.length - 1, Math.max(0, index + step));
    all[index].classList.add("current");
    const link = all[index].querySelector("a.open");
    if (link) link.focus();
  }

  // bulk: only rows of one kind (the first one selected fixes it), in any group; the buttons
  // of the one bulk form count them
  const WORDS = { removed: "removal", changed: "change", added: "addition" };
  function syncBulk() {
    const boxes = Array.from(document.querySelectorAll('input[name="ids"][form="bulk-form"]'));
    const chosen = boxes.filter((b) => b.checked);
    const kind = chosen.length ? chosen[0].dataset.kind : null;
    boxes.forEach((b) => { b.disabled = !!kind && b.dataset.kind !== kind && !b.checked; });
    const n = chosen.length;
    const what = `${WORDS[kind] || "row"}${n === 1 ? "" : "s"}`;
    document.querySelectorAll("button[data-bulk]").forEach((button) => {
      const verb = button.dataset.bulk === "reject" ? "Reject" : "Accept";
      button.disabled = n === 0;
      button.textContent = n ? `${verb} ${n} selected ${what}` : `${verb} selected`;
    });
  }
  function bulk(action) {
    const button = document.querySelector(`button[data-bulk="${action}"]`);
    if (button && !button.disabled) button.click();
  }
  document.addEventListener("DOMContentLoaded", syncBulk);

  document.addEventListener("change", (event) => {
    const toggle = event.target.closest("input[data-toggle-all]");
    if (toggle) {
      toggle.closest("section").querySelectorAll('input[name="ids"][data-kind="added"]').forEach((box) => { box.checked = toggle.checked; });
      const other = document.querySelector('input[name="ids"]:checked:not([data-kind="added"])');
      if (other && toggle.checked) document.querySelectorAll('input[name="ids"]:not([data-kind="added"])').forEach((b) => { b.checked = false; });
    }
    if (event.target.closest('input[name="ids"]') || toggle) syncBulk();
  });

  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (typing(event.target)) {
      if (event.key === "Escape") event.target.blur();
      return;
    }
    if (event.key === "Escape") { help(false); shrinkPictures(); return; }
    if (event.key === "?") { event.preventDefault(); help(); return; }
    const overlay = document.getElementById("help");
    if (overlay && !overlay.hidden) return;  // keys act on the page once the help is closed
    const onChange = !!document.getElementById("change-slot");
    const keys = onChange
      ? { a: () => decide("accept"), r: () => decide("reject"), s: () => decide("skip"),
          j: () => go("next"), k: () => go("prev"), u: undo,
          n: () => { const note = document.getElementById("note"); if (note) note.focus(); } }
      : { j: () => moveRow(1), k: () => moveRow(-1), u: undo,
          x: () => { const row = document.querySelector("tr.current input[name=ids]"); if (row && !row.disabled) { row.checked = !row.checked; syncBulk(); } },
          A: () => bulk("accept"), R: () => bulk("reject"),
          Enter: () => { const link = document.querySelector("tr.current a.open"); if (link) window.location.href = link.href; } };
    const handler = keys[event.key];
    if (handler) { event.preventDefault(); handler(); }
  });
})();
