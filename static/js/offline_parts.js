/* Scorekeeper: the offline entry's parts, for offline.js (the game page's deals kept on this
   phone): the entry card, the correction, the log's rows, the undo and the panel of a change that
   waits for the scorer. Every element is cloned from the page's own drawing, <template
   id="offline-…"> (templates/web/_offline_templates.html), and its text slots filled in; none is
   drawn here. What a form holds is read back as a kept change's facts (bids and counts by seat,
   a player by name). Loaded after queue.js and before offline.js. */
// The parts of the game page whose offline plan is `page.plan` (#offline-plan, as last read).
self.ScorekeeperOfflineParts = function (page) {
  'use strict';
  const d = document, Q = self.ScorekeeperQueue;
  // The page's texts, in its language: app.js's t, over templates/_ui_strings.html (offline.* keys).
  const t = self.Scorekeeper.t;
  const name = (seat) => page.plan.players[seat];
  const slot = (number) => page.plan.schedule[number - 1];
  const label = (id) => page.plan.contracts[id] || id;
  const shown = (count) => (count == null ? '?' : count); // a count left blank
  // A suit's mark as the page draws it on the suit's tap (#offline-numbers, fieldset.suits).
  const suitMark = (id) => {
    const box = d.getElementById('offline-numbers');
    const mark = box && box.content.querySelector(`fieldset.suits input[value="${id}"] ~ .suit`);
    return mark ? mark.textContent : '';
  };
  // A deal's contract as the log names it: a trump deal with its suit.
  // The suit named in a deal (the plan's `suit`: the fact of a suit named before the cards are played).
  const named = (deal) => (page.plan.suit && deal ? deal[page.plan.suit] : null);
  const contractName = (deal) => label(deal.contract) + (named(deal) ? ` ${suitMark(named(deal))}` : '');
  // What a tap fieldset (web/_entry.html's takers and suits) gives, as its markup says: the suit
  // itself (.suits), else a player by name; a place in an order of players where its inputs are
  // named `field-N` (a fieldset per place, N from 0).
  const isSuit = (fs) => fs.classList.contains('suits');
  const placeOf = (fs) => {
    const input = fs.querySelector('input'), at = input && /-(\d+)$/.exec(input.name);
    return at && input.name !== fs.dataset.field ? +at[1] : null;
  };
  // A deal's facts: the schedule's, or its contract's where the contract decides them (plan.by_contract).
  const fieldsOf = (number, contract) => (page.plan.by_contract && contract && page.plan.by_contract[contract]) || slot(number).fields;
  // A deal whose facts are entered on one card (the engine's list for the deal).
  const factsCard = (number, contract) => fieldsOf(number, contract).length > 0;

  function contractsLeft(deals, chooser) {
    const left = page.plan.remaining[chooser].slice();
    page.plan.deals.forEach((deal) => { if (slot(deal.number).chooser === chooser) left.push(deal.contract); });
    deals.forEach((deal) => {
      if (slot(deal.number).chooser !== chooser) return;
      const at = left.indexOf(deal.contract);
      if (at >= 0) left.splice(at, 1);
    });
    return left;
  }
  // The server's drawing of a part, cloned: <template id="offline-…"> (templates/web/_offline_templates.html).
  const drawn = (id, selector) => {
    const box = d.getElementById(id);
    return box ? Array.from(box.content.querySelectorAll(selector), (e) => e.cloneNode(true)) : [];
  };
  const dealPart = (number, selector) => {
    const box = d.getElementById('offline-deals');
    const part = box && box.content.querySelector(`[data-deal="${number}"] ${selector}`);
    return part ? part.cloneNode(true) : null;
  };

  // -- drawing ------------------------------------------------------------------------------
  // The counts of a deal, as the page draws them (#offline-numbers, in seat order): put in the deal's
  // bidding order, each seat given its role in the deal (#offline-deals).
  function numbers(kind, number, values, prefix, pending) {
    const s = slot(number), box = d.getElementById('offline-numbers');
    const source = box && box.content.querySelector(`fieldset[data-kind="${kind}"]`);
    if (!source) return d.createDocumentFragment();
    const fs = source.cloneNode(true);
    // As the page orders them: the counts of a deal with bids in its bidding order, others by seat.
    const order = s.bidding_order.length ? s.bidding_order : page.plan.players.map((_, seat) => seat);
    const end = fs.querySelector('[data-hint]');
    // A deal without bids is said to be one, as the page says it when it declares the deal.
    const unbid = kind === 'tricks' && !pending && !values && !s.bidding_order.length && box.content.querySelector('[data-unbid]');
    if (unbid && end) { end.textContent = unbid.textContent; }
    order.forEach((seat) => {
      const row = fs.querySelector(`.number-row[data-seat="${seat}"]`);
      const chips = row.nextElementSibling;
      // A seat's role beside its counts (each as beside its tricks).
      let what = dealPart(number, `.what[data-what="${kind}-${seat}"]`) || (kind !== 'bids' && dealPart(number, `.what[data-what="tricks-${seat}"]`));
      if (what) what.dataset.what = `${kind}-${seat}`;
      if (kind === 'tricks' && pending) {
        // A kept pending deal: the seat's role with its bid, or its quota (the plan's, the engine's).
        const quotas = s.quotas && s.quotas[pending.contract];
        const key = pending.bids ? `[data-bid="${pending.bids[seat]}"]` : quotas ? `[data-quota="${quotas[seat]}"]` : null;
        const said = key && drawn('offline-seat-what', `[data-role="${s.roles[seat]}"]${key} .what`)[0];
        if (said) { said.dataset.what = `${kind}-${seat}`; what = said; }
      }
      if (what) row.querySelector('.what').replaceWith(what);
      const dealer = s.roles[seat] === 'dealer';
      row.classList.toggle('is-dealer', dealer);
      const input = row.querySelector('input');
      input.defaultValue = values && values[seat] != null ? String(values[seat]) : '';
      fs.insertBefore(row, end);
      if (chips && chips.classList.contains('count-chips')) fs.insertBefore(chips, end);
      if (kind === 'bids' && dealer) {
        input.dataset.dealer = '1';
        const note = box.content.querySelector(':scope > [data-forbidden-note]');
        if (note) fs.insertBefore(note.cloneNode(true), end);
      }
      if (kind === 'tricks' && pending && pending.bids) {
        const made = drawn('offline-seat-what', `[data-seat="${seat}"][data-bid="${pending.bids[seat]}"] .made-bid-row`)[0];
        if (made) { row.insertBefore(made, row.querySelector('.stepper')); row.classList.add('has-bid'); }
      }
    });
    // Drawn as "offline-tricks-0"; a correction's copy is "offline-fix-tricks-0".
    const own = (id) => id.replace(/^offline-/, `${prefix}-`);
    fs.querySelectorAll('[id]').forEach((e) => { e.id = own(e.id); });
    fs.querySelectorAll('label[for]').forEach((e) => { e.htmlFor = own(e.htmlFor); });
    fs.querySelectorAll('[data-target]').forEach((e) => { e.dataset.target = own(e.dataset.target); });
    fs.querySelectorAll('[data-for]').forEach((e) => { e.dataset.for = own(e.dataset.for); });
    fs.querySelectorAll('[aria-pressed]').forEach((e) => e.setAttribute('aria-pressed', 'false'));
    return fs;
  }
  const read = (form, kind) => {
    const inputs = Array.from(form.querySelectorAll(`fieldset[data-kind="${kind}"] input[type=number]`));
    if (!inputs.length) return null;
    const values = page.plan.players.map(() => null);
    inputs.forEach((input) => { values[+input.name.split('-')[1]] = /^\d+$/.test(input.value.trim()) ? +input.value : null; });
    return values;
  };
  // A deal's facts (`fields`, the engine's list, in its order) as the page draws them
  // (#offline-numbers): counts as numbers() draws them, a player or the suit by one tap; `values`
  // (a deal's facts) fills them in, for a correction.
  // A deal's side bets as the page draws them for its chooser and contract (#offline-pairs), `bets`
  // ({by, against, redoubled} by name) tapped in, for a correction.
  function pairsField(number, contract, bets, prefix) {
    const fs = drawn('offline-pairs', `[data-chooser="${slot(number).chooser}"][data-contracts~="${contract}"] fieldset.pairs`)[0];
    if (!fs) return d.createDocumentFragment();
    const seat = (who) => page.plan.players.indexOf(who);
    fs.querySelectorAll('input').forEach((input) => {
      input.id = input.id.replace(/^offline-/, `${prefix}-`);
      const bet = (bets || []).find((b) => `${seat(b.by)}-${seat(b.against)}` === input.value.replace(/R$/, ''));
      input.defaultChecked = !!bet && (!input.value.endsWith('R') || bet.redoubled);
    });
    return fs;
  }
  function factsFields(number, fields, values, prefix, contract) {
    const box = d.getElementById('offline-numbers'), part = d.createDocumentFragment();
    fields.forEach((field) => {
      if (Q.BY_SEAT.includes(field)) { part.append(numbers(field, number, values && values[field], prefix)); return; }
      if (Q.FACT_BY_ID[field] && Q.FACT_BY_ID[field].kind === 'pairs') { part.append(pairsField(number, contract, values && values[field], prefix)); return; }
      box.content.querySelectorAll(`fieldset.takers[data-field="${field}"]`).forEach((source) => {
        const fs = source.cloneNode(true), at = placeOf(fs);
        const chosen = !values ? null : at !== null ? (values[field] || [])[at] : values[field];
        fs.querySelectorAll('input').forEach((input) => {
          input.id = input.id.replace(/^offline-/, `${prefix}-`);
          input.defaultChecked = chosen != null && (isSuit(fs) ? input.value === chosen : name(+input.value) === chosen);
        });
        part.append(fs);
      });
    });
    return part;
  }
  // A facts card's facts as the API takes them: counts by seat (a count left wholly blank is not
  // given: a trump deal saved with its suit alone), a player by name, an order of players by name
  // (not given when no place is tapped), the suit.
  function readFacts(form) {
    const out = {}, orders = new Set();
    form.querySelectorAll('fieldset[data-kind]').forEach((fs) => {
      const values = read(form, fs.dataset.kind);
      if (values && values.some((n) => n !== null)) out[fs.dataset.kind] = values;
    });
    form.querySelectorAll('fieldset.takers[data-field]').forEach((fs) => {
      const field = fs.dataset.field, chosen = fs.querySelector('input:checked'), at = placeOf(fs);
      const value = !chosen ? null : isSuit(fs) ? chosen.value : name(+chosen.value);
      if (at !== null) {
        orders.add(field);
        out[field] = out[field] || Array.from(form.querySelectorAll(`fieldset.takers[data-field="${field}"]`), () => null);
        out[field][at] = value;
      } else if (value !== null) out[field] = value;
    });
    orders.forEach((field) => { if (out[field].every((who) => who === null)) delete out[field]; });
    // Side bets by name ("1-0" posted as seats; a redouble its own box, "1-0R").
    form.querySelectorAll('fieldset.pairs[data-field]').forEach((fs) => {
      const ticked = Array.from(fs.querySelectorAll('input:checked'), (input) => input.value);
      out[fs.dataset.field] = ticked.filter((v) => !v.endsWith('R')).map((v) => {
        const [by, against] = v.split('-').map(Number);
        return { by: name(by), against: name(against), redoubled: ticked.includes(`${v}R`) };
      });
    });
    return out;
  }
  function forbidden(form, number) {
    const s = slot(number), bids = read(form, 'bids');
    if (!bids || s.hook_total == null) return null;
    const others = bids.filter((bid, seat) => seat !== s.dealer);
    if (others.includes(null)) return null;
    const bid = s.hook_total - others.reduce((a, n) => a + n, 0);
    return bid >= 0 && bid <= page.plan.tricks_per_deal ? bid : null;
  }
  function showForbidden(form, number) {
    const dealer = form.querySelector('input[data-dealer]');
    if (!dealer) return;
    const bid = forbidden(form, number), s = slot(number);
    if (bid === null) delete dealer.dataset.forbidden; else dealer.dataset.forbidden = String(bid);
    const chips = form.querySelector(`.count-chips[data-for="${dealer.id}"]`);
    if (chips) chips.querySelectorAll('button').forEach((c) => { c.disabled = bid !== null && c.value === String(bid); });
    const say = form.querySelector('[data-forbidden-note]');
    if (say) {
      say.hidden = bid === null;
      say.textContent = bid === null ? '' : t('offline.forbidden', { player: name(s.dealer), bid, total: s.hook_total });
    }
  }
  // What a form holds, checked for what a person can see at a glance (every box filled, every
  // player tapped, the counts add up), said at the field that is wrong; the rules themselves are
  // the server's, which judges the deal when it arrives.
  function check(form, number) {
    const error = form.querySelector('.offline-error');
    const say = (text, field) => {
      const legend = field && field.querySelector('legend');
      if (legend) legend.after(error);
      error.textContent = text;
      error.hidden = !text;
      return !text;
    };
    const suit = form.querySelector('fieldset.takers.suits');
    for (const fs of form.querySelectorAll('fieldset[data-kind]')) {
      const kind = fs.dataset.kind, values = read(form, kind);
      // A trump deal's tricks left wholly blank: its suit saved alone (the cards are being played).
      if (kind === 'tricks' && suit && values.every((n) => n === null)) continue;
      if (values.includes(null)) return say(t('offline.fill_all'), fs);
      // What the count adds up to, as the server drew it on the fieldset (data-sum; none for bids).
      const total = +fs.dataset.sum || null;
      if (total !== null && values.reduce((a, n) => a + n, 0) !== total) {
        return say(kind === 'tricks' ? t('offline.tricks_sum', { total })
          : t('offline.count_sum', { what: fs.querySelector('legend').textContent.trim(), total }), fs);
      }
      if (kind === 'bids' && values[slot(number).dealer] === forbidden(form, number)) {
        return say(t('offline.forbidden', { player: name(slot(number).dealer), bid: forbidden(form, number), total: slot(number).hook_total }), fs);
      }
    }
    const placed = {}; // each order's players so far: a player has one place in it
    for (const fs of form.querySelectorAll('fieldset.takers[data-field]')) {
      const field = fs.dataset.field, chosen = fs.querySelector('input:checked'), order = placeOf(fs) !== null;
      if (!chosen) return say(isSuit(fs) ? t('offline.tap_trumps') : order ? t('offline.places') : t('offline.tap_player'), fs);
      if (!order) continue;
      placed[field] = placed[field] || [];
      if (placed[field].includes(chosen.value)) return say(t('offline.places_twice', { player: name(+chosen.value) }), fs);
      placed[field].push(chosen.value);
    }
    return say('');
  }

  // A deal's words as the page says them (#offline-deals): its headings, its button, its legend.
  const dealText = (number, selector) => { const e = dealPart(number, selector); return e ? e.textContent : ''; };
  // A part of the page's drawing, cloned, its text slots filled: text only, never markup.
  const fill = (root, selector, text) => {
    const e = root.querySelector(selector);
    if (!e) return null;
    if (text === null) { e.remove(); return null; }
    e.textContent = text;
    return e;
  };
  // What a seat took in a deal, as the log says it short, each fact as the plan says it in the order
  // the table enters them (a count's "5 tr", "4 ♥"; a taker's "K♥"; an order's "1st out");
  // "playing…" while the deal is played.
  function took(deal, seat) {
    if (!Q.complete(deal)) return t('offline.playing');
    const who = name(seat), bits = [];
    // The plan's texts are in the page's language already; a count's leaves its number to fill in.
    page.plan.facts.forEach((fact) => {
      const value = deal[fact.id];
      if (value == null) return;
      if (fact.kind === 'count') bits.push(fact.short.replace(/%\(tricks\)s/g, shown(value[seat])));
      else if (fact.kind === 'player' && value === who) bits.push(fact.short);
      else if (fact.kind === 'order') value.forEach((out, place) => { if (out === who) bits.push(fact.places_short[place]); });
    });
    // Each item kept whole on its line ("2 Q", "1st out"), as the page's log keeps them.
    return bits.map((bit) => bit.replace(/ /g, '\u00a0')).join(' ');
  }
  function describe(deal) {
    if (!deal) return '';
    const figures = page.plan.players.map((who, seat) => {
      const bits = [];
      if (deal.bids) bits.push(t('offline.bid_short', { bid: shown(deal.bids[seat]) }));
      bits.push(took(deal, seat));
      return [who, bits.filter(Boolean).join(', ')].filter(Boolean).join(' ');
    });
    return `${contractName(deal)}: ${figures.join(' · ')}`;
  }

  function logBody() {
    let table = d.querySelector('#live table.log');
    if (!table) {
      const section = d.getElementById('log-heading') && d.getElementById('log-heading').closest('section');
      const wrap = drawn('offline-log', 'div.table-wrap')[0];
      if (!section || !wrap) return null;
      const empty = section.querySelector('p.empty');
      if (empty) { empty.hidden = true; empty.dataset.offlineHidden = '1'; }
      section.querySelector('h2').after(wrap);
      table = wrap.querySelector('table');
    }
    return table.tBodies[0];
  }
  // A deal kept on this phone, in the log (#offline-log-row): its figures as entered, not scored.
  function row(deal, badge, id) {
    const tr = drawn('offline-log-row', 'tr')[0];
    tr.id = id || `offline-deal-${deal.number}`;
    if (!Q.complete(deal)) tr.classList.add('pending');
    fill(tr, 'th', String(deal.number));
    fill(tr, '.contract-name', contractName(deal));
    const who = dealPart(deal.number, 'span.deal-who');
    if (who) tr.querySelector('span.deal-who').replaceWith(who);
    fill(tr, '.badge', badge);
    const fix = tr.querySelector('button.fix');
    if (badge === t('offline.undo_not_sent')) fix.remove();
    else {
      fix.dataset.offlineCorrect = deal.number;
      fix.setAttribute('aria-label', t('offline.correct_deal', { number: deal.number }));
    }
    tr.querySelectorAll('td.fig').forEach((td, seat) => {
      fill(td, '.bid', deal.bids ? t('offline.bid_short', { bid: shown(deal.bids[seat]) }) : null);
      fill(td, '.tricks', took(deal, seat));
    });
    return tr;
  }
  function drawLog(m) {
    d.querySelectorAll('.offline-row').forEach((e) => e.remove());
    d.querySelectorAll('[data-offline-hidden]').forEach((e) => { e.hidden = false; delete e.dataset.offlineHidden; });
    const body = logBody();
    if (!body) return;
    const place = (tr, number) => {
      const server = d.getElementById(`deal-${number}`);
      if (server) { server.after(tr); server.hidden = true; server.dataset.offlineHidden = '1'; } else body.append(tr);
    };
    m.deals.forEach((deal) => {
      if (deal.op) place(row(deal, deal.corrected ? t('offline.correction_not_sent') : t('offline.not_sent')), deal.number);
      else if (!d.getElementById(`deal-${deal.number}`)) place(row(deal, t('offline.sent_row')), deal.number);
    });
    // Its own id: the deal played again in its place has the deal's.
    m.undone.forEach((deal) => place(row(deal, t('offline.undo_not_sent'), `offline-undone-${deal.number}`), deal.number));
    // A deal the server has but this phone undid: drawn struck through until sent.
  }

  // The entry card as the page draws it for the deal the table is on (#offline-card, web/_entry.html).
  function entryCard(number) {
    const card = drawn('offline-card', 'section.offline-card')[0];
    const form = card.querySelector('form');
    form.dataset.number = number;
    card.querySelectorAll('ol.schedule > li').forEach((li, i) => {
      li.className = i + 1 === number ? 'now' : i + 1 < number ? 'done' : '';
      if (i + 1 === number) li.setAttribute('aria-current', 'step');
    });
    return { card, form, heading: card.querySelector('h1'), error: form.querySelector('.offline-error'), actions: form.querySelector('p.actions') };
  }
  function entryForm(m, chosen) {
    const deals = m.deals, last = deals[deals.length - 1];
    const pending = last && !Q.complete(last) ? last : null;
    const number = pending ? pending.number : deals.length + 1;
    const { card, form, heading, error, actions } = entryCard(number);
    if (number > page.plan.deal_count) {
      card.replaceChildren(...drawn('offline-card', 'p[data-finished]'));
      return card;
    }
    const s = slot(number);
    // A chooser's last contract is chosen already: its counts at once, as online.
    const left = !pending && s.chooser !== null ? contractsLeft(deals, s.chooser) : [];
    const only = left.length === 1 ? left[0] : chosen && chosen.number === number && left.includes(chosen.contract) ? chosen.contract : null;
    // As online: who deals and leads under the heading, what the contract asks under the form.
    const contract = pending ? pending.contract : s.contract || only;
    const roles = dealPart(number, 'p.roles'), asks = contract && drawn('offline-descriptions', `[data-contract="${contract}"]`)[0];
    if (roles) card.querySelector('.card-head').after(roles);
    if (asks) form.after(asks);
    const save = actions.querySelector('button');
    if (factsCard(number, contract)) {
      // As online: every fact of the deal on one card; a trump deal's suit may be saved alone, its
      // tricks then asked on their own (and a declaration the deal was made without).
      const fields = fieldsOf(number, contract);
      heading.textContent = dealText(number, named(pending) ? `[data-text="pending"][data-trumps="${named(pending)}"]`
        : contract && page.plan.by_contract ? `[data-text="pending"][data-contract="${contract}"]` : '[data-text="declare"]');
      form.dataset.step = pending ? 'tricks' : 'facts';
      if (!pending && contract) form.dataset.contract = contract;
      form.insertBefore(factsFields(number, pending ? fields.filter((f) => !Q.DECLARATION.includes(f) || pending[f] == null) : fields, null, 'offline', contract), error);
      save.textContent = dealText(number, '[data-text="save"]');
    } else if (pending) {
      heading.textContent = dealText(number, `[data-text="pending"][data-contract="${pending.contract}"]`);
      form.dataset.step = 'tricks';
      form.insertBefore(numbers('tricks', number, null, 'offline', pending), error);
      save.textContent = dealText(number, '[data-text="save"]');
    } else if (only) {
      heading.textContent = dealText(number, `[data-text="pending"][data-contract="${only}"]`);
      form.dataset.step = 'tricks';
      form.dataset.contract = only;
      form.insertBefore(numbers('tricks', number, null, 'offline', { contract: only }), error);
      save.textContent = dealText(number, '[data-text="save"]');
    } else if (s.chooser !== null) {
      heading.textContent = dealText(number, '[data-text="declare"]');
      form.dataset.step = 'contract';
      const fieldset = drawn('offline-contracts', 'fieldset.contracts')[0];
      const box = fieldset.querySelector('.contract-buttons');
      box.querySelectorAll('button.contract').forEach((button) => { if (!left.includes(button.value)) button.remove(); });
      const buttons = box.querySelectorAll('button.contract');
      if (buttons.length === 1) {
        box.classList.add('single');
        buttons[0].classList.add('primary');
        buttons[0].setAttribute('autofocus', '');
      }
      fill(fieldset, 'legend', dealText(number, buttons.length === 1 ? '[data-text="last-contract"]' : '[data-text="contracts-left"]'));
      form.replaceChildren(fieldset);
    } else {
      heading.textContent = dealText(number, '[data-text="declare"]');
      form.dataset.step = s.bidding_order.length ? 'bids' : 'tricks';
      form.insertBefore(numbers(form.dataset.step, number, null, 'offline'), error);
      save.textContent = form.dataset.step === 'bids' ? t('offline.save_bids') : dealText(number, '[data-text="save"]');
    }
    return card;
  }

  // Undo, asked as the page asks it online: the question, then a button that says what it does.
  function undoBox(m) {
    const last = m.deals[m.deals.length - 1];
    const box = last && drawn('offline-undo', 'details')[0];
    if (!box) return null;
    const s = slot(last.number), number = last.number, contract = label(last.contract);
    fill(box, 'summary', t('offline.undo', { number }));
    fill(box, 'p', s.chooser !== null ? t('offline.undo_confirm_chosen', { number, contract, player: name(s.chooser) })
      : t('offline.undo_confirm', { number, contract }));
    fill(box, 'button', t('offline.undo_yes', { number }));
    box.querySelector('form').dataset.offlineUndo = number;
    return box;
  }

  function editor(m, number) {
    const deal = m.deals[number - 1];
    if (!deal) return null;
    const s = slot(number);
    const { card, form, heading, error, actions } = entryCard(number);
    heading.textContent = t('offline.correct_deal', { number });
    form.dataset.step = 'correct';
    card.querySelectorAll('ol.schedule').forEach((e) => e.remove());
    actions.remove();
    if (s.chooser !== null && !factsCard(number, deal.contract)) {
      const field = drawn('offline-correct', 'p.field')[0];
      const select = field.querySelector('select');
      const options = Array.from(select.options);
      const choices = [deal.contract, ...contractsLeft(m.deals, s.chooser)];
      select.replaceChildren(...choices.map((c) => options.find((o) => o.value === c)).filter(Boolean));
      select.value = deal.contract;
      form.insertBefore(field, error);
    }
    if (factsCard(number, deal.contract)) form.insertBefore(factsFields(number, fieldsOf(number, deal.contract), deal, 'offline-fix', deal.contract), error);
    if (deal.bids) form.insertBefore(numbers('bids', number, deal.bids, 'offline-fix'), error);
    if (deal.tricks && !factsCard(number, deal.contract)) form.insertBefore(numbers('tricks', number, deal.tricks, 'offline-fix'), error);
    form.append(...drawn('offline-correct', 'p.actions'));
    return card;
  }

  // A kept change that waits for the scorer (#offline-conflict): what happened, both versions, the choices.
  function blockedPanel(op) {
    const box = drawn('offline-conflict', '.offline-conflict')[0];
    const mine = op.kind === 'undo' ? t('offline.undo', { number: op.number })
      : describe({ ...Q.facts(op), contract: op.contract || (op.theirs && op.theirs.contract) || slot(op.number).contract });
    const theirs = op.theirs ? describe(op.theirs) : t('offline.none', { number: op.number });
    const choice = (which, text, attr) => {
      const button = fill(box, `[data-choice="${which}"]`, text);
      if (button) button.setAttribute(attr, attr === 'data-offline-correct' ? op.number : op.id);
    };
    const none = null;
    if (op.state === 'gone') {
      fill(box, '[data-fill="what"]', op.undone ? t('offline.undone_elsewhere', { number: op.number }) : t('offline.changed_elsewhere', { number: op.number }));
      fill(box, '[data-fill="theirs"]', theirs);
      fill(box, '[data-fill="mine"]', mine);
      fill(box, '[data-fill="mine-alone"]', none);
      choice('again', t('offline.enter_again', { number: op.number }), 'data-offline-again');
      choice('correct', none);
      choice('keep', t('offline.drop', { number: op.number }), 'data-offline-keep');
      choice('mine', none);
    } else if (op.state === 'conflict') {
      fill(box, '[data-fill="what"]', op.kind === 'undo' ? t('offline.conflict_undo', { number: op.number }) : t('offline.conflict', { number: op.number }));
      fill(box, '[data-fill="theirs"]', theirs);
      fill(box, '[data-fill="mine"]', mine);
      fill(box, '[data-fill="mine-alone"]', none);
      choice('again', none);
      choice('correct', none);
      choice('keep', t('offline.keep_theirs'), 'data-offline-keep');
      choice('mine', op.theirs ? (op.kind === 'undo' ? t('offline.undo_anyway') : t('offline.use_mine', { number: op.number })) : none, 'data-offline-mine');
    } else {
      const why = op.code === 'incomplete' ? t('offline.fill_all') : op.code === 'stale' ? t('offline.stale', { last: op.last }) : op.message;
      fill(box, '[data-fill="what"]', t('offline.refused', { number: op.number, message: why }));
      fill(box, 'dl.versions', none);
      fill(box, '[data-fill="mine-alone"]', mine);
      choice('again', none);
      choice('correct', op.kind === 'undo' || op.code === 'stale' ? none : t('offline.correct_deal', { number: op.number }), 'data-offline-correct');
      choice('keep', op.kind === 'undo' || op.code === 'stale' ? t('offline.discard_change') : t('offline.discard', { number: op.number }), 'data-offline-keep');
      choice('mine', none);
    }
    return box;
  }

  return { name, slot, label, factsCard, fieldsOf, contractsLeft, drawn, dealPart, read, readFacts, showForbidden, check, drawLog,
    entryForm, editor, undoBox, blockedPanel };
};
