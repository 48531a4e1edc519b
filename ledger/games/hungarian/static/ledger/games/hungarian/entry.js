/* The Hungarian Tarokk hand form: builds the hand record from the controls, keeps a draft on
 * this tablet, asks the server for a preview (htmx) and saves with the form's one-time token,
 * again and again until the network answers. Plain JavaScript, no build step. The draft and
 * saving parts are shared by every hand form (static/ledger/entry-common.js, TarokEntry).
 *
 * A plain game is four taps and one number: the bid, the declarer, the partner (or alone;
 * the card points field then takes the focus), the points, save. A figure is two taps in the
 * common case: "+ figure", then "announced" or "silent" (the declarer's side and made are
 * preset; the side, the result and a kontra are changed before that last tap). The dealer
 * comes from the rotation. The server parses every record again: nothing here decides an
 * amount.
 */
(function () {
  "use strict";

  var form = document.getElementById("hand-form");
  var configNode = document.getElementById("hand-config");
  if (!form || !configNode) return;

  var config = JSON.parse(configNode.textContent);
  var L = config.labels;
  var seats = config.seats;
  var TOTAL = config.total_points;
  var MAX_KONTRA = config.max_kontra;
  var chooser = document.getElementById("chooser");
  var pointsInput = form.querySelector("input[data-points]");

  var state = stateFrom(config.record || {});

  // --- state <-> record ---------------------------------------------------------------

  function stateFrom(record) {
    var s = {
      dealer: record.dealer || seats[0],
      annulled: !!record.annulled,
      bid: record.bid || null,
      declarer: record.declarer || null,
      // undefined: not chosen yet; null: alone (the declarer called himself)
      partner: record.declarer ? (record.partner === undefined ? null : record.partner) : undefined,
      points: record.card_points === undefined || record.card_points === null ? "" : String(record.card_points),
      pointsSide: "declarer",
      kontra: record.kontra || 0,
      figures: (record.figures || []).map(function (f) { return Object.assign({}, f); }),
      claims: (record.tarokk_claims || []).map(function (c) { return Object.assign({}, c); })
    };
    return s;
  }

  function sittingOut() {
    return config.sitting_out[state.dealer] || [];
  }

  function active() {
    var out = sittingOut();
    return seats.filter(function (n) { return out.indexOf(n) < 0; });
  }

  function declarerPoints() {
    var text = String(state.points).trim();
    if (!/^\d+$/.test(text)) return text === "" ? null : text;
    var value = parseInt(text, 10);
    return state.pointsSide === "opponents" ? TOTAL - value : value;
  }

  function buildRecord() {
    var rec = {
      format: "tarokclub.hand/1",
      game: config.game,
      seats: seats.slice(),
      dealer: state.dealer
    };
    if (state.annulled) {
      rec.annulled = true;
      return rec;
    }
    if (state.bid) rec.bid = state.bid;
    if (state.declarer) rec.declarer = state.declarer;
    if (state.partner !== undefined) rec.partner = state.partner;
    var points = declarerPoints();
    if (points !== null) rec.card_points = points;
    rec.kontra = state.kontra;
    if (state.figures.length) rec.figures = state.figures.slice();
    if (state.claims.length) rec.tarokk_claims = state.claims.slice();
    return rec;
  }

  // --- drawing the controls from the state ---------------------------------------------

  function cssEscape(text) {
    return window.CSS && CSS.escape ? CSS.escape(text) : text.replace(/["\\]/g, "\\$&");
  }

  function pressed(root, selector, on) {
    root.querySelectorAll(selector).forEach(function (el) { el.setAttribute("aria-pressed", String(on(el))); });
  }

  function kontraText(level) {
    return L.kontra[String(level)] || String(level);
  }

  function figureText(f) {
    var parts = [L.figures[f.type] || f.type, f.side === "declarer" ? L.declarer_side : L.opponents,
      f.announced ? L.announced : L.silent, f.result === "made" ? L.made : L.failed];
    if (f.announced && f.kontra) parts.push(kontraText(f.kontra));
    return parts.join(" · ");
  }

  function render() {
    var out = sittingOut();
    var playing = active();
    form.querySelectorAll("[data-show=dealer]").forEach(function (el) { el.textContent = state.dealer; });
    form.querySelectorAll("[data-show=sitting-out]").forEach(function (el) { el.textContent = out.join(", "); });
    form.querySelectorAll("[data-show-if=sitting-out]").forEach(function (el) { el.hidden = !out.length; });
    form.querySelectorAll("[data-show-if=annulled]").forEach(function (el) { el.hidden = !state.annulled; });
    form.querySelectorAll("[data-hide-if-annulled]").forEach(function (el) { el.hidden = state.annulled; });
    form.querySelectorAll("input[name=dealer]").forEach(function (i) { i.checked = i.value === state.dealer; });
    var annulled = form.querySelector("input[name=annulled]");
    if (annulled) annulled.checked = state.annulled;

    form.querySelectorAll("input[name=bid]").forEach(function (i) { i.checked = i.value === state.bid; });
    form.querySelectorAll("input[name=declarer]").forEach(function (i) { i.checked = i.value === state.declarer; });
    form.querySelectorAll("input[name=partner]").forEach(function (i) {
      i.checked = state.partner !== undefined && i.value === (state.partner || "");
    });
    form.querySelectorAll("[data-player]").forEach(function (el) {
      var name = el.dataset.player;
      var hide = playing.indexOf(name) < 0;
      if (el.dataset.partner !== undefined && name === state.declarer) hide = true;
      el.hidden = hide;
    });
    form.querySelectorAll("[data-kontra-show=game]").forEach(function (el) { el.textContent = kontraText(state.kontra); });

    if (pointsInput && pointsInput.value !== state.points && document.activeElement !== pointsInput) {
      pointsInput.value = state.points;
    }
    form.querySelectorAll("input[name=points_side]").forEach(function (i) { i.checked = i.value === state.pointsSide; });
    var other = form.querySelector("[data-points-other]");
    if (other) {
      var text = String(state.points).trim();
      other.textContent = /^\d+$/.test(text) && parseInt(text, 10) <= TOTAL
        ? L.points_other.replace("{points}", TOTAL - parseInt(text, 10)) : "";
    }

    var list = form.querySelector("[data-chips=figures]");
    list.textContent = "";
    state.figures.forEach(function (f, index) { list.appendChild(chip(figureText(f), index)); });

    seats.forEach(function (name) {
      var claim = state.claims.filter(function (c) { return c.player === name; })[0];
      pressed(form, '[data-claim="' + cssEscape(name) + '"]', function (el) {
        return !!claim && String(claim.count) === el.dataset.count;
      });
      var when = form.querySelector('[data-claim-when-of="' + cssEscape(name) + '"]');
      if (when) when.hidden = !claim;
      pressed(form, '[data-claim-when="' + cssEscape(name) + '"]', function (el) {
        return !!claim && claim.when === el.dataset.when;
      });
    });
  }

  function chip(text, index) {
    var li = document.createElement("li");
    li.className = "chip chip-figure";
    var label = document.createElement("span");
    label.textContent = text;
    var remove = document.createElement("button");
    remove.type = "button";
    remove.className = "chip-remove";
    remove.setAttribute("aria-label", L.remove + ": " + text);
    remove.textContent = "×";
    remove.addEventListener("click", function () {
      state.figures.splice(index, 1);
      changed();
    });
    li.appendChild(label);
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
      var out = sittingOut();
      if (out.indexOf(state.declarer) >= 0) { state.declarer = null; state.partner = undefined; }
      if (out.indexOf(state.partner) >= 0) state.partner = undefined;
      state.claims = state.claims.filter(function (c) { return out.indexOf(c.player) < 0; });
    } else if (t.name === "annulled") {
      state.annulled = t.checked;
    } else if (t.name === "bid") {
      state.bid = t.value;
    } else if (t.name === "declarer") {
      state.declarer = t.value;
      if (state.partner === t.value) state.partner = undefined;
    } else if (t.name === "partner") {
      state.partner = t.value || null;
      changed();
      // The number comes next: the field takes the focus, so it costs no tap.
      if (pointsInput && String(state.points).trim() === "") pointsInput.focus();
      return;
    } else if (t.name === "points_side") {
      state.pointsSide = t.value;
    } else if (t === pointsInput) {
      state.points = t.value;
    } else {
      return;
    }
    changed();
  });

  form.addEventListener("input", function (event) {
    var t = event.target;
    if (t === pointsInput) {
      state.points = t.value;
      changed();
    }
  });

  form.addEventListener("click", function (event) {
    var el = event.target.closest("button");
    if (!el || !form.contains(el)) return;
    var d = el.dataset;
    if (d.kontraStep) {
      state.kontra = Math.max(0, Math.min(MAX_KONTRA, state.kontra + parseInt(d.kontraStep, 10)));
      changed();
    } else if (d.claim) {
      var count = parseInt(d.count, 10);
      var existing = state.claims.filter(function (c) { return c.player === d.claim; })[0];
      if (existing && existing.count === count) {
        state.claims = state.claims.filter(function (c) { return c !== existing; });
      } else if (existing) {
        existing.count = count;
      } else {
        state.claims.push({ player: d.claim, count: count, when: "announced" });
      }
      changed();
    } else if (d.claimWhen) {
      state.claims.forEach(function (c) { if (c.player === d.claimWhen) c.when = d.when; });
      changed();
    } else if (d.figure) {
      openChooser(d.figure);
    }
  });

  // --- the chooser of a figure ------------------------------------------------------------

  var pick = { type: null, side: "declarer", announced: true, result: "made", kontra: 0 };

  function canBeSilent(type) {
    // A silent dupla is never a line: it follows from the card points.
    return type !== "dupla" && config.silent_figures.indexOf(type) >= 0;
  }

  function drawChooser() {
    chooser.querySelector("[data-chooser-figure]").textContent = L.figures[pick.type] || pick.type;
    pressed(chooser, "[data-pick-side]", function (el) { return el.dataset.pickSide === pick.side; });
    pressed(chooser, "[data-pick-result]", function (el) { return el.dataset.pickResult === pick.result; });
    var silent = chooser.querySelector('[data-pick-announced="0"]');
    silent.hidden = !canBeSilent(pick.type);
    silent.disabled = pick.kontra > 0;  // only an announced figure is doubled
    chooser.querySelector("[data-pick-kontra-show]").textContent = kontraText(pick.kontra);
  }

  function openChooser(type) {
    var existing = state.figures.filter(function (f) { return f.type === type; })[0];
    pick = { type: type, side: "declarer", announced: true, result: "made", kontra: 0 };
    if (existing) pick.side = existing.side === "declarer" ? "opponents" : "declarer";
    drawChooser();
    if (chooser.showModal) chooser.showModal(); else chooser.setAttribute("open", "");
  }

  function closeChooser() {
    if (chooser.close) chooser.close(); else chooser.removeAttribute("open");
  }

  chooser.addEventListener("click", function (event) {
    var el = event.target.closest("button");
    if (!el) {
      if (event.target === chooser) closeChooser();
      return;
    }
    var d = el.dataset;
    if (d.chooserClose !== undefined) return closeChooser();
    if (d.figureAdd !== undefined) {
      // The last tap says announced or silent, and adds the figure.
      pick.announced = d.pickAnnounced !== "0";
      if (!pick.announced) pick.kontra = 0;
      var line = { type: pick.type, side: pick.side, announced: pick.announced, result: pick.result };
      if (pick.announced) line.kontra = pick.kontra;
      // One line per figure and side: a new one replaces the old.
      state.figures = state.figures.filter(function (f) { return !(f.type === line.type && f.side === line.side); });
      state.figures.push(line);
      closeChooser();
      return changed();
    }
    if (d.pickSide) {
      pick.side = d.pickSide;
    } else if (d.pickResult) {
      pick.result = d.pickResult;
    } else if (d.pickKontra) {
      pick.kontra = Math.max(0, Math.min(MAX_KONTRA, pick.kontra + parseInt(d.pickKontra, 10)));
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
    queued: true,
    measureBars: true,
    serviceWorker: true
  });
})();
