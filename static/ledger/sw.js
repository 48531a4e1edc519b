/* The tablet's service worker (served at /sw.js, scope /): the hand entry screen and the
 * app shell (styles, scripts) stay usable across a reload or a navigation while the network
 * is gone. Network first: every answer that comes back is kept; without a network the kept
 * copy is shown. The hand being entered lives in localStorage with its one-time token, so a
 * kept page only has to draw the form; nothing is ever sent from here.
 *
 * The tablet is shared. An entry screen is kept per user: in the cache
 * "tarokclub-pages-v2-<user>", where <user> is the tablet identifier the server puts on the
 * page (X-Tarokclub-User; ledger/web/tablet.py). Without a network only the pages of the
 * tablet's current user are shown: the user of the last page the tablet showed, written by
 * every page (static/ledger/tablet.js) and by every entry screen fetched here; "" after a
 * log-out. Log-out drops every kept page (and the server's Clear-Site-Data drops the rest).
 * While a log-out is pending (the cookie "tarokclub_logout", set by static/ledger/tablet.js
 * before anything else) no kept page is served at all; every request this worker passes to
 * the network carries that cookie, and the server ends the session before answering it.
 */
"use strict";

var STATIC = "tarokclub-static-v2";
var PAGES = "tarokclub-pages-v2-";
var META = "tarokclub-meta-v2";
var USER_URL = "/__tarokclub/tablet-user";
var USER_HEADER = "X-Tarokclub-User";
var LOGOUT_COOKIE = "tarokclub_logout";

self.addEventListener("install", function () { self.skipWaiting(); });

self.addEventListener("activate", function (event) {
  // Drop the caches of earlier versions (tarokclub-tablet-v1 kept pages by address only).
  event.waitUntil(
    caches.keys().then(function (keys) {
      return Promise.all(keys.filter(function (k) {
        return k !== STATIC && k !== META && k.indexOf(PAGES) !== 0;
      }).map(function (k) { return caches.delete(k); }));
    }).then(function () { return self.clients.claim(); })
  );
});

function isEntry(url) { return /\/table\/\d+\/hand\/new\/$/.test(url.pathname); }
function isStatic(url) { return url.pathname.indexOf("/static/") === 0; }

function currentUser() {
  return caches.open(META).then(function (cache) { return cache.match(USER_URL); })
    .then(function (kept) { return kept ? kept.text() : ""; });
}

function setCurrentUser(user) {
  return caches.open(META).then(function (cache) {
    return cache.put(USER_URL, new Response(user, { headers: { "Content-Type": "text/plain" } }));
  });
}

function keepEntry(request, response) {
  var user = response.headers.get(USER_HEADER) || "";
  if (!user) return Promise.resolve();  // not a user's page: never kept
  var copy = response.clone();
  return setCurrentUser(user).then(function () {
    return caches.open(PAGES + user);
  }).then(function (cache) { return cache.put(request, copy); });
}

function logoutPending() {
  // The worker's own view of the cookies, where the browser offers one (Chromium).
  if (!self.cookieStore) return Promise.resolve(false);
  return self.cookieStore.get(LOGOUT_COOKIE).then(function (cookie) { return !!cookie; })
    .catch(function () { return false; });
}

function keptEntry(request) {
  // Only the current user's copy, only if it says it is his, never while a log-out is pending.
  return Promise.all([currentUser(), logoutPending()]).then(function (found) {
    var user = found[0];
    if (!user || found[1]) return null;
    return caches.open(PAGES + user).then(function (cache) {
      return cache.match(request, { ignoreVary: true });
    }).then(function (kept) {
      return kept && kept.headers.get(USER_HEADER) === user ? kept : null;
    });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (isEntry(url)) {
    event.respondWith(
      fetch(request).then(function (response) {
        if (response.ok && response.type === "basic") event.waitUntil(keepEntry(request, response));
        return response;
      }).catch(function () {
        return keptEntry(request).then(function (kept) { return kept || Response.error(); });
      })
    );
  } else if (isStatic(url)) {
    event.respondWith(
      fetch(request).then(function (response) {
        if (response.ok && response.type === "basic") {
          var copy = response.clone();
          event.waitUntil(caches.open(STATIC).then(function (cache) { return cache.put(request, copy); }));
        }
        return response;
      }).catch(function () {
        return caches.match(request, { cacheName: STATIC, ignoreVary: true }).then(function (kept) {
          return kept || Response.error();
        });
      })
    );
  }
});
