// Replay viewer: step without a full reload.  Every control is also a plain link (or a form),
// so the page works without this script; here we fetch the step's fragment and swap it in.
(function () {
  "use strict";
  var nav = document.getElementById("replay-nav");
  var frame = document.getElementById("replay-frame");
  if (!nav || !frame || !window.fetch) { return; }
  var base = nav.getAttribute("data-base");
  var steps = parseInt(nav.getAttribute("data-steps"), 10);
  var slider = document.getElementById("replay-slider");
  var shown = document.getElementById("replay-step");
  var link = document.getElementById("replay-link");
  var pending = null;
  // the step asked for last: keys pressed faster than the fetches answer still count each press
  var target = parseInt(frame.querySelector(".step").getAttribute("data-step"), 10);

  function current() { return target; }

  function highlight(n) {
    var old = document.querySelector("#log li.current");
    if (old) { old.classList.remove("current"); }
    var item = document.getElementById("step-" + n);
    if (item) {
      item.classList.add("current");
      var part = item.closest ? item.closest("details") : null;  // the log is folded by year or turn
      if (part) { part.open = true; }
    }
  }

  function show(n, push) {
    n = Math.max(1, Math.min(steps, n));
    target = n;
    if (pending) { pending.abort(); }
    pending = new AbortController();
    fetch(base + n + "/?fragment=1", { signal: pending.signal, credentials: "same-origin" })
      .then(function (r) { if (!r.ok) { throw new Error(r.status); } return r.text(); })
      .then(function (html) {
        frame.innerHTML = html;
        var step = frame.querySelector(".step");
        slider.value = n;
        shown.textContent = n;
        link.value = step.getAttribute("data-link");
        document.getElementById("replay-prev").href = step.getAttribute("data-prev") || step.getAttribute("data-url");
        document.getElementById("replay-next").href = step.getAttribute("data-next") || step.getAttribute("data-url");
        document.title = step.getAttribute("data-title");
        highlight(n);
        if (push) { history.pushState({ step: n }, "", step.getAttribute("data-url")); }
      })
      .catch(function (e) { if (e.name !== "AbortError") { window.location = base + n + "/"; } });
  }

  function go(event, n) { event.preventDefault(); show(n, true); }

  document.getElementById("replay-prev").addEventListener("click", function (e) { go(e, current() - 1); });
  document.getElementById("replay-next").addEventListener("click", function (e) { go(e, current() + 1); });
  document.getElementById("replay-first").addEventListener("click", function (e) { go(e, 1); });
  document.getElementById("replay-last").addEventListener("click", function (e) { go(e, steps); });
  slider.addEventListener("input", function () { shown.textContent = slider.value; });
  slider.addEventListener("change", function () { show(parseInt(slider.value, 10), true); });
  link.addEventListener("focus", function () { link.select(); });

  document.addEventListener("keydown", function (e) {
    var tag = (e.target && e.target.tagName) || "";
    if (e.altKey || e.ctrlKey || e.metaKey || (tag === "INPUT" && e.target !== slider) || tag === "TEXTAREA") { return; }
    var moves = { ArrowLeft: current() - 1, ArrowRight: current() + 1, Home: 1, End: steps };
    if (Object.prototype.hasOwnProperty.call(moves, e.key)) { go(e, moves[e.key]); }
  });

  window.addEventListener("popstate", function (e) {
    if (e.state && e.state.step) { show(e.state.step, false); }
  });
  history.replaceState({ step: current() }, "");
})();
