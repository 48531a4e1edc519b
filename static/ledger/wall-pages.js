/* The walls' lists that do not fit the screen page by themselves. A box with data-pages (a
 * selector of its items, e.g. "li") clips what overflows it; this script measures which items
 * fit inside the box, splits the items into pages of what fits, shows one page and turns to
 * the next every PERIOD ms (a short fade, none under prefers-reduced-motion). An element with
 * data-page-of="<box id>" reads "2/3" while there is more than one page. The page shown is
 * kept by the box's id across the htmx refreshes, so a poll never sends the wall back to its
 * first page; a resize lays the pages again (data-laid-for names the size they were laid
 * for). A static file: the site's CSP forbids inline scripts.
 */
"use strict";
(function () {
  if (window.tarokWallPages) return;  // included once per page
  window.tarokWallPages = true;

  var PERIOD = 10000;
  var shown = {};  // box id -> the page shown
  var motion = window.matchMedia("(prefers-reduced-motion: reduce)");

  function items(box) {
    return Array.prototype.slice.call(box.querySelectorAll(box.dataset.pages));
  }

  function outside(item, edge) {
    var r = item.getBoundingClientRect();
    return r.bottom > edge.bottom + 0.5 || r.right > edge.right + 0.5;
  }

  // Return the index of each page's first item: show the items from a page's start on, the
  // page ends before the first that is not wholly inside the box (a page has one at least).
  function starts(box, all) {
    var edge = box.getBoundingClientRect();
    var result = [0];
    var start = 0;
    for (;;) {
      all.forEach(function (item, i) { item.classList.toggle("off-page", i < start); });
      var end = start + 1;
      while (end < all.length && !outside(all[end], edge)) end += 1;
      if (end >= all.length) return result;
      result.push(end);
      start = end;
    }
  }

  function show(box, all, pages, page, fade) {
    var from = pages[page];
    var to = page + 1 < pages.length ? pages[page + 1] : all.length;
    all.forEach(function (item, i) { item.classList.toggle("off-page", i < from || i >= to); });
    box.dataset.page = String(page + 1);
    box.dataset.pageCount = String(pages.length);
    document.querySelectorAll('[data-page-of="' + box.id + '"]').forEach(function (label) {
      label.textContent = pages.length > 1 ? page + 1 + "/" + pages.length : "";
    });
    box.classList.remove("turning");
    if (fade && !motion.matches) {
      void box.offsetWidth;  // restart the fade
      box.classList.add("turning");
    }
  }

  function lay(box, step) {
    var all = items(box);
    if (!all.length) {
      box.dataset.laidFor = window.innerWidth + "x" + window.innerHeight;
      return;
    }
    var pages = starts(box, all);
    var page = ((shown[box.id] || 0) + step) % pages.length;
    shown[box.id] = page;
    show(box, all, pages, page, step > 0);
    box.dataset.laidFor = window.innerWidth + "x" + window.innerHeight;
  }

  function layAll(step) {
    document.querySelectorAll("[data-pages]").forEach(function (box) { lay(box, step); });
  }

  layAll(0);
  window.addEventListener("resize", function () { layAll(0); });
  // After the swap, in the same task (htmx:load comes only when the swap settles): a fresh
  // list is never painted unpaged.
  document.addEventListener("htmx:afterSwap", function () { layAll(0); });
  window.setInterval(function () { layAll(1); }, PERIOD);
})();
