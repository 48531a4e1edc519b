/* What every hand form shares (loaded by ledger/hand_form.html before the game's entry.js):
 * the draft on this tablet with the form's one-time token, the save with fetch (again and
 * again until the network answers, and after Retry-After when the server was busy with
 * another save: 409 with {"busy": true}), the status banner, the hold of a refused save, the
 * reason buttons, the seating toggle, and for the forms that ask for it the save-bar
 * measurement and the service worker. Plain JavaScript, no build step.
 *
 * One global: window.TarokEntry.start(options), with
 *   form, config       the hand form and its parsed #hand-config
 *   buildRecord()      the hand record from the game's state
 *   render()           draws the controls from the game's state
 *   restore(record)    replaces the game's state with one built from a draft's record
 *   skipUnchanged      no change event when the record stayed the same (Danish)
 *   queued             a pending save without a network shows "queued", not "offline"
 *   measureBars        the save bar and names row heights go into CSS custom properties
 *   serviceWorker      register /sw.js and cache this screen for use without a network
 * It returns { changed(options), saveDraft() }.
 *
 * The tablet is shared (static/ledger/tablet.js, window.TarokTablet): a draft stores its author
 * and the session it was made in. Another user's draft is never shown, sent or removed here.
 * The author's queued draft of this session is sent by itself when the network is back; one
 * of an earlier session (he logged out, or was logged out, since) is "held": restored into
 * the form and sent only when he confirms it. The server checks the same (ledger/web/tablet.py)
 * and refuses a draft sent under another user. After a log-out nothing is saved or sent.
 *
 * The server parses every record again: nothing here decides an amount.
 */
