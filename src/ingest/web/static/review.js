// ingest review: keyboard shortcuts and fragment swaps. Loaded from /static (CSP: no inline script).
"use strict";

(function () {
  const csrf = () => document.querySelector('meta[name="csrf-token"]').content;
  const typing = (el) => el && (el.tagName === "INPUT" || el.tagName === "TEXTAREA" || el.tagName === "SELECT" || el.isContentEditable);
  let busy = false;

  // the marked quote in the middle of its scrolling context box
  function centreQuote() {
    const mark = document.querySelector("pre.context mark");
    if (!mark) return;
    const box = mark.closest("pre");
    box.scrollTop = Math.max(0, mark.offsetTop - box.clientHeight / 2 + mark.offsetHeight / 2);
  }
  document.addEventListener("DOMContentLoaded", centreQuote);

  // ---- one change: swap the #change fragment without reloading the page -------------------
  async function swap(url, options) {
    const slot = document.getElementById("change-slot");
    if (!slot || busy) return;
    busy = true;
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
      busy = false;
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
    const form = document.getElementById("decide-form");
    if (!form) return;
    const button = form.querySelector(`button[value="${action}"]`);
    if (!button || button.disabled) return;
    post(form, { action });
  }

  function go(which) {
    const article = document.getElementById("change");
    const url = article && article.dataset[which];
    if (url) swap(url);
  }

  function undo() {
    const form = document.getElementById("undo-form");
    if (!form) return;
    if (document.getElementById("change-slot")) post(form);
    else form.submit();
  }

  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (!document.getElementById("change-slot")) return;
    if (form.id === "decide-form") {
      event.preventDefault();
      const action = event.submitter ? event.submitter.value : "skip";
      post(form, { action });
    } else if (form.id === "undo-form") {
      event.preventDefault();
      post(form);
    }
  });

  document.addEventListener("click", (event) => {
    const link = event.target.closest("a[data-nav]");
    if (!link || !document.getElementById("change-slot")) return;
    event.preventDefault();
    swap(link.href);
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

  document.addEventListener("change", (event) => {
    const toggle = event.target.closest("input[data-toggle-all]");
    if (!toggle) return;
    toggle.closest("form").querySelectorAll('input[name="ids"]').forEach((box) => { box.checked = toggle.checked; });
  });

  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (typing(event.target)) {
      if (event.key === "Escape") event.target.blur();
      return;
    }
    const onChange = !!document.getElementById("change-slot");
    const keys = onChange
      ? { a: () => decide("accept"), r: () => decide("reject"), s: () => decide("skip"),
          j: () => go("next"), k: () => go("prev"), u: undo,
          n: () => { const note = document.getElementById("note"); if (note) note.focus(); } }
      : { j: () => moveRow(1), k: () => moveRow(-1), u: undo,
          x: () => { const row = document.querySelector("tr.current input[name=ids]"); if (row) row.checked = !row.checked; },
          Enter: () => { const link = document.querySelector("tr.current a.open"); if (link) window.location.href = link.href; } };
    const handler = keys[event.key];
    if (handler) { event.preventDefault(); handler(); }
  });
})();
