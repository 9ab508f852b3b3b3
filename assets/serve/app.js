// muster serve: progressive enhancement of the builder (served as
// /static/app.js). Without it the page works by plain form posts. With it,
// each click posts the same form in the background and swaps the builder;
// typing in the roster re-checks after a short pause and swaps everything
// but the text box. The server sends HTML it escaped; this script only
// moves it into the page.
(function () {
  "use strict";
  var pending = null;
  var timer = null;
  var seq = 0;

  function builder() { return document.getElementById("builder"); }

  function post(form, submitter, keepText) {
    var data = new FormData(form);
    if (submitter && submitter.name) { data.append(submitter.name, submitter.value); }
    if (!submitter) { data.append("op", "check"); }
    var mine = ++seq;
    if (pending) { pending.abort(); }
    pending = new AbortController();
    document.body.classList.add("busy");
    fetch("/", {
      method: "POST",
      body: new URLSearchParams(data),
      headers: { "X-Muster-Fragment": "1" },
      signal: pending.signal
    }).then(function (r) {
      if (!r.ok) { throw new Error("HTTP " + r.status); }
      return r.text();
    }).then(function (html) {
      if (mine !== seq) { return; }
      swap(html, keepText);
      document.body.classList.remove("busy");
    }).catch(function (e) {
      if (e.name !== "AbortError") { document.body.classList.remove("busy"); }
    });
  }

  function swap(html, keepText) {
    var t = document.createElement("template");
    t.innerHTML = html;
    var fresh = t.content.getElementById("builder");
    var old = builder();
    if (!fresh || !old) { return; }
    if (keepText) {
      fresh.querySelectorAll("[data-swap]").forEach(function (el) {
        var there = document.getElementById(el.id);
        if (there) { there.replaceWith(el); }
      });
      old.dataset.share = fresh.dataset.share;
    } else {
      old.replaceWith(fresh);
      wire(fresh);
    }
    var share = builder().dataset.share;
    if (share && share.length < 6000) { history.replaceState(null, "", "/?" + share); }
  }

  function wire(form) {
    form.addEventListener("submit", function (ev) {
      var s = ev.submitter;
      // Downloads and the submission page are real navigations.
      if (s && s.hasAttribute("formaction")) { return; }
      ev.preventDefault();
      post(form, s, false);
    });
    form.addEventListener("input", function (ev) {
      if (ev.target.id !== "roster") { return; }
      clearTimeout(timer);
      timer = setTimeout(function () { post(form, null, true); }, 120);
    });
    form.addEventListener("change", function (ev) {
      var el = ev.target;
      if (el.name === "points" || el.name === "player") {
        var b = form.querySelector("button[value=header]");
        if (b) { b.click(); }
      }
    });
  }

  var form = builder();
  if (form) { wire(form); }
})();
