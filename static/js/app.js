/* Scorekeeper: small enhancements. Every page works without this file. */
(() => {
  'use strict';
  const d = document, b = d.body;
  const all = (sel, root) => Array.from((root || d).querySelectorAll(sel));
  const num = (i) => (/^\d+$/.test(i.value.trim()) ? +i.value : null);
  // The tricks in a deal, as the page says (data-tricks); 13 on a page that does not say.
  const TRICKS = +b.dataset.tricks || 13;
  const sum = (ns) => (ns.includes(null) ? null : ns.reduce((s, n) => s + n, 0));

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
  // The one t: the offline entry's script (offline.js, loaded below) speaks through it too.
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

  // Counts add up (13 tricks; Kierki's 13 hearts, 4 queens...: data-sum): when all but one are known,
  // fill in the last. Only boxes filled here (data-auto) are ever rewritten; what the user typed stays.
  function autofill(fs) {
    const inputs = all('input[type=number]', fs);
    const mine = inputs.filter((i) => i.dataset.auto);
    // A box the person emptied is theirs: it is not filled again behind their back.
    const open = inputs.filter((i) => i.dataset.auto || (i.value === '' && !i.dataset.own));
    const typed = sum(inputs.filter((i) => !open.includes(i)).map(num));
    const target = +fs.dataset.sum || TRICKS;
    const rest = open.length === 1 && typed !== null ? target - typed : null;
    if (rest !== null && rest >= 0 && rest <= target) { open[0].value = rest; open[0].dataset.auto = '1'; }
    else mine.forEach((i) => { i.value = ''; delete i.dataset.auto; });
    progress(fs);
  }

  // "11 of 13 so far": the hint follows the counts, and never claims a sum that is not there.
  function progress(fs) {
    const hint = fs.querySelector('[data-hint]');
    const inputs = all('input[type=number]', fs);
    if (!hint) return;
    if (!hint.dataset.rest) hint.dataset.rest = hint.textContent;
    const known = inputs.map(num).filter((n) => n !== null);
    const total = known.reduce((t, n) => t + n, 0);
    const target = +fs.dataset.sum || TRICKS;
    let text = hint.dataset.rest, bad = false;
    if (known.length && (known.length < inputs.length || total !== target)) {
      text = total > target ? t('count.too_many', { total, target, over: total - target })
        : t('count.so_far', { total, target });
      bad = total > target || known.length === inputs.length;
    } else if (known.length === inputs.length) text = t('count.adds_up', { target });
    hint.textContent = text;
    hint.classList.toggle('is-bad', bad);
    pressed(fs);
  }
  // Each tap target says whether it is its player's count.
  function pressed(fs) {
    all('.count-chips', fs).forEach((row) => {
      const input = d.getElementById(row.dataset.for);
      all('button', row).forEach((c) => c.setAttribute('aria-pressed', String(input && input.value === c.value)));
    });
  }

  // Tap targets 0-13 (drawn by the server) under one player at a time: the wrong count's, else the
  // first still empty.
  const blank = (r) => r.querySelector('input').value === '';
  function chips(fs) {
    const rows = all('.number-row', fs);
    now(fs, rows.find((r) => r.matches('.is-wrong')) || rows.find(blank) || rows[0]);
    forbid(fs);
    progress(fs);
  }
  function now(fs, row) {
    const id = row && row.querySelector('input').id;
    all('.count-chips', fs).forEach((c) => c.classList.toggle('now', c.dataset.for === id));
  }
  // After a tap: the next player without a count (round the table), else the same one. A correction's
  // counts are all there from the start: on to the next player's line (the next count's first), the
  // last one staying.
  function next(fs, row) {
    const rows = all('.number-row', fs), at = rows.indexOf(row), form = fs.form;
    const empty = rows.slice(at + 1).concat(rows.slice(0, at)).find(blank);
    if (!empty && form && form.dataset.form === 'correct') {
      const lines = all('fieldset.numbers .number-row', form), after = lines[lines.indexOf(row) + 1];
      if (after) all('fieldset.numbers', form).forEach((set) => now(set, set.contains(after) ? after : null));
      return;
    }
    now(fs, empty || row);
    flow(form);
  }
  // A form with several counts (Kierki's robber: tricks, hearts, queens, kings and jacks) opens the
  // taps of one at a time: the first with a count still empty (or wrong); the others stay closed
  // until a tap on a player's line opens them.
  function flow(form) {
    const sets = form ? all('fieldset.numbers', form) : [];
    if (sets.length < 2) return;
    const open = sets.find((fs) => fs.querySelector('.is-wrong') || all('.number-row', fs).some(blank));
    if (!open && form.dataset.form === 'correct') {
      // A correction has every count already: the taps stay where they are (one player's at a time).
      const shown = sets.find((fs) => fs.querySelector('.count-chips.now'));
      sets.forEach((fs) => { if (fs !== shown) now(fs, null); });
      return;
    }
    sets.forEach((fs) => {
      if (fs !== open) now(fs, null);
      else if (!fs.querySelector('.count-chips.now')) now(fs, all('.number-row', fs).find(blank));
    });
  }

  // The bid the engine denies the dealer (from the server's preview): said once, at the
  // dealer, and its tap target cannot be chosen.
  function forbid(fs) {
    const dealer = fs.querySelector('input[data-dealer]');
    if (!dealer) return;
    const bid = dealer.dataset.forbidden;
    const box = fs.querySelector(`.count-chips[data-for="${dealer.id}"]`);
    if (box) all('button', box).forEach((c) => { c.disabled = bid !== undefined && c.value === bid; });
    const note = fs.querySelector('[data-forbidden-note]');
    if (note && !fs.querySelector('.is-wrong')) note.hidden = bid === undefined;
    pressed(fs);
  }

  // The deal's scores before saving: the server scores the form as it stands (a dry run of
  // the same save), so the page never holds a copy of the scoring rules.
  const signed = (n) => (n > 0 ? `+${n}` : n < 0 ? `\u2212${-n}` : '0');
  const previews = new WeakMap();
  function preview(form) {
    if (!form || !form.dataset.preview || !window.fetch) return;
    clearTimeout(previews.get(form));
    previews.set(form, setTimeout(async () => {
      const body = new FormData(form);
      body.set('form', form.dataset.form || 'tricks');
      let answer = null;
      try {
        const r = await fetch(form.dataset.preview, { method: 'POST', body, credentials: 'same-origin' });
        if (r.ok) answer = await r.json();
      } catch (err) { /* offline: the save still says what is wrong */ }
      if (answer) showPreview(form, answer);
    }, 120));
  }
  function showPreview(form, answer) {
    all('output[data-preview-seat]', form).forEach((out) => {
      const seat = +out.dataset.previewSeat;
      out.textContent = answer.scores ? `${signed(answer.scores[seat])} \u2192 ${signed(answer.totals[seat])}` : '';
      out.classList.toggle('is-minus', !!answer.scores && answer.scores[seat] < 0);
    });
    // Each player's score of a Kierki deal, in its own line under the facts.
    const strip = form.querySelector('.deal-preview');
    if (strip) strip.classList.toggle('is-shown', !!answer.scores);
    const error = answer.error, seats = (error && error.seats) || {};
    all('fieldset.numbers input[type=number]', form).forEach((input) => {
      const seat = input.closest('.number-row').dataset.seat, kind = input.closest('fieldset').dataset.kind;
      const wrong = error && error.field === kind && seat in seats;
      if (wrong) { input.setAttribute('aria-invalid', 'true'); input.dataset.previewWrong = '1'; }
      else if (input.dataset.previewWrong) { input.removeAttribute('aria-invalid'); delete input.dataset.previewWrong; }
    });
    const dealer = form.querySelector('input[data-dealer]');
    if (dealer) {
      const f = answer.forbidden;
      if (f) dealer.dataset.forbidden = String(f.bid); else delete dealer.dataset.forbidden;
      const note = form.querySelector('[data-forbidden-note]');
      if (note && f) note.textContent = f.message;
      forbid(dealer.closest('fieldset'));
    }
    // A sum that is not 13 is the counting hint's business; any other refusal is said here, at the
    // field it names where the form has one (Kierki's: the robber's king of hearts...).
    const say = error && !['tricks_sum', 'count_sum', 'hook_rule'].includes(error.code) ? error.message : '';
    const notes = all('[data-preview-note]', form);
    const at = say && (notes.find((n) => n.dataset.field === error.field) || notes.find((n) => !n.dataset.field) || notes[0]);
    notes.forEach((note) => {
      const mine = note === at;
      note.textContent = mine ? say : '';
      note.hidden = !mine;
      note.classList.toggle('is-bad', mine);
      const fs = note.closest('fieldset.takers');
      if (fs) fs.classList.toggle('is-wrong', mine);
    });
  }

  function enhance(root) {
    all('button[data-print]', root).forEach((e) => { e.hidden = false; });
    all('[data-forbidden-note], [data-hint], [data-preview-note]', root).forEach((e) => e.setAttribute('aria-live', 'polite'));
    all('fieldset.numbers', root).forEach(chips);
    all('form', root).forEach(flow);
    // With a keyboard at hand (not a touch screen, whose keyboard would cover the taps), the
    // first count takes the focus once the contract is chosen.
    const first = root.querySelector && root.querySelector('.tricks-form input[type=number], .declare-form input[type=number]');
    if (first && matchMedia('(pointer: fine)').matches && !d.activeElement.matches('input')) first.focus();
  }

  d.addEventListener('click', (e) => {
    const t = e.target.closest ? e.target : null;
    const missed = t && t.closest('button.missed');
    if (missed) {
      // This player missed, so everyone else made the bid: theirs filled in, this one's the rest.
      const scope = missed.closest('form') || d;
      let others = 0;
      all('button.made-bid', scope).forEach((made) => {
        if (made.dataset.target === missed.dataset.target) return;
        const box = d.getElementById(made.dataset.target);
        box.value = made.value;
        others += +made.value;
        box.dispatchEvent(new Event('input', { bubbles: true }));
      });
      const mine = d.getElementById(missed.dataset.target), rest = TRICKS - others;
      mine.value = rest >= 0 && rest <= TRICKS ? String(rest) : '';
      mine.dispatchEvent(new Event('input', { bubbles: true }));
      return;
    }
    const chip = t && t.closest('.count-chips button, button.made-bid');
    if (chip) {
      const target = d.getElementById(chip.dataset.target || chip.closest('.count-chips').dataset.for);
      target.value = chip.value;
      target.dispatchEvent(new Event('input', { bubbles: true }));
      // On to the next player, from a tap target or from "made the bid" alike.
      const fs = target.closest('fieldset.numbers');
      if (fs) next(fs, target.closest('.number-row'));
      return;
    }
    // A tap on a player's line opens their taps (the box itself takes typing).
    const line = t && t.closest('fieldset.numbers .number-row');
    if (line && !t.closest('input, button')) {
      e.preventDefault();
      const form = line.closest('form');
      if (form) all('fieldset.numbers', form).forEach((fs) => { if (!fs.contains(line)) now(fs, null); });
      now(line.closest('fieldset'), line);
      return;
    }
    if (t && t.closest('button[data-print]')) window.print();
  });

  d.addEventListener('input', (e) => {
    const fs = e.target.closest && e.target.closest('fieldset.numbers');
    if (!fs) return;
    delete e.target.dataset.auto; // touched by the user: theirs now
    if (e.target.value === '') e.target.dataset.own = '1'; else delete e.target.dataset.own;
    if (fs.dataset.sum) autofill(fs);
    else forbid(fs);
    preview(e.target.form);
  });
  // A player or a suit tapped (Kierki's king of hearts, trumps...): the deal's scores again.
  d.addEventListener('change', (e) => {
    if (e.target.matches && e.target.matches('fieldset.takers input[type=radio]')) preview(e.target.form);
  });

  // A filled-in count is a suggestion: focused, it is selected, so typing replaces it.
  d.addEventListener('focusin', (e) => {
    if (e.target.matches && e.target.matches('fieldset.numbers input[type=number]')) {
      now(e.target.closest('fieldset'), e.target.closest('.number-row'));
      try { e.target.select(); } catch (err) { /* number inputs in some browsers */ }
    }
  });
  // Enter moves on to the next count, and saves from the last one.
  d.addEventListener('keydown', (e) => {
    if (e.key !== 'Enter' || !e.target.matches || !e.target.matches('fieldset.numbers input[type=number]')) return;
    const inputs = all('fieldset.numbers input[type=number]', e.target.form || d);
    const next = inputs[inputs.indexOf(e.target) + 1];
    if (next) { e.preventDefault(); next.focus(); }
  });

  enhance(d);
  // A refused post draws the game page at the post's address: the address becomes the game's,
  // so reloading opens the game instead of posting the form again.
  if (b.dataset.address && location.pathname !== b.dataset.address) {
    history.replaceState(null, '', b.dataset.address + location.hash);
  }
  // Right after Save: the deal's undo near the top, for a few seconds (the same confirmed undo as
  // below the log). Opened, it stays until it is closed or used.
  const undoNow = d.querySelector('[data-undo-now]');
  if (undoNow) {
    undoNow.hidden = false;
    const box = undoNow.querySelector('details');
    const gone = () => { if (!box.open) undoNow.remove(); };
    setTimeout(() => { gone(); box.addEventListener('toggle', gone); }, +undoNow.dataset.undoNow || 8000);
  }
  // The step at hand in view: at #turn or #final (after a correction) that card under the scoreboard;
  // else scrolled so the step's last control shows (with room for the dealer's forbidden bid, said
  // above it once known), never past the step's top; with the hash, at the card's top (or the undo
  // above it, while shown).
  function stepInView(card, atTop) {
    const board = d.querySelector('section.scoreboard');
    if (!card || !board) return;
    const under = board.offsetHeight + 6, top = (e) => e.getBoundingClientRect().top + scrollY;
    const upper = top(undoNow && undoNow.isConnected ? undoNow : card) - under;
    const last = !atTop && all('form button[type=submit]', card).pop();
    const room = card.querySelector('[data-forbidden-note]') ? 56 : 8;
    const lowest = last ? Math.max(upper, top(last.form) - under) : upper;
    let by = last ? Math.min(top(last) + last.offsetHeight + room - innerHeight, lowest) : upper;
    // Never a heading cut in two under the scoreboard: scrolled past it whole (the roles line under
    // it says who deals and chooses) while the form's top stays in view, else not scrolled into it.
    const head = card.querySelector('.card-head');
    if (head && by > top(head) - under && by < top(head) + head.offsetHeight - under) {
      const past = top(head) + head.offsetHeight - under;
      by = past <= lowest ? past : top(head) - under;
    }
    // A refusal shown in the step (a long robber's king of hearts): its message in view, whatever else,
    // and a player's count refused (the dealer's forbidden bid) with its line and taps above it.
    const wrong = last && card.querySelector('form .error[role=alert]:not([hidden])');
    const fix = wrong && (card.querySelector('form .number-row.is-wrong') || wrong);
    if (wrong && (top(fix) < by + under || top(wrong) + wrong.offsetHeight > by + innerHeight)) by = top(fix) - under - 8;
    if (by > 0) scrollTo(0, by);
  }
  if (/^(#turn|#final|)$/.test(location.hash) && (location.hash || !scrollY)) {
    stepInView(d.getElementById(location.hash.slice(1) || 'turn'), !!location.hash);
  }
  // A correction page: its deal's scores as they stand, and a refusal opened at what was refused (the
  // player's line with its taps above the message, else the message).
  const correction = d.querySelector('form[data-form=correct]');
  if (correction) {
    preview(correction);
    const refusal = correction.querySelector('.number-row.is-wrong') || d.querySelector('.error[role=alert]');
    if (refusal) scrollTo(0, refusal.getBoundingClientRect().top + scrollY - 8);
  }
  // The offline entry's card, drawn anew after a deal is kept on the phone, is put in view alike.
  d.addEventListener('sk:step', (e) => stepInView(e.target, false));
  // Parts drawn later (the offline entry) ask for the same enhancements.
  d.addEventListener('sk:enhance', (e) => enhance(e.target));

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

  if (!b.classList.contains('game-page')) return;

  // Deals entered without a connection (kept on the phone, sent when it is back).
  // At once where a deal may be entered next (or the phone is offline, or the worker just kept a
  // Save); on a watching phone or a finished game only once the page is idle, so the 40 kB script
  // never holds up the first screen there.
  if (b.dataset.offline && window.fetch) {
    const loadOffline = () => {
      // queue.js (the queue's logic) first, then offline.js: in that order, as scripts added here run.
      [b.dataset.queue, b.dataset.offline].filter(Boolean).forEach((src) => {
        const script = d.createElement('script');
        script.src = src;
        script.async = false;
        d.head.append(script);
      });
    };
    const needed = (b.dataset.editable === '1' && !b.dataset.finished) || navigator.onLine === false || location.hash === '#kept';
    if (needed) loadOffline();
    else window.addEventListener('load', () => {
      if (window.requestIdleCallback) requestIdleCallback(loadOffline, { timeout: 4000 });
      else setTimeout(loadOffline, 1500);
    });
  }
  const https = d.querySelector('[data-https-note]');
  if (https && !window.isSecureContext) {
    // Said once on this phone: entering deals offline across a reload needs the service worker.
    try {
      if (!localStorage.getItem('sk-https-note')) { https.hidden = false; localStorage.setItem('sk-https-note', '1'); }
    } catch (err) { /* storage refused: say nothing */ }
  }

  // A finished game's standings as a picture: its script, fetched at the first tap, takes the button over.
  const standings = d.querySelector('[data-standings]');
  if (standings) {
    standings.hidden = false;
    standings.onclick = () => { const s = d.createElement('script'); s.src = standings.dataset.standings; d.head.append(s); };
  }

  // A short message at the foot of the screen that pushes nothing aside.
  const toast = (...parts) => {
    let box = d.getElementById('toast');
    if (!box) {
      box = d.createElement('p');
      box.id = 'toast';
      box.className = 'flash flash-info toast';
      box.setAttribute('role', 'status');
      b.append(box);
    }
    box.replaceChildren(...parts);
    box.hidden = false;
    return box;
  };

  // Keep the screen on while the phone lies on the table. The Wake Lock API needs a secure
  // context; served over plain http on the Wi-Fi it is missing, and a muted, looping blank
  // video from our own origin does the same job (as NoSleep.js does), started by a tap.
  let video = null;
  const note = d.querySelector('[data-awake-note]');
  const awakeByVideo = () => {
    if (!b.dataset.awake) return;
    if (!video) {
      video = d.createElement('video');
      video.muted = true;
      video.loop = true;
      video.setAttribute('playsinline', '');
      video.setAttribute('muted', '');
      ['webm', 'mp4'].forEach((type) => {
        const source = d.createElement('source');
        source.src = `${b.dataset.awake}.${type}`;
        source.type = `video/${type}`;
        video.append(source);
      });
    }
    video.play().then(() => { if (note) note.hidden = true; })
      .catch(() => { if (note) note.hidden = false; });
  };
  const wake = () => {
    if (d.hidden) return;
    if (navigator.wakeLock) navigator.wakeLock.request('screen').catch(() => {});
    else if (video && !video.paused) return;
    else awakeByVideo();
  };
  wake();
  if (!navigator.wakeLock) {
    // A video may only start from a tap: the first one on the page starts it.
    d.addEventListener('pointerdown', wake, { passive: true });
    d.addEventListener('keydown', wake);
  }

  // Share: the phone's own share sheet, else the link copied, else the panel with the QR codes.
  const copy = (text) => {
    if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text);
    const area = d.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.className = 'visually-hidden';
    b.append(area);
    area.select();
    const done = d.execCommand('copy');
    area.remove();
    return done ? Promise.resolve() : Promise.reject(new Error('copy'));
  };
  const openPanel = () => {
    const panel = d.getElementById('share');
    const details = panel && panel.closest('details');
    if (details) { details.open = true; details.scrollIntoView({ block: 'start' }); }
  };
  d.addEventListener('click', (e) => {
    const button = e.target.closest && e.target.closest('[data-share]');
    if (!button) return;
    e.preventDefault();
    const url = button.dataset.share;
    if (navigator.share) {
      navigator.share({ title: d.title, url }).catch((err) => { if (err && err.name !== 'AbortError') openPanel(); });
      return;
    }
    copy(url).then(() => {
      const box = toast(t('share.copied'));
      setTimeout(() => { box.hidden = true; }, 4000);
    }).catch(openPanel);
  });

  // Live updates: conditional GETs, answered 304 while nothing changed.
  const live = d.getElementById('live');
  const period = parseInt(b.dataset.poll, 10);
  let timer = 0, running = false, fresh = null, notice = null, later = 0;
  // The page's own tag, as the server wrote it on the page (data-etag).
  let etag = b.dataset.etag || '';
  const busy = () => {
    const a = d.activeElement;
    return (a && live.contains(a) && a.matches('input, select, textarea')) ||
      !!live.querySelector('details[open]') || all('input[type=number]', live).some((i) => i.value !== '') ||
      !!live.querySelector('form input[type=radio]:checked');
  };
  const apply = () => {
    if (!fresh) return;
    if (busy()) {
      // At the foot of the screen, over the page: the form being typed into does not move.
      if (!notice) {
        const reload = d.createElement('a');
        reload.href = '';
        reload.textContent = t('live.reload');
        notice = toast(`${t('live.updated')} `, reload);
      }
      return;
    }
    live.innerHTML = fresh.getElementById('live').innerHTML;
    ['version', 'editable', 'etag'].forEach((k) => { if (fresh.body.dataset[k]) b.dataset[k] = fresh.body.dataset[k]; });
    fresh = null;
    if (notice) { notice.hidden = true; notice = null; }
    // "Deal 12 recorded." is old news once deal 13 arrived from another phone.
    all('.flashes').forEach((box) => box.remove());
    enhance(live);
    d.dispatchEvent(new CustomEvent('sk:live'));
  };
  const poll = async () => {
    if (running || d.hidden || navigator.onLine === false) { schedule(); return; }
    running = true;
    // A network that takes the request and never answers must not stop the updates for good.
    const stop = window.AbortController ? new AbortController() : null;
    const limit = stop && setTimeout(() => stop.abort(), 10000);
    try {
      const r = await fetch(location.pathname, {
        headers: etag ? { 'If-None-Match': etag, 'X-Scorekeeper-Poll': '1' } : { 'X-Scorekeeper-Poll': '1' },
        cache: 'no-store', credentials: 'same-origin', signal: stop && stop.signal });
      if (r.status === 200) {
        const doc = new DOMParser().parseFromString(await r.text(), 'text/html');
        if (doc.getElementById('live')) fresh = doc;
      }
      if (r.status === 200 || r.status === 304) {
        etag = r.headers.get('ETag') || etag;
        d.dispatchEvent(new CustomEvent('sk:fresh'));
      }
      // A busy server asks its phones to come back later (503, Retry-After: seconds): the next poll waits that long.
      const wait = r.status === 503 ? parseInt(r.headers.get('Retry-After'), 10) : 0;
      later = wait > 0 ? Math.min(wait, 60) * 1000 : 0;
    } catch (err) { /* offline: try again next time */ }
    clearTimeout(limit);
    running = false;
    apply();
    schedule();
  };
  const schedule = () => {
    clearTimeout(timer);
    if (!d.hidden) timer = setTimeout(poll, Math.max(period, later));
    later = 0;
  };
  const polling = live && period > 0 && window.fetch && window.DOMParser;
  d.addEventListener('visibilitychange', () => {
    if (d.hidden) { clearTimeout(timer); return; }
    wake();
    if (polling) poll();
  });
  if (polling) schedule();
  // The offline entry sent what it kept: the page is drawn again from the server.
  d.addEventListener('sk:refresh', () => { if (polling) poll(); else if (live && !busy()) location.reload(); });
})();
