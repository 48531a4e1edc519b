/* The Slovenian hand form: builds a tarokclub.hand/1 record (game slovenian_tarok) from the
 * controls, keeps a draft on this tablet, asks the server for a preview (htmx) and saves with
 * the form's one-time token, again and again until the network answers. Plain JavaScript, no
 * build step; the draft and save part is static/ledger/entry-common.js (TarokEntry).
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
  var pointsInput = form.querySelector("input[data-points]");
  var LINES = config.bonus_types.concat(["valat"]);

  var state = stateFrom(config.record || {});

  function has(list, item) { return list.indexOf(item) >= 0; }

  // --- state <-> record ---------------------------------------------------------------

  function emptyLine() { return { side: "", announced: false, result: "made", kontra: 0 }; }

  function stateFrom(record) {
    var s = {
      dealer: record.dealer && config.rotation[record.dealer] ? record.dealer : seats[0],
      annulled: !!record.annulled,
      contract: record.contract || null,
      declarer: record.declarer || null,
      partner: null,
      partnerSet: false,
      points: "",
      pointsSide: "declarer",
      won: record.won === true ? "yes" : record.won === false ? "no" : null,
      kontra: record.kontra || 0,
      lines: {},
      mond: record.mond_captured || null,
      klop: {}
    };
    if (has(config.called, s.contract) && s.declarer) {
      s.partner = record.partner || null;
      s.partnerSet = true;
    }
    if (record.card_points !== undefined && record.card_points !== null) s.points = String(record.card_points);
    LINES.forEach(function (code) { s.lines[code] = emptyLine(); });
    (record.bonuses || []).forEach(function (b) {
      s.lines[b.type] = { side: b.side, announced: !!b.announced, result: b.result || "made", kontra: b.kontra || 0 };
    });
    if (record.valat) {
      var v = record.valat;
      s.lines.valat = { side: v.side, announced: !!v.announced, result: v.result || "made", kontra: v.kontra || 0 };
    }
    Object.keys(record.klop || {}).forEach(function (name) {
      var k = record.klop[name];
      s.klop[name] = { points: String(k.card_points), noTrick: k.took_trick === false };
    });
    return s;
  }

  function dealing() { return config.rotation[state.dealer]; }
  function active() { return dealing().active; }
  function needsPartner() { return has(config.called, state.contract) && active().length === 4; }

  function number(raw) {
    var text = String(raw).trim();
    return /^\d+$/.test(text) ? parseInt(text, 10) : text;
  }

  function cardPoints() {
    var text = String(state.points).trim();
    if (text === "") return null;
    var value = number(text);
    if (typeof value === "number" && state.pointsSide === "opponents") return config.total - value;
    return value;
  }

  // A klop asks every player's card points but the last active player's: his are what is
  // left of the total (the card points of a hand always add up to it).
  function klopDerived() {
    var playing = active();
    return playing[playing.length - 1];
  }

  function klopRest() {
    var last = klopDerived();
    var sum = 0;
    var complete = active().every(function (name) {
      if (name === last) return true;
      var k = state.klop[name] || { points: "", noTrick: false };
      var raw = String(k.points).trim();
      if (raw === "" && k.noTrick) return true;
      if (!/^\d+$/.test(raw)) return false;
      sum += parseInt(raw, 10);
      return true;
    });
    return complete ? config.total - sum : null;
  }

  function buildRecord() {
    var rec = { format: "tarokclub.hand/1", game: config.game, seats: seats.slice(), dealer: state.dealer };
    if (state.annulled) {
      rec.annulled = true;
      return rec;
    }
    if (!state.contract) return rec;
    rec.contract = state.contract;
    if (state.contract === "klop") {
      var klop = {};
      var last = klopDerived();
      active().forEach(function (name) {
        if (name === last) return;
        var k = state.klop[name] || { points: "", noTrick: false };
        var raw = String(k.points).trim();
        if (raw === "" && !k.noTrick) return;
        klop[name] = { card_points: raw === "" ? 0 : number(raw), took_trick: !k.noTrick };
      });
      var rest = klopRest();
      var lastK = state.klop[last] || { points: "", noTrick: false };
      if (rest !== null) klop[last] = { card_points: rest, took_trick: !lastK.noTrick };
      rec.klop = klop;
      return rec;
    }
    if (state.declarer) rec.declarer = state.declarer;
    if (needsPartner()) rec.partner = state.partner;
    if (has(config.card_points, state.contract)) {
      var points = cardPoints();
      if (points !== null) rec.card_points = points;
    } else if (state.won) {
      rec.won = state.won === "yes";
    }
    rec.kontra = state.kontra;
    if (has(config.bonus_contracts, state.contract)) {
      var bonuses = [];
      config.bonus_types.forEach(function (code) {
        var line = state.lines[code];
        if (!line.side) return;
        var item = { type: code, side: line.side, announced: line.announced, result: line.result };
        if (line.announced) item.kontra = line.kontra;
        bonuses.push(item);
      });
      if (bonuses.length) rec.bonuses = bonuses;
      var v = state.lines.valat;
      rec.valat = v.side ? { side: v.side, announced: v.announced, result: v.result, kontra: v.announced ? v.kontra : 0 } : null;
    }
    if (has(config.mond_contracts, state.contract)) rec.mond_captured = state.mond;
    return rec;
  }

  // --- drawing the controls from the state ---------------------------------------------

  function cssEscape(text) {
    return window.CSS && CSS.escape ? CSS.escape(text) : text.replace(/["\\]/g, "\\$&");
  }

  function part(name) { return form.querySelector('[data-part="' + name + '"]'); }

  function check(name, value) {
    form.querySelectorAll('input[name="' + cssEscape(name) + '"]').forEach(function (input) {
      input.checked = input.value === value;
    });
  }

  function render() {
    var playing = active();
    var contract = state.contract;
    var klop = contract === "klop";
    var annulled = state.annulled;
    form.querySelectorAll("[data-show=dealer]").forEach(function (el) { el.textContent = state.dealer; });
    form.querySelectorAll("[data-show=forehand]").forEach(function (el) { el.textContent = dealing().forehand; });
    form.querySelectorAll("[data-show=sitting-out]").forEach(function (el) { el.textContent = dealing().sitting_out.join(", "); });
    form.querySelectorAll("[data-show-if=sitting-out]").forEach(function (el) { el.hidden = !dealing().sitting_out.length; });
    form.querySelectorAll("[data-show-if=annulled]").forEach(function (el) { el.hidden = !annulled; });
    form.querySelectorAll("[data-hide-if-annulled]").forEach(function (el) { el.hidden = annulled; });
    check("dealer", state.dealer);
    var annulledInput = form.querySelector("input[name=annulled]");
    if (annulledInput) annulledInput.checked = annulled;

    check("contract", contract || "");
    part("declarer").hidden = !contract || klop;
    part("partner").hidden = !contract || !needsPartner() || !state.declarer;
    part("won").hidden = !contract || !has(config.won, contract);
    part("kontra").hidden = !contract || klop;
    part("points").hidden = !contract || !has(config.card_points, contract);
    part("klop").hidden = !klop;
    part("no-points").hidden = !contract || klop || has(config.card_points, contract);
    part("bonuses").hidden = !has(config.bonus_contracts, contract);
    part("mond").hidden = !has(config.mond_contracts, contract);
    part("no-extras").hidden = !contract || has(config.bonus_contracts, contract) || has(config.mond_contracts, contract);

    form.querySelectorAll("[data-seat]").forEach(function (el) {
      var name = el.dataset.seat;
      var hide = !has(playing, name);
      if (el.dataset.partner !== undefined && name === state.declarer) hide = true;
      el.hidden = hide;
    });
    seats.forEach(function (name) {
      var role = form.querySelector('[data-role-of="' + cssEscape(name) + '"]');
      if (role) role.textContent = name === dealing().forehand ? " · " + L.forehand : "";
    });
    check("declarer", state.declarer || "");
    check("partner", state.partnerSet ? (state.partner || "-") : "");
    check("won", state.won || "");
    form.querySelectorAll("[data-show=kontra]").forEach(function (el) { el.textContent = L.kontra[state.kontra]; });

    if (pointsInput && document.activeElement !== pointsInput && pointsInput.value !== state.points) {
      pointsInput.value = state.points;
    }
    check("points_side", state.pointsSide);
    var note = form.querySelector("[data-show=points-note]");
    if (note) {
      var cp = cardPoints();
      note.textContent = typeof cp === "number" && state.pointsSide === "opponents"
        ? config.total + " − " + state.points + " = " + cp : "";
    }

    var derived = klopDerived();
    var rest = klopRest();
    seats.forEach(function (name) {
      var k = state.klop[name] || { points: "", noTrick: false };
      var input = form.querySelector('input[data-klop="' + cssEscape(name) + '"]');
      var out = form.querySelector('[data-klop-derived="' + cssEscape(name) + '"]');
      if (input) input.hidden = name === derived;
      if (out) {
        out.hidden = name !== derived;
        out.textContent = name === derived && rest !== null ? String(rest) : "";
        out.classList.toggle("wrong", rest !== null && rest < 0);
      }
      if (input && document.activeElement !== input && input.value !== k.points) input.value = k.points;
      var box = form.querySelector('input[name="no-trick-' + cssEscape(name) + '"]');
      if (box) box.checked = k.noTrick;
    });

    LINES.forEach(function (code) {
      var line = state.lines[code];
      var row = form.querySelector('[data-bonus="' + code + '"]');
      if (!row) return;
      check("bonus-" + code, line.side);
      row.querySelector("[data-bonus-more]").hidden = !line.side;
      var announced = row.querySelector('input[name="announced-' + code + '"]');
      announced.checked = line.announced;
      check("result-" + code, line.result);
      row.querySelector("[data-bonus-kontra-box]").hidden = !line.announced;
      row.querySelector("[data-show-kontra]").textContent = L.kontra[line.kontra];
      row.classList.toggle("on", !!line.side);
    });
    check("mond", state.mond || "-");
  }

  // --- changes -----------------------------------------------------------------------------

  // The draft, the save and the status banner: static/ledger/entry-common.js.
  var entry;
  function changed(options) { entry.changed(options); }

  function readyForPoints() {
    if (state.contract === "klop") {
      // A klop: the first player's card points are next.
      var first = form.querySelector('input[data-klop="' + cssEscape(active()[0]) + '"]');
      if (first && String((state.klop[active()[0]] || {}).points || "").trim() === "") first.focus();
      return;
    }
    // Once the game's people are known, the one number is next: no tap needed to reach it.
    if (!pointsInput || !has(config.card_points, state.contract) || !state.declarer) return;
    if (needsPartner() && !state.partnerSet) return;
    if (String(state.points).trim() === "") pointsInput.focus();
  }

  form.addEventListener("change", function (event) {
    var t = event.target;
    var n = t.name || "";
    if (n === "dealer") {
      state.dealer = t.value;
      if (!has(active(), state.declarer)) state.declarer = null;
    } else if (n === "annulled") {
      state.annulled = t.checked;
    } else if (n === "contract") {
      state.contract = t.value;
      if (!has(config.called, state.contract)) { state.partner = null; state.partnerSet = false; }
    } else if (n === "declarer") {
      state.declarer = t.value;
      if (state.partner === state.declarer) { state.partner = null; state.partnerSet = false; }
    } else if (n === "partner") {
      state.partner = t.value === "-" ? null : t.value;
      state.partnerSet = true;
    } else if (n === "won") {
      state.won = t.value;
    } else if (n === "points_side") {
      state.pointsSide = t.value;
    } else if (t.dataset && t.dataset.points !== undefined) {
      state.points = t.value;
    } else if (t.dataset && t.dataset.klop) {
      klopOf(t.dataset.klop).points = t.value;
    } else if (n.indexOf("no-trick-") === 0) {
      var k = klopOf(n.slice(9));
      k.noTrick = t.checked;
      if (t.checked && String(k.points).trim() === "") k.points = "0";
    } else if (n.indexOf("bonus-") === 0) {
      state.lines[n.slice(6)].side = t.value;
    } else if (n.indexOf("announced-") === 0) {
      state.lines[n.slice(10)].announced = t.checked;
    } else if (n.indexOf("result-") === 0) {
      state.lines[n.slice(7)].result = t.value;
    } else if (n === "mond") {
      state.mond = t.value === "-" ? null : t.value;
    } else {
      return;
    }
    changed();
    if (n === "contract" || n === "declarer" || n === "partner") readyForPoints();
  });

  function klopOf(name) {
    if (!state.klop[name]) state.klop[name] = { points: "", noTrick: false };
    return state.klop[name];
  }

  form.addEventListener("input", function (event) {
    var t = event.target;
    if (t.dataset && t.dataset.points !== undefined) {
      state.points = t.value;
      changed();
    } else if (t.dataset && t.dataset.klop) {
      klopOf(t.dataset.klop).points = t.value;
      changed();
    }
  });

  form.addEventListener("click", function (event) {
    var button = event.target.closest("button");
    if (!button) return;
    var d = button.dataset;
    if (d.kontraStep) {
      state.kontra = Math.max(0, Math.min(4, state.kontra + parseInt(d.kontraStep, 10)));
      changed();
    } else if (d.bonusKontra) {
      var bits = d.bonusKontra.split(":");
      var line = state.lines[bits[0]];
      line.kontra = Math.max(0, Math.min(4, line.kontra + parseInt(bits[1], 10)));
      changed();
    }
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
