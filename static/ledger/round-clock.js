/* The round's clock on a tournament table's screens and on the hall's wall: an element with
 * data-clock-left (the seconds to the signal when the server rendered it) counts down every
 * second from the moment the page showed it; at zero it reads data-clock-over, takes the
 * class "over", and what waits for the signal (data-after-signal) is shown. An htmx swap
 * brings a fresh element with the server's fresh figure, so the clock never drifts for long.
 */
"use strict";
(function () {
  function pad(n) { return (n < 10 ? "0" : "") + n; }

  function text(seconds) {
    var h = Math.floor(seconds / 3600);
    var m = Math.floor((seconds % 3600) / 60);
    return h + ":" + pad(m) + ":" + pad(seconds % 60);
  }

  function tick() {
    var now = Date.now();
    var signalled = false;
    document.querySelectorAll("[data-clock-left]").forEach(function (clock) {
      if (!clock.dataset.clockShown) clock.dataset.clockShown = String(now);
      var passed = Math.floor((now - parseInt(clock.dataset.clockShown, 10)) / 1000);
      var left = Math.max(0, parseInt(clock.dataset.clockLeft, 10) - passed);
      if (left > 0) {
        clock.textContent = text(left);
        return;
      }
      signalled = true;
      if (clock.dataset.clockOver) clock.textContent = clock.dataset.clockOver;
      clock.classList.add("over");
    });
    if (signalled) {
      document.querySelectorAll("[data-after-signal][hidden]").forEach(function (el) {
        el.hidden = false;
      });
    }
  }

  if (window.tarokRoundClock) return;  // included by more than one part of a page
  window.tarokRoundClock = true;
  tick();
  window.setInterval(tick, 1000);
})();
