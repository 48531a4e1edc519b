/* Give the focus to the field a refused form asks about (data-focus-on-load), in view.
   The page is reached at a fragment (#close): the browser ignores autofocus there and moves
   the focus when it scrolls to the fragment, so this waits for the page to have loaded. */
(function () {
  "use strict";
  function focusRefused() {
    var field = document.querySelector("[data-focus-on-load]");
    if (!field) return;
    var section = field.closest("section") || field;
    section.scrollIntoView({ block: "start" });
    field.focus({ preventScroll: true });
  }
  if (document.readyState === "complete") {
    window.setTimeout(focusRefused, 0);
  } else {
    window.addEventListener("load", function () { window.setTimeout(focusRefused, 0); });
  }
})();
