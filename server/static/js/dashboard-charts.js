// Draws the dashboard's charts from their data tables (progressive enhancement: without this
// file, or without Chart.js, the tables are the page). Chart.js is served from our own origin
// (copied from npm at set-up by pwa/scripts/vendor.mjs), so the strict CSP holds: no inline
// script, and Chart.js styles the canvas through the CSSOM, which style-src does not block.
(function () {
  'use strict';
  if (typeof window.Chart !== 'function') return;
  var COLORS = ['#1f5f8b', '#c2571a', '#2e7d32'];

  function read(table) {
    var headers = Array.prototype.map.call(table.tHead.rows[0].cells, function (c) { return c.textContent.trim(); });
    var series = table.dataset.series.split(',').map(Number);
    var rows = Array.prototype.slice.call(table.tBodies[0].rows);
    return {
      labels: rows.map(function (r) { return r.cells[0].textContent.trim(); }),
      datasets: series.map(function (col, n) {
        return {
          label: headers[col],
          backgroundColor: COLORS[n % COLORS.length],
          borderColor: COLORS[n % COLORS.length],
          data: rows.map(function (r) { return Number(r.cells[col].dataset.value); })
        };
      })
    };
  }

  function draw(table) {
    var canvas = document.getElementById(table.dataset.canvas);
    if (!canvas) return;
    var kind = table.dataset.chart;
    var data = read(table);
    var box = canvas.parentNode;
    box.hidden = false;
    if (kind === 'hbar') box.classList.add('chart-box-tall');
    // Horizontal bars grow with their rows, so long labels (infractions) stay readable.
    if (kind === 'hbar') box.style.height = Math.max(160, data.labels.length * 34 + 60) + 'px';
    // Long labels (infractions) are shortened to what the width allows; the table has them whole.
    var maxLabel = Math.max(14, Math.min(40, Math.floor(box.clientWidth / 16)));
    new window.Chart(canvas, {
      type: kind === 'line' ? 'line' : 'bar',
      data: data,
      options: {
        indexAxis: kind === 'hbar' ? 'y' : 'x',
        maintainAspectRatio: false,
        animation: false,
        locale: 'pt-BR',
        scales: { x: { ticks: { precision: 0 } }, y: { ticks: { precision: 0, autoSkip: false,
          callback: function (value) {
            var label = this.getLabelForValue ? this.getLabelForValue(value) : value;
            return typeof label === 'string' && label.length > maxLabel ? label.slice(0, maxLabel - 1) + '…' : label;
          } } } },
        plugins: { legend: { display: data.datasets.length > 1 },
          tooltip: { callbacks: { label: function (ctx) {
            return ctx.dataset.label + ': ' + ctx.formattedValue;
          } } } }
      }
    });
    var details = table.closest('details');
    if (details) details.open = false;
  }

  document.querySelectorAll('table[data-chart]').forEach(draw);
})();
