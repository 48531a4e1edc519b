/* The hand form: builds the hand record from the controls, keeps a draft on this tablet,
 * asks the server for a preview (htmx) and saves with the form's one-time token, again
 * and again until the network answers. Plain JavaScript, no build step. The draft, the save,
 * the status banner and the service worker are static/ledger/entry-common.js (TarokEntry).
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
  var chooser = document.getElementById("chooser");

  var state = stateFrom(config.record || {});

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
    if (state.tout && config.tout_variant !== "moller") return L.no_count_tout;
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

  // The draft, the save and the status banner: static/ledger/entry-common.js.
  var entry;
  function changed(options) { entry.changed(options); }

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
    }
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

  // --- the draft, the save, the start: static/ledger/entry-common.js --------------------

  entry = window.TarokEntry.start({
    form: form,
    config: config,
    buildRecord: buildRecord,
    render: render,
    restore: function (record) { state = stateFrom(record); },
    skipUnchanged: true,
    queued: true,
    measureBars: true,
    serviceWorker: true
  });
})();
