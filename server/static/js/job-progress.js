// A running import's page follows its job without reloading itself: a timed refresh moves a
// screen reader's focus back to the top every two seconds and cannot be paused (WCAG 2.2.1, axe's
// meta-refresh). Instead the page asks its own address every 2 s and, while the job runs, replaces
// only the state line (read out by the aria-live card); when the answer is no longer a progress
// page (the report, or the import's result), it opens it. Without JavaScript the "Atualizar agora"
// link does the same by hand.
(function () {
  'use strict';
  var state = document.getElementById('job-state');
  if (!state || !window.fetch || !window.DOMParser) return;
  var EVERY_MS = 2000;

  function poll() {
    if (document.hidden) { setTimeout(poll, EVERY_MS); return; }
    fetch(location.href, { credentials: 'same-origin', headers: { Accept: 'text/html' } })
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) {
        if (html === null) { setTimeout(poll, EVERY_MS); return; }
        var doc = new DOMParser().parseFromString(html, 'text/html');
        var next = doc.getElementById('job-state');
        if (!next) { location.replace(location.href); return; }  // done: show the result
        if (next.textContent !== state.textContent) state.textContent = next.textContent;
        setTimeout(poll, EVERY_MS);
      })
      .catch(function () { setTimeout(poll, EVERY_MS); });  // offline a moment: try again
  }
  setTimeout(poll, EVERY_MS);
})();
