// The Review view: a game pasted (a move line or a `play --record` game record) or loaded from
// a record file, graded by POST /api/review (the object `mancala review --json` prints). A bar
// per move shows the seeds it lost; clicking a bar or a move sets the board above to the
// position the move was played in (through the page's own position form, so the board, its
// values and its moves are the page's as usual). Mistakes and blunders are marked on the
// review's move list. The mistake and blunder thresholds (seeds lost) are sent with the game;
// each move's tooltip says what answered it (the book, the memory, the tables, a search).

const $ = (id) => document.getElementById(id);

const STYLE = `
#review { padding: 0 1rem 1rem; }
#review textarea { width: 100%; min-height: 3.2rem; font-family: ui-monospace, monospace; }
#review-chart { display: flex; align-items: flex-end; gap: 2px; height: 8rem; border-bottom: 1px solid #888;
  overflow-x: auto; padding-top: 0.3rem; }
#review-chart .bar { flex: 0 0 auto; width: 12px; min-height: 2px; border: 0; padding: 0; border-radius: 2px 2px 0 0;
  background: #8bbf7a; cursor: pointer; }
#review-chart .bar.inaccuracy { background: #e0c050; }
#review-chart .bar.mistake { background: #e08a30; }
#review-chart .bar.blunder { background: #c0302a; }
#review-chart .bar.open { background: repeating-linear-gradient(45deg, #bbb, #bbb 3px, #eee 3px, #eee 6px); }
#review-chart .bar.current { outline: 2px solid var(--accent); }
#review-moves { list-style: none; padding: 0; margin: 0.5rem 0; display: flex; flex-wrap: wrap; gap: 0.15rem 0.6rem;
  font-family: ui-monospace, monospace; }
#review-moves li { cursor: pointer; }
#review-moves li.mistake { color: #b35a00; font-weight: 700; }
#review-moves li.blunder { color: #b00020; font-weight: 700; }
#review-moves li.mistake::after { content: "?"; }
#review-moves li.blunder::after { content: "??"; }
#review-moves li.inaccuracy::after { content: "?!"; }
#review-moves li.current { text-decoration: underline; }
#review-summary p { margin: 0.2rem 0; }
#review .thresholds input { width: 3.5rem; }
`;

const HTML = `
<h2>Review</h2>
<form id="review-form">
  <textarea id="review-input" aria-label="A game to review" spellcheck="false"
    placeholder="A move line (3 1 S4 N2 …) played from the game set up on the left, or a game record (play --record)"></textarea>
  <div class="buttons">
    <button id="review-run" type="submit">Review</button>
    <label>Load a record <input id="review-file" type="file" accept=".json,application/json"></label>
  </div>
  <div class="thresholds">
    <label>Mistake from <input id="review-mistake" type="number" min="1" step="1" value="2"> seeds lost</label>
    <label>blunder from <input id="review-blunder" type="number" min="1" step="1" value="6"></label>
  </div>
</form>
<div id="review-error" role="alert"></div>
<div id="review-result" hidden>
  <div id="review-chart" role="group" aria-label="Seeds lost by each move"></div>
  <ol id="review-moves"></ol>
  <div id="review-summary"></div>
</div>`;

/** The game set up in the form on the left: the start of the board, with its rules. */
function setupBody() {
  return {
    game: $('game').value,
    holes: Number($('holes').value),
    seeds: Number($('seeds').value),
    options: [...document.querySelectorAll('#options input:checked')].map((i) => i.value),
  };
}

/** The request body of `text`: a game record (JSON) or a move line from the set-up start. */
function bodyOf(text) {
  const t = text.trim();
  if (t.startsWith('{')) {
    let rec;
    try {
      rec = JSON.parse(t);
    } catch (e) {
      throw new Error(`not a game record: ${e.message}`);
    }
    if (!rec.game || !rec.start || !Array.isArray(rec.moves)) {
      throw new Error('not a game record: it needs "game", "start" and "moves"');
    }
    return { game: rec.game, options: rec.options || [], position: rec.start, moves: rec.moves };
  }
  return { ...setupBody(), moves: t };
}

/** The thresholds fields as the body's `mistake` and `blunder` (the server checks them). */
function thresholds() {
  return { mistake: Number($('review-mistake').value), blunder: Number($('review-blunder').value) };
}

