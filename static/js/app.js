/* Scorekeeper: small enhancements. Every page works without this file (nor the others:
   entry.js, the count entry of the game and correction pages; game.js, the game page's live
   updates, sharing and offline entry, which loads queue.js, offline_parts.js and offline.js).
   This one, on every page, holds the page's texts (t) the others speak through. */
(() => {
  'use strict';
  const d = document, b = d.body;
  const all = (sel, root) => Array.from((root || d).querySelectorAll(sel));

  // The page's texts in its language (templates/_ui_strings.html), parsed once:
  // t('count.so_far', { total: 11, target: 13 }) fills in %(total)s and %(target)s.
  let strings = null;
  const t = (key, values) => {
    if (!strings) {
      const block = d.getElementById('ui-strings');
      try { strings = JSON.parse(block ? block.textContent : '{}'); } catch (err) { strings = {}; }
    }
    const text = Object.prototype.hasOwnProperty.call(strings, key) ? strings[key] : key;
    return text.replace(/%(?:\((\w+)\)[sd]|%)/g, (whole, name) => {
      if (name === undefined) return '%';
      return values && name in values ? String(values[name]) : whole;
    });
  };
  // The one t: the other scripts (entry.js, game.js, the offline entry's) speak through it too.
  self.Scorekeeper = Object.freeze({ t });

  // A sort control sends itself when changed (its button is for pages without this file); a new
  // column starts its natural way round, so the order chosen for the last one is not sent.
  d.addEventListener('change', (e) => {
    const select = e.target.closest && e.target.closest('select[data-autosubmit]');
    if (!select || !select.form) return;
    const order = select.dataset.autosubmit === 'column' && select.form.querySelector('[data-autosubmit=order]');
    if (order) order.disabled = true;
    select.form.submit();
  });
  all('.sort-form button[type=submit], .ranking-form button[type=submit]').forEach((e) => { e.hidden = true; });

  // A printable page's Print button (the scoresheet's).
  all('button[data-print]').forEach((e) => { e.hidden = false; });
  d.addEventListener('click', (e) => {
    if (e.target.closest && e.target.closest('button[data-print]')) window.print();
  });

  // The service worker keeps the game pages this phone opened and the static files, so a game
  // opens without the network; it needs a secure context (HTTPS, or localhost).
  if ('serviceWorker' in navigator && window.isSecureContext) {
    window.addEventListener('load', () => { navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => {}); });
  }

  // The language menu works without this; with it, it closes as menus do: a tap elsewhere, or Escape.
  const languages = d.querySelector('details.languages');
  if (languages) {
    d.addEventListener('click', (e) => {
      if (languages.open && !languages.contains(e.target)) languages.open = false;
    });
    d.addEventListener('keydown', (e) => {
      if (e.key !== 'Escape' || !languages.open) return;
      languages.open = false;
      languages.querySelector('summary').focus();
    });
  }

  // Hand-over link: the key comes in the #fragment, never sent to a server log.
  const key = d.getElementById('key'), form = d.getElementById('take-form');
  if (b.classList.contains('take-page') && location.hash.length > 1 && key && form) {
    key.value = location.hash.slice(1); // URL-safe already
    history.replaceState(null, '', location.pathname);
    form.submit();
  }

  // The hand-over page: its one-time link copied, or given to the phone's share sheet.
  const link = d.getElementById('hand-over-link');
  if (b.classList.contains('hand-over-page') && link) {
    const said = d.getElementById('hand-over-said');
    const tell = (text) => { said.textContent = text; said.hidden = false; };
    const byHand = () => {
      link.focus();
      link.select();
      if (d.execCommand('copy')) tell(t('hand_over.copied')); else tell(t('hand_over.select'));
    };
    d.addEventListener('click', (e) => {
      const button = e.target.closest && e.target.closest('[data-copy], [data-share-link]');
      if (!button) return;
      e.preventDefault();
      if (button.hasAttribute('data-share-link') && navigator.share) {
        navigator.share({ title: d.title, url: link.value }).catch(() => {});
      } else if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(link.value).then(() => tell(t('hand_over.copied')), byHand);
      } else {
        byHand();
      }
    });
  }

  // This phone's games on the home page. The page is the same for everyone (the server keeps it),
  // so what is this phone's is asked for here: the games its keyring holds, and those it opened,
  // remembered on the phone alone (ids only, the newest MOST_OPENED) whenever a game page opens.
  const OPENED = 'sk-opened', MOST_OPENED = 20;
  const openedGames = () => {
    try {
      const ids = JSON.parse(localStorage.getItem(OPENED) || '[]');
      return Array.isArray(ids) ? ids.filter((id) => typeof id === 'string' && /^[\w-]{1,24}$/.test(id)) : [];
    } catch (err) { return []; }
  };
  if (b.classList.contains('game-page') && b.dataset.game) {
    const id = b.dataset.game;
    try {
      localStorage.setItem(OPENED, JSON.stringify([id, ...openedGames().filter((other) => other !== id)].slice(0, MOST_OPENED)));
    } catch (err) { /* no storage here: the home page shows the keyring's games only */ }
  }
  const mine = d.getElementById('this-phone');
  const mineItem = d.getElementById('this-phone-game');
  if (mine && mineItem && window.fetch && window.URL) {
    const source = new URL(mine.dataset.source, location.href);
    const ids = openedGames().slice(0, MOST_OPENED);
    if (ids.length) source.searchParams.set('opened', ids.join(','));
    fetch(source, { credentials: 'same-origin', cache: 'no-store', headers: { Accept: 'application/json' } })
      .then((r) => (r.ok ? r.json() : null))
      .then((answer) => {
        const found = answer && Array.isArray(answer.games) ? answer.games : [];
        if (!found.length) return;
        // Each game is the template's item, cloned, with its texts filled in; the parts a game
        // does not have are taken out.
        const items = found.map((game) => {
          const item = mineItem.content.firstElementChild.cloneNode(true);
          const field = (name) => item.querySelector(`[data-field="${name}"]`);
          const fill = (name, text) => { if (text) field(name).textContent = text; else field(name).remove(); };
          item.querySelector('a').setAttribute('href', game.url);
          item.querySelector('.game-players').textContent = game.players;
          fill('ruleset', game.ruleset);
          if (!game.finished) field('finished').remove();
          fill('deal', game.deal);
          fill('leader', game.leader);
          if (!game.held) field('held').remove();
          field('date').setAttribute('datetime', game.datetime || '');
          fill('date', game.date);
          return item;
        });
        mine.querySelector('.game-list').append(...items);
        mine.hidden = false;
      })
      .catch(() => { /* offline or refused: the shared list alone, as without this script */ });
  }
})();
