/* The shared tablet (every page loads this, in the head): whose page this is, and a log-out
 * that leaves nothing of the user behind. Plain JavaScript, no build step.
 *
 * Every page carries its user's tablet identifier and its session's (<meta name=
 * "tarokclub-user">, <meta name="tarokclub-session">; ledger/web/tablet.py). With them:
 *
 * - the service worker keeps each user's entry screens in a cache of his own
 *   ("tarokclub-pages-v2-<user>"); every page tells the cache whose tablet it is now, and the
 *   pages of anybody else are dropped, so nobody is ever shown another user's screen;
 * - a draft of a hand (static/ledger/entry-common.js) stores its author and session: another
 *   user never sees it or sends it, and its author confirms it if it was made in an earlier
 *   session (he logged out, or was logged out, since).
 *
 * Log-out. With a network: the drafts and the kept pages are cleared here, then the log-out is
 * posted (its answer clears the site's data too: Clear-Site-Data). A hand saved on the tablet
 * and not sent yet is thrown away then, after a warning. Without a network the server cannot
 * be told yet: the kept pages and the unsent edits are cleared, the user's hands saved on the
 * tablet are held for him (sent only after he logs in again and confirms), the screen shows
 * nothing of his, and the log-out is posted as soon as the network is back; a page of his
 * that opens before that (the tablet restarted) is hidden and logs him out first.
 *
 * Either way the cookie "tarokclub_logout" (his session's identifier) is set first: the
 * server ends that session on the first request that carries it, whatever makes it (the
 * next page loaded before any script runs, another tab, the service worker, a download), so
 * a closed tab or a restarted tablet cannot leave his session alive. Meanwhile this page
 * sends no htmx request.
 *
 * One global: window.TarokTablet = { user, session, draftPrefix, pagesCache, drafts(),
 * loggingOut }.
 */
