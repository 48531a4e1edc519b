/* The tablet's service worker (served at /sw.js, scope /): the hand entry screen and the
 * app shell (styles, scripts) stay usable across a reload or a navigation while the network
 * is gone. Network first: every answer that comes back is kept; without a network the kept
 * copy is shown. The hand being entered lives in localStorage with its one-time token, so a
 * kept page only has to draw the form; nothing is ever sent from here.
 */
"use strict";

var CACHE = "tarokclub-tablet-v1";

self.addEventListener("install", function () { self.skipWaiting(); });

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (keys) {
      return Promise.all(keys.filter(function (k) { return k !== CACHE; }).map(function (k) {
        return caches.delete(k);
      }));
    }).then(function () { return self.clients.claim(); })
  );
});

function keep(request) {
  // The entry screen of a table (a new hand) and our own static files.
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return false;
  return /\/table\/\d+\/hand\/new\/$/.test(url.pathname) || url.pathname.indexOf("/static/") === 0;
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET" || !keep(request)) return;
  event.respondWith(
    fetch(request).then(function (response) {
      if (response.ok && response.type === "basic") {
        var copy = response.clone();
        caches.open(CACHE).then(function (cache) { cache.put(request, copy); });
      }
      return response;
    }).catch(function () {
      // Django varies on the cookie and the language: the kept copy is this tablet's anyway.
      return caches.match(request, { ignoreVary: true }).then(function (kept) {
        return kept || Response.error();
      });
    })
  );
});
