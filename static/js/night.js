/* The projector of a club night: the round clock counts down, and the screen is drawn again from the
   server every few seconds (data-poll), so new tables, results and standings appear on their own. */
(function () {
  'use strict';
  var d = document;
  function tick() {
    var clocks = d.querySelectorAll('[data-ends]');
    for (var i = 0; i < clocks.length; i++) {
      var left = Math.round((Date.parse(clocks[i].getAttribute('data-ends')) - Date.now()) / 1000);
      if (isNaN(left)) continue;
      var sign = left < 0 ? '−' : '';
      left = Math.abs(left);
      var minutes = Math.floor(left / 60), seconds = left % 60;
      clocks[i].textContent = sign + minutes + ':' + (seconds < 10 ? '0' : '') + seconds;
      clocks[i].classList.toggle('is-over', sign !== '');
    }
  }
  function poll() {
    var screen = d.getElementById('screen');
    if (!screen || !window.fetch || !window.DOMParser) return;
    fetch(location.href, { cache: 'no-store', credentials: 'same-origin' })
      .then(function (answer) { return answer.ok ? answer.text() : null; })
      .then(function (html) {
        if (!html) return;
        var fresh = new DOMParser().parseFromString(html, 'text/html').getElementById('screen');
        if (fresh) { screen.innerHTML = fresh.innerHTML; tick(); }
      })
      .catch(function () { /* the next poll tries again */ });
  }
  d.addEventListener('DOMContentLoaded', function () {
    tick();
    setInterval(tick, 1000);
    var every = parseInt(d.body.getAttribute('data-poll') || '0', 10);
    if (every > 0) setInterval(poll, every * 1000);
  });
})();
