// "Configuração das regras", progressive enhancement (the page works without it: each form
// posts and the server redirects back to the key's anchor):
// - a filter box that hides the keys not matching the words typed;
// - saving in place: the form is sent with fetch (its hidden csrf_token goes along), the page
//   stays where it is, the key's "Atual:" is replaced with the server's rendering and the
//   result is announced in the page's aria-live region (#config-status).
(function () {
  'use strict';
  var statusBox = document.getElementById('config-status');
  var forms = Array.prototype.slice.call(document.querySelectorAll('form.config-row'));

  function fold(text) {
    return (text || '').toLowerCase().normalize('NFD').replace(/[\u0300-\u036f]/g, '');
  }

  function setupFilter() {
    var box = document.querySelector('.config-filter');
    var input = document.getElementById('config-q');
    var count = document.getElementById('config-filter-count');
    if (!box || !input) return;
    box.hidden = false;
    var haystacks = forms.map(function (f) { return fold(f.dataset.search + ' ' + f.textContent); });
    var timer = null;
    input.addEventListener('input', function () {
      clearTimeout(timer);
      timer = setTimeout(function () {
        var words = fold(input.value).split(/\s+/).filter(Boolean);
        var shown = 0;
        forms.forEach(function (form, n) {
          var match = words.every(function (w) { return haystacks[n].indexOf(w) !== -1; });
          form.hidden = !match;
          if (match) shown += 1;
        });
        document.querySelectorAll('.config-group, .config-kind').forEach(function (section) {
          section.hidden = !section.querySelector('form.config-row:not([hidden])');
        });
        count.textContent = words.length ? shown + ' de ' + forms.length + ' itens' : '';
      }, 150);
    });
  }

  var hideTimer = null;
  function announce(text) {
    // Cleared first so that the same message twice is announced twice; the toast then fades
    // (the row keeps its own message) so it never hides the form for long.
    statusBox.textContent = '';
    statusBox.classList.add('visible');
    clearTimeout(hideTimer);
    setTimeout(function () { statusBox.textContent = text; }, 50);
    hideTimer = setTimeout(function () { statusBox.classList.remove('visible'); }, 6000);
  }

  function showErrors(form, errors) {
    form.querySelectorAll('.field-error').forEach(function (span) { span.textContent = ''; });
    form.querySelectorAll('[aria-invalid]').forEach(function (el) { el.removeAttribute('aria-invalid'); });
    var first = null;
    Object.keys(errors || {}).forEach(function (field) {
      var span = document.getElementById(form.id + '-err-' + field);
      var input = form.querySelector('[name="' + field + '"]');
      if (span) span.textContent = [].concat(errors[field]).join(' ');
      if (input) { input.setAttribute('aria-invalid', 'true'); first = first || input; }
    });
    return first;
  }

  function save(event) {
    var form = event.currentTarget;
    event.preventDefault();
    var button = form.querySelector('button[type="submit"]');
    var message = document.getElementById(form.id + '-msg');
    button.disabled = true;
    fetch(form.action || window.location.pathname, {
      method: 'POST', body: new FormData(form), credentials: 'same-origin',
      headers: { 'X-Requested-With': 'fetch', Accept: 'application/json' }
    }).then(function (response) {
      return response.json().catch(function () { return { ok: false, message: 'Não foi possível salvar (erro ' + response.status + ').' }; });
    }).then(function (result) {
      var first = showErrors(form, result.errors);
      if (result.ok) {
        document.getElementById(form.id + '-current').innerHTML = result.current_html;
        form.querySelectorAll('input[name="value"], input[name="source"], input[name="valid_from"]').forEach(function (input) { input.value = ''; });
      }
      message.hidden = false;
      message.className = 'row-message ' + (result.ok ? 'ok' : 'error');
      message.textContent = result.message;
      announce(result.message);
      if (first) first.focus({ preventScroll: false });
    }).catch(function () {
      announce('Sem conexão com o servidor: nada foi salvo.');
    }).then(function () { button.disabled = false; });
  }

  setupFilter();
  if (statusBox && window.fetch && window.FormData) {
    forms.forEach(function (form) { form.addEventListener('submit', save); });
  }
})();
