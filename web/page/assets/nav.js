(function () {
  "use strict";
  // The keys that step through the game: each follows a link of the step shown.
  var keys = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" };
  function current() {
    var id = location.hash.slice(1), s = id ? document.getElementById(id) : null;
    if (s && s.classList.contains("step")) return s;
    return document.querySelector(".step.shown") || document.querySelector(".step.last");
  }
  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey || e.defaultPrevented) return;
    var t = e.target;
    if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) return;
    var nav = keys[e.key], s = current();
    if (!nav || !s) return;
    var a = s.querySelector('a[data-nav="' + nav + '"]');
    if (!a) return;
    e.preventDefault();
    a.click();
  });

  // A replay file carries its pictures as pieces of SVG shared between steps: each
  // step lists its pieces, copying runs of the previous step's ([-1-start, length])
  // or naming new ones (a piece's index).
  var data = document.getElementById("pictures");
  if (!data) return;
  var packed = JSON.parse(data.textContent), lists = {}, prev = [];
  packed.steps.forEach(function (st) {
    var out = [], ops = st[1];
    for (var i = 0; i < ops.length; i++) {
      var o = ops[i];
      if (o >= 0) { out.push(o); continue; }
      for (var j = 0, s = -o - 1, n = ops[++i]; j < n; j++) out.push(prev[s + j]);
    }
    lists[st[0]] = out;
    prev = out;
  });
  function picture(n) {
    var l = lists[n];
    if (!l) return "";
    return l.map(function (k) { return packed.pieces[k]; }).join("");
  }
  function show() {
    var s = current();
    if (!s) return;
    document.querySelectorAll("figure.board[data-n]").forEach(function (f) {
      if (!s.contains(f)) f.textContent = "";
    });
    var f = s.querySelector("figure.board[data-n]");
    if (f && !f.firstChild) f.innerHTML = picture(f.getAttribute("data-n"));
    document.querySelectorAll(".moves a[aria-current]").forEach(function (a) { a.removeAttribute("aria-current"); });
    var m = document.querySelector('.moves a[data-i="' + s.getAttribute("data-n") + '"]');
    if (m) {
      m.setAttribute("aria-current", "step");
      var d = m.closest("details");
      if (d) d.open = true;
    }
  }
  // A step is shown under the page's heading, as the server's pages show it, not
  // scrolled to its top (see also the steps' scroll-margin-top).
  window.addEventListener("hashchange", function () { show(); window.scrollTo(0, 0); });
  show();
  if (location.hash) window.scrollTo(0, 0);
})();
