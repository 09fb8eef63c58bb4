/* Scorekeeper: a finished game's standings as a picture for the group chat. Loaded by game.js at the
   first tap on "Share standings" (a finished game's page only), so no other page carries it. Every
   text is the page's own, in its language: the game, the date, the heading, each place, name (as
   written, emoji included) and total. Shared as a PNG file through the phone's share sheet where the
   browser can share files; downloaded elsewhere (plain http has no share sheet). */
(() => {
  'use strict';
  const d = document;
  const W = 1080, PAD = 72, LINE = 58;
  const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif, "Noto Color Emoji", "Apple Color Emoji", "Segoe UI Emoji"';
  const font = (size, weight) => `${weight || 400} ${size}px ${FONT}`;
  const COLOURS = { felt: '#1d5c3a', onFelt: '#ffffff', feltMuted: '#e3eee6', text: '#14231b', muted: '#4a5a50', line: '#c9d5cc', star: '#f4d35e', soft: '#e2eee6', red: '#b42318' };

  // Whole characters (an emoji sequence is one), so a line never breaks inside one.
  const graphemes = (text) => (window.Intl && Intl.Segmenter
    ? Array.from(new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(text), (s) => s.segment)
    : Array.from(text));

  // Lines of at most `width`: broken between words or after a hyphen, inside a word only when that
  // part alone is wider.
  function wrap(ctx, text, width) {
    const lines = [];
    let line = '';
    const push = (part, glue) => {
      const tried = line ? line + glue + part : part;
      if (ctx.measureText(tried).width <= width) { line = tried; return; }
      if (line) lines.push(line);
      line = '';
      if (ctx.measureText(part).width <= width) { line = part; return; }
      for (const g of graphemes(part)) {
        if (ctx.measureText(line + g).width > width && line) { lines.push(line); line = ''; }
        line += g;
      }
    };
    text.split(/\s+/).filter(Boolean).forEach((word) => word.split(/(?<=-)(?=.)/).forEach((part, i) => push(part, i ? '' : ' ')));
    if (line) lines.push(line);
    return lines.length ? lines : [''];
  }

  // What the page says: the heading, and each place with its name and total.
  function read(button) {
    const rows = Array.from(d.querySelectorAll('#final ol.standings > li')).map((li) => {
      const who = li.querySelector('.who').cloneNode(true);
      who.querySelectorAll('.badge').forEach((badge) => badge.remove());
      return {
        rank: li.querySelector('.rank').textContent.trim(),
        name: who.textContent.trim(),
        points: li.querySelector('.points').textContent.trim(),
        winner: li.classList.contains('winner'),
      };
    });
    const heading = d.getElementById('final-heading'), when = d.querySelector('.game-when time');
    return {
      rows,
      heading: heading ? heading.textContent.trim() : '',
      game: button.dataset.game || '',
      date: when ? when.textContent.trim() : '',
      file: `${button.dataset.game || 'standings'}${when ? `-${when.getAttribute('datetime')}` : ''}.png`,
    };
  }

  function draw(data) {
    const canvas = d.createElement('canvas');
    const ctx = canvas.getContext('2d');
    const nameWidth = W - 2 * PAD - 110 - 230;
    // Measured first, drawn second: the picture is as tall as its names need.
    ctx.font = font(44, 600);
    const rows = data.rows.map((row) => ({ ...row, lines: wrap(ctx, row.name, nameWidth) }));
    ctx.font = font(56, 700);
    const headingLines = wrap(ctx, data.heading, W - 2 * PAD);
    const top = 150 + headingLines.length * 68 + 30;
    const height = top + rows.reduce((sum, row) => sum + Math.max(1, row.lines.length) * LINE + 40, 0) + 110;
    canvas.width = W;
    canvas.height = height;
    ctx.textBaseline = 'alphabetic';
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, W, height);
    ctx.fillStyle = COLOURS.felt;
    ctx.fillRect(0, 0, W, top - 20);
    ctx.fillStyle = COLOURS.feltMuted;
    ctx.font = font(34, 600);
    ctx.fillText([data.game, data.date].filter(Boolean).join(' · '), PAD, 96, W - 2 * PAD);
    ctx.fillStyle = COLOURS.onFelt;
    ctx.font = font(56, 700);
    headingLines.forEach((line, i) => ctx.fillText(line, PAD, 170 + i * 68, W - 2 * PAD));
    let y = top + 20;
    rows.forEach((row) => {
      const tall = Math.max(1, row.lines.length) * LINE;
      if (row.winner) {
        ctx.fillStyle = COLOURS.soft;
        ctx.fillRect(PAD - 24, y - 8, W - 2 * PAD + 48, tall + 24);
      }
      ctx.fillStyle = row.winner ? COLOURS.felt : COLOURS.muted;
      ctx.font = font(44, 700);
      ctx.fillText(row.rank, PAD, y + 48);
      ctx.fillStyle = COLOURS.text;
      ctx.font = font(44, row.winner ? 700 : 500);
      row.lines.forEach((line, i) => ctx.fillText(line, PAD + 110, y + 48 + i * LINE));
      ctx.textAlign = 'right';
      ctx.font = font(48, 700);
      ctx.fillStyle = row.points.startsWith('\u2212') ? COLOURS.red : COLOURS.text;
      ctx.fillText(row.points, W - PAD, y + 48);
      if (row.winner) {
        ctx.fillStyle = COLOURS.felt;
        ctx.fillText('\u2605', W - PAD - ctx.measureText(row.points).width - 24, y + 48);
      }
      ctx.textAlign = 'left';
      y += tall + 16;
      ctx.fillStyle = COLOURS.line;
      ctx.fillRect(PAD, y, W - 2 * PAD, 2);
      y += 24;
    });
    ctx.fillStyle = COLOURS.muted;
    ctx.font = font(30, 600);
    ctx.fillText('Scorekeeper', PAD, height - 48);
    return canvas;
  }

  // The file: to the share sheet where files can go there, else downloaded.
  function give(blob, name) {
    const file = window.File ? new File([blob], name, { type: 'image/png' }) : null;
    const download = () => {
      const link = d.createElement('a');
      link.href = URL.createObjectURL(blob);
      link.download = name;
      d.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(link.href), 30000);
    };
    if (file && navigator.canShare && navigator.share && navigator.canShare({ files: [file] })) {
      navigator.share({ files: [file], title: d.title }).catch((err) => { if (!err || err.name !== 'AbortError') download(); });
    } else download();
  }

  // Loaded by the first tap (game.js): that tap's picture now, and every later tap's from here.
  const button = d.querySelector('[data-standings]');
  const share = () => {
    const data = read(button);
    draw(data).toBlob((blob) => { if (blob) give(blob, data.file); }, 'image/png');
  };
  button.onclick = share;
  share();
})();
