// muster serve: progressive enhancement of the builder (served as
// /static/app.js). Without it the page works by plain form posts. With it,
// each click posts the same form in the background and swaps the builder;
// typing in the roster re-checks after a short pause and swaps everything
// but the text box. The server sends HTML it escaped; this script only
// moves it into the page. "My lists" keeps rosters in this browser's
// localStorage: nothing is sent anywhere unless the player submits.
(function () {
  "use strict";
  var pending = null;
  var timer = null;
  var seq = 0;
  var STORE = "muster.lists";
  var CURRENT = "muster.current";

  function builder() { return document.getElementById("builder"); }
  function byId(id) { return document.getElementById(id); }

  // ---- the builder --------------------------------------------------

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
      swap(html, keepText, submitter);
      document.body.classList.remove("busy");
    }).catch(function (e) {
      if (e.name !== "AbortError") { document.body.classList.remove("busy"); }
    });
  }

  // A selector that finds the same control in the new builder, so that a
  // keyboard user keeps their place after a click.
  function focusKey(el) {
    if (!el || !el.closest || !el.closest("#builder")) { return null; }
    if (el.id) { return "#" + CSS.escape(el.id); }
    if (el.name) {
      var key = el.tagName.toLowerCase() + "[name='" + CSS.escape(el.name) + "']";
      if (el.value && el.tagName === "BUTTON") { key += "[value='" + CSS.escape(el.value) + "']"; }
      return key;
    }
    return null;
  }

  function swap(html, keepText, submitter) {
    var t = document.createElement("template");
    t.innerHTML = html;
    var fresh = t.content.getElementById("builder");
    var old = builder();
    if (!fresh || !old) { return; }
    var key = focusKey(document.activeElement) || focusKey(submitter);
    if (keepText) {
      fresh.querySelectorAll("[data-swap]").forEach(function (el) {
        var there = document.getElementById(el.id);
        if (there) { there.replaceWith(el); }
      });
      Object.keys(fresh.dataset).forEach(function (k) { old.dataset[k] = fresh.dataset[k]; });
    } else {
      old.replaceWith(fresh);
      wire(fresh);
      var again = key && fresh.querySelector(key);
      if (again) { again.focus(); } else { fresh.querySelector("#verdict").setAttribute("tabindex", "-1"); fresh.querySelector("#verdict").focus(); }
    }
    enhance(builder());
    var share = builder().dataset.share;
    if (share && share.length < 6000) { history.replaceState(null, "", "/?" + share); }
    autosave();
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
    form.addEventListener("click", function (ev) {
      var el = ev.target;
      if (el.id === "copy-share") { copyShare(); }
      if (el.id === "save-button") { saveCurrent(); }
    });
  }

  // What only works with the script: copying the link, saving.
  function enhance(form) {
    if (!form) { return; }
    var copy = form.querySelector("#copy-share");
    if (copy && navigator.clipboard) { copy.hidden = false; }
    var save = form.querySelector("#save");
    if (save && storage()) {
      save.hidden = false;
      var name = form.querySelector("#save-name");
      var current = currentEntry();
      if (name && !name.value) {
        name.value = current ? current.name : defaultName(form);
      }
    }
  }

  function copyShare() {
    var a = byId("share");
    if (!a || !navigator.clipboard) { return; }
    navigator.clipboard.writeText(a.href).then(function () {
      note("Link copied.");
    }, function () { note("Copy the link from the address bar."); });
  }

  function note(text) {
    var n = byId("save-note");
    if (n) { n.textContent = text; }
  }

  // ---- My lists -----------------------------------------------------

  function storage() {
    try { return window.localStorage; } catch (e) { return null; }
  }

  function load() {
    var s = storage();
    if (!s) { return []; }
    try {
      var all = JSON.parse(s.getItem(STORE) || "[]");
      return Array.isArray(all) ? all.filter(function (x) { return x && typeof x.roster === "string"; }) : [];
    } catch (e) { return []; }
  }

  function store(all) {
    var s = storage();
    if (!s) { return false; }
    try { s.setItem(STORE, JSON.stringify(all)); return true; } catch (e) { return false; }
  }

  function newId() {
    return Date.now().toString(36) + Math.random().toString(36).slice(2, 8);
  }

  // The saved list this page edits: set by saving, or handed over (once)
  // by "Open" in My lists; a page reached any other way edits no saved list.
  var current = null;

  function currentId() { return current; }

  function setCurrent(id) { current = id || null; }

  function handOver(id) {
    try { window.sessionStorage.setItem(CURRENT, id); } catch (e) { /* no session storage */ }
  }

  function takeOver() {
    try {
      var id = window.sessionStorage.getItem(CURRENT);
      window.sessionStorage.removeItem(CURRENT);
      return id;
    } catch (e) { return null; }
  }

  function currentEntry() {
    var id = currentId();
    return load().filter(function (x) { return x.id === id; })[0] || null;
  }

  function defaultName(form) {
    var d = form.dataset;
    var name = d.army || "Roster";
    if (d.player) { name = d.player + ": " + name; }
    return d.points ? name + " " + d.points : name;
  }

  function snapshot(form, name) {
    return {
      name: name,
      army: form.dataset.army || "",
      list: form.dataset.list || "",
      points: form.dataset.points || "",
      edited: new Date().toISOString(),
      roster: byId("roster").value
    };
  }

  function saveCurrent() {
    var form = builder();
    if (!form) { return; }
    var name = (byId("save-name").value || "").trim() || defaultName(form);
    var all = load();
    var id = currentId();
    var entry = snapshot(form, name);
    var at = -1;
    all.forEach(function (x, i) { if (x.id === id) { at = i; } });
    if (at >= 0) {
      entry.id = id;
      all[at] = entry;
    } else {
      entry.id = newId();
      all.unshift(entry);
      setCurrent(entry.id);
    }
    note(store(all) ? "Saved in this browser as “" + name + "”." : "This browser would not save it (storage full or off).");
    render();
  }

  // A list opened from My lists (or saved) follows the edits made to it.
  function autosave() {
    var form = builder();
    var id = currentId();
    if (!form || !id) { return; }
    var all = load();
    var changed = false;
    all.forEach(function (x, i) {
      if (x.id === id && x.roster !== byId("roster").value) {
        var entry = snapshot(form, x.name);
        entry.id = id;
        all[i] = entry;
        changed = true;
      }
    });
    if (changed) { store(all); render(); }
  }

  function openEntry(entry) {
    handOver(entry.id);
    var f = document.createElement("form");
    f.method = "post";
    f.action = "/";
    var text = document.createElement("textarea");
    text.name = "roster";
    text.value = entry.roster;
    var op = document.createElement("input");
    op.type = "hidden";
    op.name = "op";
    op.value = "check";
    f.hidden = true;
    f.appendChild(text);
    f.appendChild(op);
    document.body.appendChild(f);
    f.submit();
  }

  function exportEntry(entry) {
    var blob = new Blob([entry.roster], { type: "text/plain;charset=utf-8" });
    var a = document.createElement("a");
    a.href = URL.createObjectURL(blob);
    a.download = (entry.name || "roster").replace(/[^A-Za-z0-9-]+/g, "-").replace(/^-+|-+$/g, "").toLowerCase() + ".txt";
    document.body.appendChild(a);
    a.click();
    setTimeout(function () { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
  }

  function button(label, name, action, id) {
    var b = document.createElement("button");
    b.type = "button";
    b.textContent = label;
    b.dataset.action = action;
    b.dataset.id = id;
    b.setAttribute("aria-label", label + " " + name);
    return b;
  }

  function when(iso) {
    var d = new Date(iso);
    if (isNaN(d.getTime())) { return ""; }
    return d.toLocaleString(undefined, { year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" });
  }

  function render() {
    var section = byId("mylists");
    if (!section || !storage()) { return; }
    section.hidden = false;
    var link = byId("mylists-link");
    if (link) { link.hidden = false; }
    var all = load();
    var table = byId("mylists-table");
    var body = table.querySelector("tbody");
    body.textContent = "";
    byId("mylists-empty").hidden = all.length > 0;
    table.hidden = all.length === 0;
    var current = currentId();
    all.forEach(function (x) {
      var tr = document.createElement("tr");
      if (x.id === current && builder()) { tr.className = "current"; }
      var name = document.createElement("th");
      name.scope = "row";
      name.textContent = x.name;
      tr.appendChild(name);
      [x.army, x.points, when(x.edited)].forEach(function (v) {
        var td = document.createElement("td");
        td.textContent = v;
        tr.appendChild(td);
      });
      var actions = document.createElement("td");
      actions.className = "actions";
      actions.appendChild(button("Open", x.name, "open", x.id));
      actions.appendChild(button("Duplicate", x.name, "duplicate", x.id));
      actions.appendChild(button("Export", x.name, "export", x.id));
      actions.appendChild(button("Delete", x.name, "delete", x.id));
      tr.appendChild(actions);
      body.appendChild(tr);
    });
  }

  function wireLists() {
    var section = byId("mylists");
    if (!section) { return; }
    section.addEventListener("click", function (ev) {
      var b = ev.target.closest("button[data-action]");
      if (!b) { return; }
      var all = load();
      var at = -1;
      all.forEach(function (x, i) { if (x.id === b.dataset.id) { at = i; } });
      if (at < 0) { return; }
      var entry = all[at];
      switch (b.dataset.action) {
      case "open": openEntry(entry); return;
      case "export": exportEntry(entry); return;
      case "duplicate":
        var copy = JSON.parse(JSON.stringify(entry));
        copy.id = newId();
        copy.name = entry.name + " (copy)";
        copy.edited = new Date().toISOString();
        all.splice(at + 1, 0, copy);
        break;
      case "delete":
        all.splice(at, 1);
        if (currentId() === entry.id) { setCurrent(""); }
        break;
      default: return;
      }
      store(all);
      render();
      var again = section.querySelector("button[data-action='" + b.dataset.action + "']");
      if (again) { again.focus(); }
    });
  }

  // ---- the landing page: the armies of the game picked --------------

  function wirePicker() {
    var game = byId("game");
    var army = byId("army");
    if (!game || !army) { return; }
    game.addEventListener("change", function () {
      army.querySelectorAll("optgroup").forEach(function (g) {
        var shown = !game.value || g.dataset.game === game.value;
        g.hidden = !shown;
        g.disabled = !shown;
      });
      var picked = army.selectedOptions[0];
      if (picked && picked.parentElement.disabled) { army.value = ""; }
    });
  }

  var form = builder();
  if (form) {
    setCurrent(takeOver());
    wire(form);
    enhance(form);
  }
  wirePicker();
  wireLists();
  render();
})();
