/* Scorekeeper: the count entry of the game page and the correction page (web/_entry.html,
   macros.per_player_inputs): counts that add up, tap targets under one player at a time, the
   dealer's forbidden bid and the deal's scores as the server's dry run gives them, the step at
   hand in view. Parts drawn later (the live update, the offline entry) ask for the same with
   sk:enhance. Loaded after app.js, whose t it speaks through. */
(() => {
  'use strict';
  const d = document, b = d.body;
  const t = self.Scorekeeper.t;
  const all = (sel, root) => Array.from((root || d).querySelectorAll(sel));
  const num = (i) => (/^\d+$/.test(i.value.trim()) ? +i.value : null);
  // The tricks in a deal, as the page says (data-tricks); 13 on a page that does not say.
  const TRICKS = +b.dataset.tricks || 13;
  const sum = (ns) => (ns.includes(null) ? null : ns.reduce((s, n) => s + n, 0));

  // Counts add up (13 tricks, or whatever the fieldset's data-sum says): when all but one are known,
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
  // A form with several counts (tricks, and the other counts a deal may take) opens the
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
    // Each player's score of a deal entered by its facts, in its own line under them.
    const strip = form.querySelector('.deal-preview');
    if (strip) strip.classList.toggle('is-shown', !!answer.scores);
    // What each double moves, as the server says it ("Celina × Bartek R: +32").
    const settled = form.querySelector('[data-preview-pairs]');
    if (settled) {
      settled.textContent = (answer.pairs || []).join(' \u00b7 ');
      settled.hidden = !settled.textContent;
    }
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
    // field it names where the form has one (a player who took this or that).
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

  // Doubles (a game's side bets, web/_entry.html's pairs): the server draws only those the contract allows.
  // A tap doubles; a second tap on the same pair, either way round, is the redouble; a third clears it.
  // Without the script each redouble has its own box; with it, that box is set by the taps.
  const againOf = (form, value) => form.querySelector(`.pair-again[data-again="${value}"] input`);
  const pairOf = (form, value) => form.querySelector(`label.pair[data-pair="${value}"] input`);
  function pairShown(form) {
    all('label.pair', form).forEach((label) => {
      const again = againOf(form, label.dataset.pair);
      label.classList.toggle('is-again', !!again && again.checked && label.querySelector('input').checked);
    });
  }
  function pairTapped(input) {
    const form = input.form, label = input.closest('label.pair');
    const again = againOf(form, label.dataset.pair), back = pairOf(form, label.dataset.back);
    if (input.checked && back && back.checked) {
      // The other player of a doubled pair taps it: the redouble, then nothing.
      input.checked = false;
      const backAgain = againOf(form, label.dataset.back);
      if (backAgain && !backAgain.checked) backAgain.checked = true;
      else { back.checked = false; if (backAgain) backAgain.checked = false; }
    } else if (!input.checked && again && !again.checked) {
      input.checked = true;
      again.checked = true;
    } else if (!input.checked && again) again.checked = false;
    pairShown(form);
    preview(form);
  }

  function enhance(root) {
    all('.pair-again', root).forEach((box) => { box.hidden = true; });
    all('.pair-all', root).forEach((button) => { button.hidden = false; });
    all('form', root).forEach(pairShown);
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
    // "Maximum": every double of the row not made yet (a pair already doubled either way stays as it is).
    const most = t && t.closest('button.pair-all');
    if (most) {
      const form = most.form;
      all('label.pair', most.closest('.pair-row')).forEach((label) => {
        const input = label.querySelector('input'), back = pairOf(form, label.dataset.back);
        if (!input.checked && !(back && back.checked)) input.checked = true;
      });
      pairShown(form);
      preview(form);
      return;
    }
    // A tap on a player's line opens their taps (the box itself takes typing).
    const line = t && t.closest('fieldset.numbers .number-row');
    if (line && !t.closest('input, button')) {
      e.preventDefault();
      const form = line.closest('form');
      if (form) all('fieldset.numbers', form).forEach((fs) => { if (!fs.contains(line)) now(fs, null); });
      now(line.closest('fieldset'), line);
    }
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
  // A player or a suit tapped (who took this or that, the trump suit): the deal's scores again.
  // Players in an order of as many places as players (the Domino's going-out order): once all places but
  // one are tapped, each player once, the last place is whoever is left.
  function lastPlace(input) {
    const at = /^(.+)-(\d+)$/.exec(input.name), form = input.form;
    if (!at || !form) return;
    const places = all(`fieldset.takers[data-field="${at[1]}"]`, form);
    const players = places.length ? all('input', places[0]).map((i) => i.value) : [];
    if (places.length < 2 || places.length !== players.length) return;
    const chosen = places.map((fs) => fs.querySelector('input:checked'));
    const open = chosen.filter((c) => !c);
    const taken = chosen.filter(Boolean).map((c) => c.value);
    if (open.length !== 1 || new Set(taken).size !== taken.length) return;
    const left = players.find((p) => !taken.includes(p));
    const box = places[chosen.indexOf(null)].querySelector(`input[value="${left}"]`);
    if (box) box.checked = true;
  }

  d.addEventListener('change', (e) => {
    if (e.target.matches && e.target.matches('fieldset.takers input[type=radio]')) { lastPlace(e.target); preview(e.target.form); }
    else if (e.target.matches && e.target.matches('label.pair input')) pairTapped(e.target);
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
    // Room for what the server's preview will say above it: the dealer's forbidden bid, what each double moves.
    const room = card.querySelector('[data-forbidden-note], [data-preview-pairs]') ? 56 : 8;
    const lowest = last ? Math.max(upper, top(last.form) - under) : upper;
    let by = last ? Math.min(top(last) + last.offsetHeight + room - innerHeight, lowest) : upper;
    // Never a heading cut in two under the scoreboard: scrolled past it whole (the roles line under
    // it says who deals and chooses) while the form's top stays in view, else not scrolled into it.
    const head = card.querySelector('.card-head');
    if (head && by > top(head) - under && by < top(head) + head.offsetHeight - under) {
      const past = top(head) + head.offsetHeight - under;
      by = past <= lowest ? past : top(head) - under;
    }
    // A refusal shown in the step (below a long list of taps): its message in view, whatever else,
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
  // The offline entry's card, drawn anew after a deal is queued on the phone, is put in view alike.
  d.addEventListener('sk:step', (e) => stepInView(e.target, false));
  // Parts drawn later (the offline entry) ask for the same enhancements.
  d.addEventListener('sk:enhance', (e) => enhance(e.target));
})();
