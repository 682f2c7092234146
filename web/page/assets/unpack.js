(function () {
  "use strict";
  // The replay file itself, gzip-compressed in base64 above: written over this page.
  var text = atob(document.getElementById("packed").textContent.trim());
  var bytes = new Uint8Array(text.length);
  for (var i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  new Response(stream).text().then(function (html) {
    document.open();
    document.write(html);
    document.close();
  });
})();