const signed = (v) => (v > 0 ? `+${v}` : `${v}`);
const num = (x, lo, hi) => (x === null ? `[${signed(lo)}, ${signed(hi)}]` : signed(x));
const lossText = (m) => (m.loss === null ? `${m.loss_lower}..${m.loss_upper}` : `${m.loss}`);

/** Sets the board above to the position move `m` was played in. */
function goTo(m) {
  $('position').value = m.position;
  $('position-form').requestSubmit();
  document.querySelectorAll('#review-chart .bar, #review-moves li').forEach((el) => {
    el.classList.toggle('current', Number(el.dataset.ply) === m.ply);
  });
}

function show(r) {
  const chart = $('review-chart');
  const list = $('review-moves');
  chart.replaceChildren();
  list.replaceChildren();
  const most = Math.max(1, ...r.moves.map((m) => m.loss_upper));
  r.moves.forEach((m) => {
    const grade = m.class || 'open';
    const bar = document.createElement('button');
    bar.type = 'button';
    bar.className = `bar ${grade}`;
    bar.dataset.ply = m.ply;
    bar.style.height = `${(100 * m.loss_upper) / most}%`;
    const best = m.best.length ? `; best ${m.best.join(' ')}` : '';
    bar.title = `${m.ply}. ${m.side}${m.move}: ${num(m.value, m.value_lower, m.value_upper)} `
      + `(best ${num(m.best_value, m.best_lower, m.best_upper)}), lost ${lossText(m)}: ${grade}${best}`
      + ` (from the ${m.source})`;
    bar.setAttribute('aria-label', bar.title);
    bar.addEventListener('click', () => goTo(m));
    chart.appendChild(bar);
    const li = document.createElement('li');
    li.className = grade;
    li.dataset.ply = m.ply;
    li.textContent = `${m.side}${m.move}`;
    li.title = bar.title;
    li.addEventListener('click', () => goTo(m));
    list.appendChild(li);
  });
  const side = (name, s) => {
    const mean = s.mean_loss === null ? `${s.loss_lower}..${s.loss_upper} seeds lost`
      : `${s.total_loss} seeds lost (${s.mean_loss.toFixed(2)} per move)`;
    const acc = s.accuracy === null ? '' : `, accuracy ${(100 * s.accuracy).toFixed(1)}%`;
    const first = s.first_mistake ? `; first mistake at move ${s.first_mistake}` : '';
    return `<p><b>${name}</b>: ${s.moves} moves, ${mean}${acc}; ${s.inaccuracies} inaccuracies, `
      + `${s.mistakes} mistakes, ${s.blunders} blunders${first}</p>`;
  };
  const note = r.complete ? '' : '<p>Some searches were stopped by the time limit: striped bars are bounds.</p>';
  $('review-summary').innerHTML = side('South', r.south) + side('North', r.north) + note;
  $('review-result').hidden = false;
}

async function run(body) {
  $('review-error').textContent = '';
  const button = $('review-run');
  button.disabled = true;
  document.body.dataset.review = 'running';
  try {
    const res = await fetch('/api/review', {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body),
    });
    const v = await res.json();
    if (!res.ok) throw new Error(v.error || res.statusText);
    show(v);
    document.body.dataset.review = 'done';
  } catch (e) {
    $('review-error').textContent = e.message;
    document.body.dataset.review = 'error';
  } finally {
    button.disabled = false;
  }
}

function main() {
  const style = document.createElement('style');
  style.textContent = STYLE;
  document.head.appendChild(style);
  const section = $('review');
  section.innerHTML = HTML;
  $('review-form').addEventListener('submit', (e) => {
    e.preventDefault();
    try {
      run({ ...bodyOf($('review-input').value), ...thresholds() });
    } catch (err) {
      $('review-error').textContent = err.message;
    }
  });
  $('review-file').addEventListener('change', async (e) => {
    const f = e.target.files[0];
    if (!f) return;
    $('review-input').value = (await f.text()).trim();
    $('review-form').requestSubmit();
  });
}

if (document.readyState === 'loading') {
  document.addEventListener('DOMContentLoaded', main);
} else {
  main();
}