(function () {
  "use strict";

  var DRAFT_PREFIX = "tarokclub:hand-draft:";
  var LOGOUT_KEY = "tarokclub:logout-pending";
  // The log-out's cookie (ledger/web/sessions.py): the first request of this browser that
  // carries it, whoever makes it, ends the session it names before anything is served.
  var LOGOUT_COOKIE = "tarokclub_logout";
  var LOGOUT_COOKIE_DAYS = 30;
  var PAGES = "tarokclub-pages-v2-";
  var META = "tarokclub-meta-v2";
  var USER_URL = "/__tarokclub/tablet-user";
  var RETRY_MS = 5000;

  function meta(name) {
    var el = document.querySelector('meta[name="' + name + '"]');
    return el ? el.getAttribute("content") || "" : "";
  }

  var user = meta("tarokclub-user");
  var session = meta("tarokclub-session");
  var root = document.documentElement;

  function storage() {
    try { return window.localStorage; } catch (e) { return null; }
  }

  // Every draft on this tablet: [{key, draft}] (a draft that cannot be read is skipped).
  function drafts() {
    var store = storage();
    var found = [];
    if (!store) return found;
    for (var i = 0; i < store.length; i++) {
      var key = store.key(i);
      if (!key || key.indexOf(DRAFT_PREFIX) !== 0) continue;
      var draft = null;
      try { draft = JSON.parse(store.getItem(key)); } catch (e) { draft = null; }
      if (draft) found.push({ key: key, draft: draft });
    }
    return found;
  }

  function mine(draft) { return !!user && !!draft && draft.author === user; }

  // --- the service worker's caches: this tablet's user, and only his pages ----------------

  function setCurrentUser(who) {
    if (!window.caches) return Promise.resolve();
    return caches.open(META).then(function (cache) {
      return cache.put(USER_URL, new Response(who, { headers: { "Content-Type": "text/plain" } }));
    });
  }

  function dropPages(keep) {
    if (!window.caches) return Promise.resolve();
    return caches.keys().then(function (keys) {
      return Promise.all(keys.filter(function (key) {
        return key.indexOf(PAGES) === 0 && key !== keep;
      }).map(function (key) { return caches.delete(key); }));
    });
  }

  function claimTablet() {
    // This page's user is the tablet's now: the worker answers from his pages only.
    return setCurrentUser(user).then(function () {
      return dropPages(user ? PAGES + user : null);
    }).catch(function () { /* no cache storage here: nothing is kept */ });
  }

  // --- log-out -----------------------------------------------------------------------------

  function stopEntry() {
    // The entry form (if any) stops saving and sending at once.
    TarokTablet.loggingOut = true;
    document.dispatchEvent(new CustomEvent("tarokclub:logout"));
  }

  function markLogout() {
    // Set before anything is posted: whatever request reaches the server first (the log-out,
    // a poll, another tab, the next page loaded after the tablet restarted) ends the session.
    if (!session) return;
    document.cookie = LOGOUT_COOKIE + "=" + session + "; path=/; max-age=" +
      (LOGOUT_COOKIE_DAYS * 24 * 3600) + "; samesite=lax" +
      (window.location.protocol === "https:" ? "; secure" : "");
  }

  // While a log-out is on its way no poll or swap of this page asks the server for anything
  // (htmx cancels a request whose htmx:beforeRequest is cancelled).
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (TarokTablet.loggingOut) event.preventDefault();
  });

  function logoutForm() { return document.querySelector("form[data-logout]"); }

  function post(form, deferred) {
    if (deferred && !form.querySelector("input[name=deferred]")) {
      var input = document.createElement("input");
      input.type = "hidden";
      input.name = "deferred";
      input.value = "1";
      form.appendChild(input);
    }
    form.dataset.cleared = "1";
    form.submit();  // no submit event: it does not come back here
  }

  function clearAll() {
    var store = storage();
    if (store) {
      drafts().forEach(function (item) { store.removeItem(item.key); });
      store.removeItem(LOGOUT_KEY);
    }
    return Promise.all([setCurrentUser(""), dropPages(null)]).catch(function () {});
  }

  function showNotice(held) {
    var template = document.getElementById("tablet-logout-notice");
    if (!template || document.getElementById("logged-out-offline")) return;
    var notice = template.content.firstElementChild.cloneNode(true);
    notice.querySelectorAll("[data-if-held]").forEach(function (el) { el.hidden = !held; });
    document.body.appendChild(notice);
    root.classList.add("tablet-logged-out");
  }

  function whenOnline(go) {
    var done = false;
    function tryNow() {
      if (done || !navigator.onLine) return;
      done = true;
      go();
    }
    window.addEventListener("online", tryNow);
    window.setInterval(tryNow, RETRY_MS);
    tryNow();
  }

  function logOutOffline(form) {
    markLogout();
    stopEntry();
    var store = storage();
    var held = false;
    if (store) {
      drafts().forEach(function (item) {
        if (!mine(item.draft)) return;  // another user's held hand stays his
        if (item.draft.pending) {
          item.draft.held = true;
          held = true;
          try { store.setItem(item.key, JSON.stringify(item.draft)); } catch (e) { /* full */ }
        } else {
          store.removeItem(item.key);  // an unsent edit: gone with its user
        }
      });
      try { store.setItem(LOGOUT_KEY, JSON.stringify({ user: user, at: Date.now() })); } catch (e) { /* full */ }
    }
    Promise.all([setCurrentUser(""), dropPages(null)]).catch(function () {});
    showNotice(held);
    whenOnline(function () { post(form, true); });
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches || !form.matches("form[data-logout]") || form.dataset.cleared) return;
    event.preventDefault();
    if (!navigator.onLine) {
      logOutOffline(form);
      return;
    }
    var unsent = drafts().filter(function (item) { return item.draft.pending; });
    if (unsent.length) {
      var warning = document.getElementById("tablet-logout-warning");
      var text = warning ? warning.content.textContent.trim() : "";
      if (text && !window.confirm(text)) return;
    }
    markLogout();
    stopEntry();
    clearAll().then(function () { post(form, false); });
  });

  // --- a log-out that is still to be sent ---------------------------------------------------

  var TarokTablet = window.TarokTablet = {
    user: user,
    session: session,
    draftPrefix: DRAFT_PREFIX,
    pagesCache: user ? PAGES + user : null,
    drafts: drafts,
    mine: mine,
    loggingOut: false
  };

  var pending = null;
  var store = storage();
  if (store) {
    try { pending = JSON.parse(store.getItem(LOGOUT_KEY)); } catch (e) { pending = null; }
  }
  if (pending && user && pending.user === user) {
    // He logged out on this tablet without a network: nothing of his is shown, and the
    // log-out is sent now (or when the network is back).
    TarokTablet.loggingOut = true;
    markLogout();
    root.classList.add("tablet-logging-out");
    var finish = function () {
      var form = logoutForm();
      if (!form) return;
      showNotice(drafts().some(function (item) { return mine(item.draft) && item.draft.held; }));
      root.classList.remove("tablet-logging-out");
      whenOnline(function () { post(form, true); });
    };
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", finish);
    else finish();
  } else {
    if (pending && store) store.removeItem(LOGOUT_KEY);  // his session has ended already
    claimTablet();
  }
})();
