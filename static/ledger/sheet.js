// The evening sheet on a phone: fold every table but the reader's own (or the one the
// address points at). Without this script every table stays open.
(function () {
  if (!window.matchMedia("(max-width: 40rem)").matches) return;
  var target = window.location.hash.slice(1);
  document.querySelectorAll("details.sheet-table").forEach(function (table) {
    if (!table.hasAttribute("data-mine") && table.id !== target) table.open = false;
  });
})();
