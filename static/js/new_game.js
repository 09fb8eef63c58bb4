/* New game: a tap on a recent player's name fills the next empty seat. The form works without it. */
(() => {
  'use strict';
  const list = document.querySelector('[data-tap-list]');
  if (!list) return;
  const seats = Array.from(document.querySelectorAll('input[name^="players-"]'));
  const taken = (name) => seats.some((i) => i.value.trim().toLowerCase() === name.toLowerCase());
  const refresh = () => list.querySelectorAll('button[data-pick]').forEach((b) => {
    b.setAttribute('aria-pressed', taken(b.dataset.pick) ? 'true' : 'false');
  });
  list.hidden = false;
  list.addEventListener('click', (e) => {
    const button = e.target.closest('button[data-pick]');
    if (!button) return;
    const name = button.dataset.pick;
    const same = seats.find((i) => i.value.trim().toLowerCase() === name.toLowerCase());
    if (same) { same.value = ''; same.focus(); }
    else {
      const empty = seats.find((i) => !i.value.trim());
      if (empty) empty.value = name;
    }
    refresh();
  });
  seats.forEach((i) => i.addEventListener('input', refresh));
  refresh();
})();
