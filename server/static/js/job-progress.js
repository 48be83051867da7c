// A running import's page follows its job without reloading itself: a timed refresh moves a
// screen reader's focus back to the top every two seconds and cannot be paused (WCAG 2.2.1, axe's
// meta-refresh). Instead the page asks its job's status (a small JSON, the state line's
// data-status address) every 2 s and, while the job runs, replaces only the state line (read out
// by the aria-live card); once the job no longer runs, it opens its own address again, which now
// shows the report or the import's result. An answer that is not the status (the session ended:
// the login page) reloads the page too, which then asks to log in. Without JavaScript the
// "Atualizar agora" link does the same by hand.
(function () {
  'use strict';
  var state = document.getElementById('job-state');
  var url = state && state.getAttribute('data-status');
  if (!url || !window.fetch) return;
  var EVERY_MS = 2000;

  function later() { setTimeout(poll, EVERY_MS); }

  function poll() {
    if (document.hidden) { later(); return; }
    fetch(url, { credentials: 'same-origin', headers: { Accept: 'application/json' } })
      .then(function (response) {
        if (!response.ok) return null;  // a moment's failure: ask again
        var type = response.headers.get('Content-Type') || '';
        if (type.indexOf('application/json') !== 0) return { running: false };
        return response.json();
      })
      .then(function (status) {
        if (status === null) { later(); return; }
        if (!status.running) { location.replace(location.href); return; }  // done: show the result
        if (status.text !== state.textContent) state.textContent = status.text;
        later();
      })
      .catch(later);  // offline a moment: try again
  }
  later();
})();
