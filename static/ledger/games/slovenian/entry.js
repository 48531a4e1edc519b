/* The Slovenian hand form: builds a tarokclub.hand/1 record (game slovenian_tarok) from the
 * controls, keeps a draft on this tablet, asks the server for a preview (htmx) and saves with
 * the form's one-time token, again and again until the network answers. Plain JavaScript, no
 * build step; the draft and save part is the Danish form's.
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
  var pointsInput = form.querySelector("input[data-points]");
  var PREFIX = "tarokclub:hand-draft:" + config.table + ":";
  var RETRY_MS = 5000;
  var LINES = config.bonus_types.concat(["valat"]);

  var state = stateFrom(config.record || {});
  var touched = false;
  var submitting = false;
  var pending = false;
  var draftKey = keyFor(config.mode === "new" ? tokenInput.value : "");

  function keyFor(token) {
    if (config.mode === "new") return PREFIX + token;
    return PREFIX + "hand-" + config.hand + "-r" + (baseInput ? baseInput.value : "");
  }

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
      active().forEach(function (name) {
        var k = state.klop[name] || { points: "", noTrick: false };
        var raw = String(k.points).trim();
        if (raw === "" && !k.noTrick) return;
        klop[name] = { card_points: raw === "" ? 0 : number(raw), took_trick: !k.noTrick };
      });
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

    seats.forEach(function (name) {
      var k = state.klop[name] || { points: "", noTrick: false };
      var input = form.querySelector('input[data-klop="' + cssEscape(name) + '"]');
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

  // A refused save stays on screen until the scorekeeper changes the hand: a preview
  // answer that arrives later must not wipe it.
  var holdRefusal = false;
  form.addEventListener("htmx:beforeSwap", function (event) {
    if (holdRefusal && event.detail.target === feedback) event.detail.shouldSwap = false;
  });

  function changed(options) {
    options = options || {};
    render();
    recordInput.value = JSON.stringify(buildRecord());
    if (!options.quiet) {
      holdRefusal = false;
      touched = true;
      saveDraft();
      if (!pending) setStatus(navigator.onLine ? "editing" : "offline");
      form.dispatchEvent(new Event("recordchange"));
    }
  }

  function readyForPoints() {
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
    } else if (t === reasonInput) {
      saveDraft();
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
      setStatus("offline");
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
      setStatus(navigator.onLine ? "pending" : "offline");
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
    if (!submitting) setStatus("offline");
  });
  window.setInterval(function () {
    if (pending && !submitting && navigator.onLine) send();
  }, RETRY_MS);

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
        send();
      } else {
        form.dispatchEvent(new Event("recordchange"));
      }
    } else {
      changed({ quiet: true });
      if (!navigator.onLine) setStatus("offline");
    }
  }

  // htmx binds its triggers when the document is ready; start after it.
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () { window.setTimeout(start, 0); });
  } else {
    window.setTimeout(start, 0);
  }
})();