(function () {
  "use strict";

  var RETRY_MS = 5000;

  function start(opts) {
    var form = opts.form;
    var config = opts.config;
    var buildRecord = opts.buildRecord;
    var OFFLINE_PENDING = opts.queued ? "queued" : "offline";
    var recordInput = form.querySelector("input[name=record]");
    var tokenInput = form.querySelector("input[name=token]");
    var numberInput = form.querySelector("input[name=number]");
    var versionInput = form.querySelector("input[name=version]");
    var reasonInput = form.querySelector("textarea[name=reason]");
    var baseInput = form.querySelector("input[name=base_revision]");
    var banner = document.getElementById("save-state");
    var saveButton = document.getElementById("save-hand");
    var feedback = document.getElementById("hand-feedback");
    var tablet = window.TarokTablet || { user: "", session: "", draftPrefix: "tarokclub:hand-draft:", loggingOut: false };
    var PREFIX = tablet.draftPrefix + config.table + ":";
    var heldBox = form.querySelector("[data-draft-held]");

    var touched = false;
    var submitting = false;
    var pending = false;
    var held = false;         // a queued draft of an earlier session: its author confirms it
    var stopped = false;      // logged out: nothing more is saved or sent from this page
    // Whose draft this is: the page's user, or a restored draft's (always the same: another
    // user's draft is never restored), and the session it was made in.
    var author = tablet.user;
    var madeIn = tablet.session;
    var draftKey = keyFor(config.mode === "new" ? tokenInput.value : "");

    document.addEventListener("tarokclub:logout", function () { stopped = true; });

    function keyFor(token) {
      if (config.mode === "new") return PREFIX + token;
      return PREFIX + "hand-" + config.hand + "-r" + (baseInput ? baseInput.value : "");
    }

    // --- changes ---------------------------------------------------------------------------

    // A refused save stays on screen until the scorekeeper changes the hand: a preview
    // answer that arrives later must not wipe it.
    var holdRefusal = false;
    form.addEventListener("htmx:beforeSwap", function (event) {
      if (holdRefusal && event.detail.target === feedback) event.detail.shouldSwap = false;
    });

    function changed(options) {
      options = options || {};
      opts.render();
      var before = recordInput.value;
      recordInput.value = JSON.stringify(buildRecord());
      // The change event after typing a count repeats what the input event already sent: no
      // second preview (it would close the list of every payment the scorekeeper just opened).
      if (!options.quiet && !(opts.skipUnchanged && recordInput.value === before)) {
        holdRefusal = false;
        touched = true;
        saveDraft();
        if (held) setStatus("held");
        else if (!pending) setStatus(navigator.onLine ? "editing" : "offline");
        else if (opts.queued && !navigator.onLine) setStatus("queued");
        form.dispatchEvent(new Event("recordchange"));
      }
    }

    form.addEventListener("input", function (event) {
      if (reasonInput && event.target === reasonInput) saveDraft();
    });

    var toggle = form.querySelector("[data-toggle-seating]");
    if (toggle) {
      toggle.addEventListener("click", function () {
        var panel = document.getElementById("seating-edit");
        panel.hidden = !panel.hidden;
        toggle.setAttribute("aria-expanded", String(!panel.hidden));
      });
    }

    // Only the quick reasons: the preview's payment groups carry data-reason too (the reason
    // of their transfers) and a tap on one must not paste its text into the reason.
    form.querySelectorAll(".quick-reasons [data-reason]").forEach(function (button) {
      button.addEventListener("click", function () {
        var text = button.textContent.trim();
        reasonInput.value = reasonInput.value.trim() ? reasonInput.value.trim() + "; " + text : text;
        saveDraft();
      });
    });

    // --- the draft on this tablet --------------------------------------------------------

    function storage() {
      try { return window.localStorage; } catch (e) { return null; }
    }

    function mine(draft) { return !!tablet.user && !!draft && draft.author === tablet.user; }

    function saveDraft() {
      var store = storage();
      if (!store || !touched || stopped || tablet.loggingOut || !author) return;
      var draft = {
        author: author,
        session: madeIn,
        held: held,
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
        if (!mine(draft)) continue;  // another user's (or nobody's): not shown, not sent, kept
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
          if (!other || other === bestKey || other.indexOf(PREFIX) !== 0 ||
              other.slice(PREFIX.length).indexOf("hand-") === 0) continue;
          var older;
          try { older = JSON.parse(store.getItem(other)); } catch (e) { older = null; }
          if (mine(older)) store.removeItem(other);  // his older drafts of this table
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

    // A held draft: "Send it" confirms it, "Throw it away" drops it and starts a clean form.
    function showHeld(on) {
      held = on;
      if (heldBox) heldBox.hidden = !on;
      if (on) setStatus("held");
    }
    form.querySelectorAll("[data-confirm-draft]").forEach(function (button) {
      button.addEventListener("click", function () { send({ confirmed: true }); });
    });
    form.querySelectorAll("[data-drop-draft]").forEach(function (button) {
      button.addEventListener("click", function () {
        pending = false;
        held = false;
        clearDraft();
        stopped = true;
        window.location.assign(form.action);
      });
    });

    // --- saving ----------------------------------------------------------------------------

    function setStatus(name) {
      if (!banner) return;
      banner.dataset.state = name;
      form.dataset.saveState = name;
    }

    function send(options) {
      options = options || {};
      if (submitting || stopped || tablet.loggingOut) return;
      if (held && !options.confirmed) return;  // waits for its author's confirmation
      recordInput.value = JSON.stringify(buildRecord());
      if (options.confirmed) {
        // Confirmed by its author in this session: from now on it is this session's draft.
        madeIn = tablet.session;
        showHeld(false);
      }
      pending = true;
      touched = true;
      saveDraft();
      if (!navigator.onLine) {
        setStatus(OFFLINE_PENDING);
        return;
      }
      submitting = true;
      setStatus("saving");
      if (window.htmx) htmx.trigger(form, "htmx:abort");  // a preview still on its way is moot
      saveButton.setAttribute("aria-busy", "true");
      var body = new FormData(form);
      if (author) {
        body.append("draft_author", author);
        body.append("draft_session", madeIn);
        if (options.confirmed) body.append("draft_confirmed", "1");
      }
      fetch(form.action, {
        method: "POST",
        body: body,
        headers: { "X-Hand-Submit": "1" },
        credentials: "same-origin"
      }).then(function (response) {
        var type = response.headers.get("Content-Type") || "";
        if (response.ok && type.indexOf("application/json") < 0) {
          // Sent to the log-in page: the draft stays pending; after logging in again (a new
          // session) its author is asked to confirm it.
          window.location.assign(response.url);
          return null;
        }
        if (response.status === 409) {
          return response.json().then(function (data) {
            submitting = false;
            saveButton.removeAttribute("aria-busy");
            if (data.busy) {
              // Another save held the table's lock: nothing was written; the same form (the
              // same one-time token) is sent again by itself after Retry-After.
              setStatus("busy");
              retryLater(response.headers.get("Retry-After") || data.retry_after);
              return;
            }
            if (data.draft === "confirm") {
              showHeld(true);
              saveDraft();
              return;
            }
            // Another user is logged in now: the draft stays its author's, held for him;
            // this user gets a clean form.
            held = true;
            saveDraft();
            stopped = true;
            window.location.assign(form.action);
          });
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
        setStatus(navigator.onLine ? "pending" : OFFLINE_PENDING);
      });
    }

    var retryTimer = null;
    function retryLater(seconds) {
      var wait = Math.min(Math.max(parseInt(seconds, 10) || 2, 1), 60) * 1000;
      window.clearTimeout(retryTimer);
      retryTimer = window.setTimeout(function () {
        retryTimer = null;
        if (pending && !held && !stopped) send();
      }, wait);
    }

    form.addEventListener("submit", function (event) {
      event.preventDefault();
      // Tapping save on a held draft is its author's confirmation too.
      send({ confirmed: held });
    });

    window.addEventListener("online", function () {
      if (held) return;
      if (pending) send(); else if (touched) setStatus("editing");
    });
    window.addEventListener("offline", function () {
      if (!submitting && !held) setStatus(pending ? OFFLINE_PENDING : "offline");
    });
    window.setInterval(function () {
      if (pending && !held && !submitting && navigator.onLine) send();
    }, RETRY_MS);

    // --- the bars that stay on screen ------------------------------------------------------

    // The save bar (taller when it wraps) and the sticky row of names: their heights go into
    // CSS custom properties, so the page scrolls controls into view between them.
    if (opts.measureBars) {
      var root = document.documentElement;
      var saveBar = form.querySelector(".save-bar");
      var namesRow = form.querySelector(".player-names");
      var measureBars = function () {
        if (saveBar) root.style.setProperty("--save-bar-h", saveBar.offsetHeight + "px");
        if (namesRow) root.style.setProperty("--names-h", namesRow.offsetHeight + "px");
      };
      measureBars();
      if (window.ResizeObserver) {
        var observer = new ResizeObserver(measureBars);
        if (saveBar) observer.observe(saveBar);
        if (namesRow) observer.observe(namesRow);
      }
      window.addEventListener("resize", measureBars);
    }

    // --- start -----------------------------------------------------------------------------

    function begin() {
      var draft = restoreDraft();
      if (draft) {
        opts.restore(draft.record);
        if (reasonInput && draft.reason) reasonInput.value = draft.reason;
        author = draft.author;
        madeIn = draft.session || "";
        touched = true;
        changed({ quiet: true });
        setStatus(navigator.onLine ? "restored" : "offline");
        if (draft.pending && (draft.held || madeIn !== tablet.session)) {
          // Saved on the tablet in an earlier session: never sent by itself.
          pending = true;
          showHeld(true);
          form.dispatchEvent(new Event("recordchange"));
        } else if (draft.pending) {
          pending = true;
          send();  // offline: kept on the tablet and sent when the network returns
        } else {
          form.dispatchEvent(new Event("recordchange"));
        }
      } else {
        changed({ quiet: true });
        if (!navigator.onLine) setStatus("offline");
      }
    }

    // --- without a network -----------------------------------------------------------------

    // The service worker keeps this screen and its styles and scripts, so a reload or coming
    // back to it without a network still draws the form (the draft is in localStorage).
    // The copy is kept in a cache of this user's own (tablet.pagesCache), and only when the
    // server says it is his (X-Tarokclub-User): no other user is ever shown it.
    if (opts.serviceWorker && "serviceWorker" in navigator && window.caches && tablet.pagesCache) {
      navigator.serviceWorker.register("/sw.js", { scope: "/" }).then(function () {
        return navigator.serviceWorker.ready;
      }).then(function () {
        if (!navigator.onLine || stopped || tablet.loggingOut) return null;
        var urls = [];
        document.querySelectorAll("link[rel=stylesheet][href], script[src]").forEach(function (el) {
          var url = new URL(el.href || el.src, window.location.href);
          if (url.origin === window.location.origin) urls.push(url.pathname + url.search);
        });
        var path = window.location.pathname;
        return Promise.all([
          caches.open("tarokclub-static-v2").then(function (cache) { return cache.addAll(urls); }),
          fetch(path, { credentials: "same-origin" }).then(function (response) {
            if (!response.ok || response.headers.get("X-Tarokclub-User") !== tablet.user) return null;
            return caches.open(tablet.pagesCache).then(function (cache) { return cache.put(path, response); });
          })
        ]);
      }).catch(function () { /* no service worker: the form works while the page stays open */ });
    }

    // htmx binds its triggers when the document is ready; start after it.
    if (document.readyState === "loading") {
      document.addEventListener("DOMContentLoaded", function () { window.setTimeout(begin, 0); });
    } else {
      window.setTimeout(begin, 0);
    }

    return { changed: changed, saveDraft: saveDraft };
  }

  window.TarokEntry = { start: start };
})();
