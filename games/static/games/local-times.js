// Every <time data-local> on a public page is written in UTC by the server; show it in the
// reader's own zone, in the same pattern the server uses for a page rendered in a chosen zone
// (data-pattern: "{day}.{month}.{year}, {hour}:{minute} {zone}" in German, games.timefmt), so
// every page writes a moment one way. Without scripts the page still says UTC.
(function () {
  "use strict";
  var lang = document.documentElement.lang || undefined;
  // French names a zone by its offset ("UTC+1"), as games.timefmt does; others by its name
  var zoneLang = lang === "en" ? "en-US" : lang;  // "EST", as the server writes it
  document.querySelectorAll("time[data-local]").forEach(function (el) {
    var when = new Date(el.getAttribute("datetime"));
    if (isNaN(when)) return;
    var pattern = el.dataset.pattern || "{year}-{month}-{day} {hour}:{minute} {zone}";
    var parts = {};
    new Intl.DateTimeFormat("en-GB", {
      year: "numeric", month: "2-digit", day: "2-digit",
      hour: "2-digit", minute: "2-digit", hourCycle: "h23"
    }).formatToParts(when).forEach(function (p) { parts[p.type] = p.value; });
    var zone = new Intl.DateTimeFormat(zoneLang, { timeZoneName: "short" })
      .formatToParts(when).filter(function (p) { return p.type === "timeZoneName"; });
    parts.zone = zone.length ? zone[0].value.replace(/^GMT/, "UTC") : "";
    el.title = el.textContent;  // the UTC text stays readable on hover
    el.textContent = pattern.replace(/\{(\w+)\}/g, function (_, name) {
      return parts[name] !== undefined ? parts[name] : "";
    }).trim();
  });
})();
