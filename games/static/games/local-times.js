// Every <time data-local> on a public page is written in UTC by the server; show it in the
// reader's own zone (the page still says UTC where scripts do not run).
(function () {
  "use strict";
  var lang = document.documentElement.lang || undefined;
  document.querySelectorAll("time[data-local]").forEach(function (el) {
    var when = new Date(el.getAttribute("datetime"));
    if (isNaN(when)) return;
    var options = el.dataset.local === "date"
      ? { year: "numeric", month: "2-digit", day: "2-digit" }
      : { year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", timeZoneName: "short" };
    el.title = el.textContent;  // the UTC text stays readable on hover
    el.textContent = new Intl.DateTimeFormat(lang, options).format(when);
  });
})();
