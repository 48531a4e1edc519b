/* The hand form: builds the hand record from the controls, keeps a draft on this tablet,
 * asks the server for a preview (htmx) and saves with the form's one-time token, again
 * and again until the network answers. Plain JavaScript, no build step.
 *
 * The server parses every record again: nothing here decides an amount.
 */
(function () {
  "use strict";

  var form = document.getElementById("hand-form");
  var configNode = document.getElementById("hand-config");
  if (!form || !configNode) return;

  var config = JSON.parse(configNode.textContent);
  var L = config.labels;
  var seats = config.seats;
  var recordInput = form.querySelector("input[name=record]");
  var tokenInput = form.querySelector("input[name=token]");
  var numberInput = form.querySelector("input[name=number]");
  var versionInput = form.querySelector("input[name=version]");
  var reasonInput = form.querySelector("textarea[name=reason]");
  var baseInput = form.querySelector("input[name=base_revision]");
  var banner = document.getElementById("save-state");
  var saveButton = document.getElementById("save-hand");
  var feedback = document.getElementById("hand-feedback");
  var chooser = document.getElementById("chooser");
  var PREFIX = "tarokclub:hand-draft:" + config.table + ":";
  var RETRY_MS = 5000;

  var state = stateFrom(config.record || {});
  var touched = false;
  var submitting = false;
  var pending = false;
  var draftKey = keyFor(config.mode === "new" ? tokenInput.value : "");

  function keyFor(token) {
    if (config.mode === "new") return PREFIX + token;
    return PREFIX + "hand-" + config.hand + "-r" + (baseInput ? baseInput.value : "");
  }

  // --- state <-> record ---------------------------------------------------------------

  function stateFrom(record) {
    var dealer = record.dealer || seats[0];
    // A record without sitters (an imported one) follows the default rotation.
    var sitters = record.sitting_out || config.rotation.defaults[dealer] || [];
    var s = {
      dealer: dealer,
      sittingOut: sitters.slice(),
      annulled: !!record.annulled,
      winner: null,
      cards: {},
      cardOrder: null,
      count: {},
      melds: (record.melds || []).slice(),
      during_play: (record.during_play || []).slice(),
      fines: (record.fines || []).slice(),
      nolo: record.nolo && record.nolo.length ? record.nolo[0] : null,
      tout: record.tout || null
    };
    seats.forEach(function (name) { s.cards[name] = "other"; });
    if (record.last_trick) {
      s.winner = record.last_trick.winner || null;
      s.cardOrder = [];
      (record.last_trick.cards || []).forEach(function (c) {
        s.cards[c.player] = c.card;
        s.cardOrder.push(c.player);
      });
    }
    Object.keys(record.count || {}).forEach(function (name) {
      s.count[name] = String(record.count[name]);
    });
    return s;
  }

  function active() {
    return seats.filter(function (n) { return state.sittingOut.indexOf(n) < 0; });
  }

  function nonCounter() {
    var key = state.dealer + "|" + seats.filter(function (n) {
      return state.sittingOut.indexOf(n) >= 0;
    }).join(",");
    return config.rotation.non_counter[key] || null;
  }

  function noCountReason() {
    if (state.annulled) return L.no_count_annulled;
    if (state.tout && config.tout_variant === "pagat") return L.no_count_tout;
    if (state.nolo && !state.tout) return L.no_count_nolo;
    return null;
  }

  function counters() {
    var skip = nonCounter();
    return active().filter(function (n) { return n !== skip; });
  }

  function trickOrder() {
    // The stored order is kept when it still fits; otherwise forehand leads.
    var players = active();
    if (state.cardOrder && state.cardOrder.length === players.length &&
        state.cardOrder.every(function (n) { return players.indexOf(n) >= 0; })) {
      return state.cardOrder.slice();
    }
    var d = seats.indexOf(state.dealer);
    var order = [];
    for (var i = 1; i <= seats.length; i++) {
      var name = seats[(d + i) % seats.length];
      if (players.indexOf(name) >= 0) order.push(name);
    }
    return order;
  }

  function countValue(raw) {
    var text = String(raw).trim();
    return /^\d+$/.test(text) ? parseInt(text, 10) : text;
  }

  function buildRecord() {
    var rec = {
      format: "tarokclub.hand/1",
      seats: seats.slice(),
      dealer: state.dealer,
      sitting_out: seats.filter(function (n) { return state.sittingOut.indexOf(n) >= 0; })
    };
    if (state.melds.length) rec.melds = state.melds.slice();
    if (state.during_play.length) rec.during_play = state.during_play.slice();
    if (state.fines.length) rec.fines = state.fines.slice();
    if (state.annulled) rec.annulled = true;
    if (state.winner && !state.annulled) {
      rec.last_trick = {
        winner: state.winner,
        cards: trickOrder().map(function (n) { return { player: n, card: state.cards[n] || "other" }; })
      };
    }
    rec.nolo = state.nolo ? [state.nolo] : [];
    rec.tout = state.tout;
    if (!noCountReason()) {
      var count = {};
      counters().forEach(function (n) {
        var raw = state.count[n];
        if (raw !== undefined && String(raw).trim() !== "") count[n] = countValue(raw);
      });
      if (Object.keys(count).length) rec.count = count;
    }
    return rec;
  }

  // --- drawing the controls from the state ---------------------------------------------

  function cells(name) {
    return form.querySelectorAll('[data-player="' + cssEscape(name) + '"]');
  }

  function cssEscape(text) {
    return window.CSS && CSS.escape ? CSS.escape(text) : text.replace(/["\\]/g, "\\$&");
  }

  function setChecked(selector, on) {
    var input = form.querySelector(selector);
    if (input) input.checked = on;
  }

  function chipText(kind, item) {
    if (kind === "melds") {
      var text = L.melds[item.type] || item.type;
      if (item.count !== undefined) text += " " + item.count;
      if (item.with_pagat) text += " " + L.with_pagat;
      if (item.suit) text += " " + (L.suits[item.suit] || item.suit);
      if (item.missing) {
        var card = L.cards[item.missing] || L.suits[item.missing] || item.missing;
        text += " (" + L.missing.replace("{card}", card) + ")";
      }
      return text;
    }
    if (kind === "during_play") return L.events[item.type] || item.type;
    if (kind === "fines") return L.fines[item.type] || item.type;
    return L[kind];
  }

  function render() {
    var out = state.sittingOut;
    var playing = active();
    var skip = nonCounter();
    var noCount = noCountReason();

    form.querySelectorAll("[data-show=dealer]").forEach(function (el) { el.textContent = state.dealer; });
    form.querySelectorAll("[data-show=sitting-out]").forEach(function (el) {
      el.textContent = seats.filter(function (n) { return out.indexOf(n) >= 0; }).join(", ");
    });
    form.querySelectorAll("[data-show-if=sitting-out]").forEach(function (el) { el.hidden = !out.length; });
    form.querySelectorAll("[data-show-if=annulled]").forEach(function (el) { el.hidden = !state.annulled; });
    form.querySelectorAll("[data-show=non-counter]").forEach(function (el) { el.textContent = skip || "?"; });

    setChecked('input[name=dealer][value="' + cssEscape(state.dealer) + '"]', true);
    form.querySelectorAll("input[name=sitting_out]").forEach(function (input) {
      input.checked = out.indexOf(input.value) >= 0;
    });
    var annulled = form.querySelector("input[name=annulled]");
    if (annulled) annulled.checked = state.annulled;

    seats.forEach(function (name) {
      var plays = playing.indexOf(name) >= 0;
      cells(name).forEach(function (cell) { cell.hidden = !plays; });
      var role = form.querySelector('[data-role-of="' + cssEscape(name) + '"]');
      if (role) {
        var roles = [];
        if (name === state.dealer) roles.push(L.deals);
        if (name === skip) roles.push(L.does_not_count);
        role.textContent = roles.join(" · ");
      }
      form.querySelectorAll('input[name=winner][value="' + cssEscape(name) + '"]').forEach(function (input) {
        input.checked = state.winner === name;
      });
      form.querySelectorAll('input[name="card-' + cssEscape(name) + '"]').forEach(function (input) {
        input.checked = (state.cards[name] || "other") === input.value;
      });
      var countInput = form.querySelector('input[data-count="' + cssEscape(name) + '"]');
      var note = form.querySelector('[data-no-count="' + cssEscape(name) + '"]');
      var counts = !noCount && name !== skip;
      if (countInput) {
        countInput.hidden = !counts;
        countInput.disabled = !counts;
        if (countInput.value !== (state.count[name] || "") && document.activeElement !== countInput) {
          countInput.value = state.count[name] || "";
        }
      }
      if (note) {
        note.hidden = counts;
        note.textContent = noCount || L.does_not_count;
      }
      drawChips(name);
    });
  }

  function drawChips(name) {
    var list = form.querySelector('[data-chips="' + cssEscape(name) + '"]');
    if (!list) return;
    list.textContent = "";
    ["melds", "during_play", "fines"].forEach(function (kind) {
      state[kind].forEach(function (item, index) {
        if (item.player === name) list.appendChild(chip(kind, item, index));
      });
    });
    form.querySelectorAll('[data-end][data-player="' + cssEscape(name) + '"]').forEach(function (button) {
      button.setAttribute("aria-pressed", String(state[button.dataset.end] === name));
    });
  }

  function chip(kind, item, index) {
    var li = document.createElement("li");
    li.className = "chip chip-" + kind;
    li.dataset.kind = kind;
    var label = document.createElement("span");
    label.textContent = chipText(kind, item);
    var remove = document.createElement("button");
    remove.type = "button";
    remove.className = "chip-remove";
    remove.setAttribute("aria-label", L.remove + ": " + label.textContent);
    remove.textContent = "×";
    remove.addEventListener("click", function () {
      if (kind === "nolo" || kind === "tout") state[kind] = null;
      else state[kind].splice(index, 1);
      changed();
    });
    li.appendChild(label);
    if (kind === "fines") {
      // The table waives a fine after it is chosen: a toggle on its chip.
      var waive = document.createElement("button");
      waive.type = "button";
      waive.className = "chip-waive";
      waive.dataset.waive = item.type;
      waive.setAttribute("aria-pressed", String(!!item.waived));
      waive.textContent = L.waive;
      waive.addEventListener("click", function () {
        state.fines[index] = Object.assign({}, item, { waived: !item.waived });
        changed();
      });
      li.appendChild(waive);
    }
    li.appendChild(remove);
    return li;
  }

  // --- changes -----------------------------------------------------------------------------

  // A refused save stays on screen until the scorekeeper changes the hand: a preview
  // answer that arrives later must not wipe it.
  var holdRefusal = false;
  form.addEventListener("htmx:beforeSwap", function (event) {
    if (holdRefusal && event.detail.target === feedback) event.detail.shouldSwap = false;
  });

  function changed(options) {
    options = options || {};
    render();
    var before = recordInput.value;
    recordInput.value = JSON.stringify(buildRecord());
    // The change event after typing a count repeats what the input event already sent: no
    // second preview (it would close the list of every payment the scorekeeper just opened).
    if (!options.quiet && recordInput.value !== before) {
      holdRefusal = false;
      touched = true;
      saveDraft();
      if (!pending) setStatus(navigator.onLine ? "editing" : "offline");
      else if (!navigator.onLine) setStatus("queued");
      form.dispatchEvent(new Event("recordchange"));
    }
  }

  form.addEventListener("change", function (event) {
    var t = event.target;
    if (t.name === "dealer") {
      state.dealer = t.value;
      var defaults = config.rotation.defaults[t.value];
      if (defaults) {
        state.sittingOut = defaults.slice();
      } else {
        state.sittingOut = state.sittingOut.filter(function (n) { return n !== t.value; });
      }
      if (state.sittingOut.indexOf(state.winner) >= 0) state.winner = null;
    } else if (t.name === "sitting_out") {
      var chosen = [];
      form.querySelectorAll("input[name=sitting_out]:checked").forEach(function (i) { chosen.push(i.value); });
      state.sittingOut = chosen;
      // A member who sits out did not win the last trick.
      if (state.sittingOut.indexOf(state.winner) >= 0) state.winner = null;
    } else if (t.name === "annulled") {
      state.annulled = t.checked;
    } else if (t.name === "winner") {
      state.winner = t.value;
    } else if (t.name && t.name.indexOf("card-") === 0) {
      state.cards[t.name.slice(5)] = t.value;
    } else if (t.dataset && t.dataset.count) {
      state.count[t.dataset.count] = t.value;
    } else {
      return;
    }
    changed();
  });

  form.addEventListener("input", function (event) {
    var t = event.target;
    if (t.dataset && t.dataset.count) {
      state.count[t.dataset.count] = t.value;
      changed();
    } else if (t === reasonInput) {
      saveDraft();
    }
  });

  var toggle = form.querySelector("[data-toggle-seating]");
  if (toggle) {
    toggle.addEventListener("click", function () {
      var panel = document.getElementById("seating-edit");
      panel.hidden = !panel.hidden;
      toggle.setAttribute("aria-expanded", String(!panel.hidden));
    });
  }

  form.querySelectorAll("[data-reason]").forEach(function (button) {
    button.addEventListener("click", function () {
      var text = button.textContent.trim();
      reasonInput.value = reasonInput.value.trim() ? reasonInput.value.trim() + "; " + text : text;
      saveDraft();
    });
  });

  // --- the chooser for melds, play and fines -------------------------------------------------

  var pick = { player: null, kind: null, meldType: "tarok", count: 10, withPagat: false, suit: null, missing: null };
  var MELD_LOW = { tarok: 10, matador: 3 };

  function pressed(selector, on) {
    chooser.querySelectorAll(selector).forEach(function (el) { el.setAttribute("aria-pressed", String(on(el))); });
  }

  function drawChooser() {
    chooser.querySelectorAll("[data-pane]").forEach(function (pane) { pane.hidden = pane.dataset.pane !== pick.kind; });
    chooser.querySelector("[data-chooser-player]").textContent = pick.player;
    pressed("[data-meld-type]", function (el) { return el.dataset.meldType === pick.meldType; });
    chooser.querySelectorAll("[data-meld-for]").forEach(function (el) {
      el.hidden = el.dataset.meldFor.split(" ").indexOf(pick.meldType) < 0;
    });
    chooser.querySelector("[data-meld-count]").textContent = pick.count;
    pressed("[data-with-pagat]", function () { return pick.withPagat; });
    pressed("[data-suit]", function (el) { return el.dataset.suit === pick.suit; });
    pressed("[data-missing]", function (el) { return el.dataset.missing === pick.missing; });
    chooser.querySelector("[data-missing-court]").hidden = pick.suit === "kings";
    chooser.querySelector("[data-missing-king]").hidden = pick.suit !== "kings";
    chooser.querySelector("[data-meld-add]").disabled =
      ["half", "full", "overfull"].indexOf(pick.meldType) >= 0 && !pick.suit ||
      pick.meldType === "half" && !pick.missing;
  }

  function openChooser(kind, player) {
    pick = { player: player, kind: kind, meldType: "tarok", count: 10, withPagat: false, suit: null, missing: null };
    drawChooser();
    if (chooser.showModal) chooser.showModal(); else chooser.setAttribute("open", "");
  }

  function closeChooser() {
    if (chooser.close) chooser.close(); else chooser.removeAttribute("open");
  }

  form.querySelectorAll("[data-add]").forEach(function (button) {
    button.addEventListener("click", function () { openChooser(button.dataset.add, button.dataset.player); });
  });

  // Nolo and tout: a toggle per player, one of the two per player, one player each.
  form.querySelectorAll("[data-end]").forEach(function (button) {
    button.addEventListener("click", function () {
      var end = button.dataset.end;
      var player = button.dataset.player;
      var other = end === "nolo" ? "tout" : "nolo";
      state[end] = state[end] === player ? null : player;
      if (state[end] && state[other] === player) state[other] = null;
      if (end === "tout" && state.tout) state.winner = state.tout;
      changed();
    });
  });

  chooser.addEventListener("click", function (event) {
    var el = event.target.closest("button");
    if (!el) {
      if (event.target === chooser) closeChooser();  // a tap on the backdrop
      return;
    }
    var d = el.dataset;
    if (d.chooserClose !== undefined) return closeChooser();
    if (d.meldType) {
      pick.meldType = d.meldType;
      pick.count = MELD_LOW[d.meldType] || pick.count;
      if (d.meldType !== "half") pick.missing = null;
    } else if (d.step) {
      var low = MELD_LOW[pick.meldType] || 0;
      pick.count = Math.max(low, Math.min(22, pick.count + parseInt(d.step, 10)));
    } else if (d.withPagat !== undefined) {
      pick.withPagat = !pick.withPagat;
    } else if (d.suit) {
      if ((pick.suit === "kings") !== (d.suit === "kings")) pick.missing = null;
      pick.suit = d.suit;
    } else if (d.missing) {
      pick.missing = d.missing;
    } else if (d.meldAdd !== undefined) {
      var meld = { player: pick.player, type: pick.meldType };
      if (MELD_LOW[pick.meldType]) meld.count = pick.count;
      if (pick.meldType === "tarok" && pick.withPagat) meld.with_pagat = true;
      if (!MELD_LOW[pick.meldType]) meld.suit = pick.suit;
      if (pick.meldType === "half") meld.missing = pick.missing;
      state.melds.push(meld);
      closeChooser();
      return changed();
    } else if (d.event) {
      state.during_play.push({ type: d.event, player: pick.player });
      closeChooser();
      return changed();
    } else if (d.fine) {
      state.fines.push({ type: d.fine, player: pick.player, waived: false });
      closeChooser();
      return changed();
    }
    drawChooser();
  });

  // --- the draft on this tablet ----------------------------------------------------------

  function storage() {
    try { return window.localStorage; } catch (e) { return null; }
  }

  function saveDraft() {
    var store = storage();
    if (!store || !touched) return;
    var draft = {
      token: tokenInput.value,
      number: config.number,
      version: versionInput ? versionInput.value : null,
      record: buildRecord(),
      reason: reasonInput ? reasonInput.value : "",
      pending: pending,
      at: Date.now()
    };
    try { store.setItem(draftKey, JSON.stringify(draft)); } catch (e) { /* full: keep going */ }
  }

  function clearDraft() {
    var store = storage();
    if (store) store.removeItem(draftKey);
  }

  function restoreDraft() {
    // A new hand takes the newest draft of this table (with its token); a correction its own.
    var store = storage();
    if (!store) return null;
    var best = null;
    var bestKey = null;
    for (var i = 0; i < store.length; i++) {
      var key = store.key(i);
      if (!key || key.indexOf(PREFIX) !== 0) continue;
      if (config.mode === "new" && key.slice(PREFIX.length).indexOf("hand-") === 0) continue;
      if (config.mode !== "new" && key !== draftKey) continue;
      var draft;
      try { draft = JSON.parse(store.getItem(key)); } catch (e) { draft = null; }
      if (!draft) continue;
      if (!best || draft.at > best.at) { best = draft; bestKey = key; }
    }
    if (!best) return null;
    if (config.mode === "new" && !best.pending && best.number !== config.number) {
      store.removeItem(bestKey);  // an unsent draft of an earlier hand: the table moved on
      return null;
    }
    if (config.mode === "new") {
      for (var j = store.length - 1; j >= 0; j--) {
        var other = store.key(j);
        if (other && other !== bestKey && other.indexOf(PREFIX) === 0 &&
            other.slice(PREFIX.length).indexOf("hand-") !== 0) store.removeItem(other);
      }
      tokenInput.value = best.token;
      // The draft is saved against the slot and table state it was previewed for.
      if (numberInput && best.number) numberInput.value = best.number;
      if (versionInput && best.version !== undefined && best.version !== null) {
        versionInput.value = best.version;
      }
      draftKey = bestKey;
    }
    return best;
  }

  document.querySelectorAll("[data-discard-draft]").forEach(function (link) {
    link.addEventListener("click", function () { if (!pending) clearDraft(); });
  });

  // --- saving -----------------------------------------------------------------------------

  function setStatus(name) {
    if (!banner) return;
    banner.dataset.state = name;
    form.dataset.saveState = name;
  }

  function send() {
    if (submitting) return;
    recordInput.value = JSON.stringify(buildRecord());
    pending = true;
    touched = true;
    saveDraft();
    if (!navigator.onLine) {
      setStatus("queued");
      return;
    }
    submitting = true;
    setStatus("saving");
    if (window.htmx) htmx.trigger(form, "htmx:abort");  // a preview still on its way is moot
    saveButton.setAttribute("aria-busy", "true");
    fetch(form.action, {
      method: "POST",
      body: new FormData(form),
      headers: { "X-Hand-Submit": "1" },
      credentials: "same-origin"
    }).then(function (response) {
      var type = response.headers.get("Content-Type") || "";
      if (response.ok && type.indexOf("application/json") < 0) {
        // Sent to the log-in page: the draft stays pending and is sent after logging in.
        window.location.assign(response.url);
        return null;
      }
      if (response.ok) {
        return response.json().then(function (data) {
          pending = false;
          clearDraft();
          setStatus("saved");
          window.location.assign(data.url || config.table_url);
        });
      }
      if (response.status === 422) {
        return response.text().then(function (html) {
          pending = false;
          submitting = false;
          saveDraft();
          saveButton.removeAttribute("aria-busy");
          form.classList.add("attempted");
          htmx.swap(feedback, html, { swapStyle: "innerHTML" });
          holdRefusal = true;
          setStatus("refused");
          var first = form.querySelector(".field-errors:not(:empty)");
          if (first) first.scrollIntoView({ block: "center", behavior: "smooth" });
        });
      }
      if (response.status >= 500) throw new Error("server " + response.status);
      // Logged out, or no longer allowed: show the server's page, the draft stays here.
      return response.text().then(function () { window.location.assign(form.action); });
    }).catch(function () {
      submitting = false;
      saveButton.removeAttribute("aria-busy");
      setStatus(navigator.onLine ? "pending" : "queued");
    });
  }

  form.addEventListener("submit", function (event) {
    event.preventDefault();
    send();
  });

  window.addEventListener("online", function () {
    if (pending) send(); else if (touched) setStatus("editing");
  });
  window.addEventListener("offline", function () {
    if (!submitting) setStatus(pending ? "queued" : "offline");
  });
  window.setInterval(function () {
    if (pending && !submitting && navigator.onLine) send();
  }, RETRY_MS);

  // --- the bars that stay on screen ---------------------------------------------------------

  // The save bar (taller when it wraps) and the sticky row of names: their heights go into
  // CSS custom properties, so the page scrolls controls into view between them.
  var root = document.documentElement;
  var saveBar = form.querySelector(".save-bar");
  var namesRow = form.querySelector(".player-names");
  function measureBars() {
    if (saveBar) root.style.setProperty("--save-bar-h", saveBar.offsetHeight + "px");
    if (namesRow) root.style.setProperty("--names-h", namesRow.offsetHeight + "px");
  }
  measureBars();
  if (window.ResizeObserver) {
    var observer = new ResizeObserver(measureBars);
    if (saveBar) observer.observe(saveBar);
    if (namesRow) observer.observe(namesRow);
  }
  window.addEventListener("resize", measureBars);

  // --- start ------------------------------------------------------------------------------

  function start() {
    var draft = restoreDraft();
    if (draft) {
      state = stateFrom(draft.record);
      if (reasonInput && draft.reason) reasonInput.value = draft.reason;
      touched = true;
      changed({ quiet: true });
      setStatus(navigator.onLine ? "restored" : "offline");
      if (draft.pending) {
        pending = true;
        send();  // offline: kept on the tablet ("queued") and sent when the network returns
      } else {
        form.dispatchEvent(new Event("recordchange"));
      }
    } else {
      changed({ quiet: true });
      if (!navigator.onLine) setStatus("offline");
    }
  }

  // --- without a network -------------------------------------------------------------------

  // The service worker keeps this screen and its styles and scripts, so a reload or coming
  // back to it without a network still draws the form (the draft is in localStorage).
  if ("serviceWorker" in navigator && window.caches) {
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).then(function () {
      return navigator.serviceWorker.ready;
    }).then(function () {
      if (!navigator.onLine) return null;
      var urls = [window.location.pathname];
      document.querySelectorAll("link[rel=stylesheet][href], script[src]").forEach(function (el) {
        var url = new URL(el.href || el.src, window.location.href);
        if (url.origin === window.location.origin) urls.push(url.pathname + url.search);
      });
      return caches.open("tarokclub-tablet-v1").then(function (cache) { return cache.addAll(urls); });
    }).catch(function () { /* no service worker: the form works while the page stays open */ });
  }

  // htmx binds its triggers when the document is ready; start after it.
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () { window.setTimeout(start, 0); });
  } else {
    window.setTimeout(start, 0);
  }
})();
