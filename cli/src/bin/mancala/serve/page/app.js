// The page: the game chosen, the moves played, and what the server said about them. Every
// value shown comes from the JSON API (docs/web.md): the same objects `mancala ... --json`
// prints.

import { parsePosition, drawBoard, pitOfMove, totalSeeds } from '/board.js';

const $ = (id) => document.getElementById(id);

const st = {
  games: [],        // GET /api/games
  game: null,       // the chosen game's entry
  holes: 0, seeds: 0, options: [], match: false,
  start: null,      // a pasted position, or null: the board's start
  moves: [],        // moves played, marked with their side: "S3"
  redo: [],         // groups of moves undone, last first
  engine: 'N',
  hint: false,
  view: null,       // the /api/play or /api/match answer for where the game is
  legal: [],        // /api/moves: [{move, position}]
  values: null,     // /api/analyze of the position now
  analysed: new Map(), // position text -> a complete /api/analyze: Undo and Redo are instant
  pv: null,         // the last /api/solve's principal variation, as text
  busy: null,       // {id, controller, started, what, timer}
};

/** The request body of the game as set up: the start, then the moves. */
function gameBody() {
  const b = { game: st.game.game, options: st.options, moves: st.moves };
  if (st.start) {
    b.position = st.start;
    if (st.match) b.seeds = st.seeds; // a match's refill
  } else {
    b.holes = st.holes;
    b.seeds = st.seeds;
  }
  return b;
}

/** The request body of the position now (a round position keeps its marks). */
function positionBody() {
  return { game: st.game.game, options: st.options, position: st.view.position };
}

class ApiError extends Error {}

/** Requests in flight, on the body for tests and styling (`data-pending`). */
let pending = 0;
function inFlight(d) {
  pending += d;
  document.body.dataset.pending = String(pending);
}

/**
 * POSTs `body` to /api/`path` (GET without a body); a search gets a name and the spinner.
 * With `onProgress`, the answer is streamed (docs/web.md, "Streams"): each progress line goes
 * to `onProgress` while the search runs, and the final line is the answer.
 */
async function api(path, body, search, onProgress) {
  const init = body === undefined ? {} : {
    method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(onProgress ? { ...body, stream: true } : body),
  };
  let url = `/api/${path}`;
  if (search) {
    const id = Math.random().toString(36).slice(2);
    url += `?search=${id}`;
    const controller = new AbortController();
    init.signal = controller.signal;
    st.busy = { id, controller, started: performance.now(), what: search, live: '' };
    showBusy();
  }
  inFlight(1);
  try {
    const r = await fetch(url, init);
    if (!r.ok || !onProgress) {
      const json = await r.json();
      if (!r.ok) throw new ApiError(json.error || `HTTP ${r.status}`);
      return json;
    }
    const json = await readLines(r, onProgress);
    if (json.error) throw new ApiError(json.error);
    return json;
  } finally {
    inFlight(-1);
    if (search) {
      clearInterval(st.busy?.timer);
      st.busy = null;
      showBusy();
    }
  }
}

/** Reads an NDJSON answer: progress lines to `onProgress` as they come, the last line back. */
async function readLines(r, onProgress) {
  const reader = r.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let last = null;
  const take = (line) => {
    if (!line.trim()) return;
    const json = JSON.parse(line);
    if (json.progress) onProgress(json);
    else last = json;
  };
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let nl;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      take(buffer.slice(0, nl));
      buffer = buffer.slice(nl + 1);
    }
  }
  take(buffer);
  if (!last) throw new ApiError('the answer was cut short');
  return last;
}

/** A progress line's best move so far, in words: "best so far 3 (+2..+10)". */
function bestSoFar(p) {
  if (!p.best) return 'no move proven yet';
  if (p.look_ahead) return `best so far ${p.best} (a look-ahead's pick, not proven)`;
  const v = p.best_lower === p.best_upper ? signed(p.best_lower) : `${signed(p.best_lower)}..${signed(p.best_upper)}`;
  return p.best_proven ? `best ${p.best} (${v}, proven best)` : `best so far ${p.best} (${v}, not proven best)`;
}

/** A progress line in words: the best move so far and the bounds on the value. */
function liveWords(p) {
  const value = p.lower === p.upper ? `value ${signed(p.lower)}` : `value in [${signed(p.lower)}, ${signed(p.upper)}]`;
  return `${bestSoFar(p)}, ${value}`;
}

/** Shows a progress line of a search on the spinner's line. */
function showLive(p) {
  if (!st.busy) return;
  st.busy.live = liveWords(p);
  busyText();
}

/** The buttons that can act now: none of them during a search but Stop. */
function enableButtons() {
  for (const id of ['hint', 'solve', 'engine-move', 'set-position']) {
    $(id).disabled = !!st.busy;
  }
  $('undo').disabled = !!st.busy || !st.moves.length;
  $('redo').disabled = !!st.busy || !st.redo.length;
}

function showBusy() {
  $('busy').hidden = !st.busy;
  enableButtons();
  if (!st.busy) return;
  busyText();
  st.busy.timer = setInterval(busyText, 100);
}

/** The spinner's line: what runs, for how long, and what it has proven so far. */
function busyText() {
  if (!st.busy) return;
  const t = (performance.now() - st.busy.started) / 1000;
  const live = st.busy.live ? `: ${st.busy.live}` : '';
  $('busy-text').textContent = `${st.busy.what}… ${t.toFixed(1)} s${live}`;
}

/** Stop: the server stops the search, which answers with the bounds it proved. */
async function stop() {
  if (!st.busy) return;
  const id = st.busy.id;
  try {
    await fetch('/api/stop', {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ search: id }),
    });
  } catch {
    st.busy?.controller.abort(); // the connection closes: that stops it too
  }
}

function showError(e) {
  $('error').textContent = e ? (e instanceof ApiError ? e.message : `error: ${e.message}`) : '';
}

const signed = (v) => (v > 0 ? `+${v}` : `${v}`);
const sideName = (s) => (s === 'S' ? 'South' : 'North');
const verdict = (v) => (v > 0 ? `South wins by ${v}` : v < 0 ? `North wins by ${-v}` : 'a draw');

/** Reads the game, then its legal moves; then the hint and the engine, when asked for. */
async function refresh({ think = true } = {}) {
  showError(null);
  st.view = await api(st.match ? 'match' : 'play', gameBody());
  st.legal = st.view.to_move ? (await api('moves', positionBody())).moves : [];
  st.values = null;
  render();
  // The hint values the person's turns; the engine's own turns only when Hint is pressed then.
  if (st.hint && st.view.to_move && !engineSides().includes(st.view.to_move)) await hint();
  if (think) await engineTurn();
}

/** Runs `f`, showing its error; the game stays as it was. */
async function guarded(f) {
  try {
    await f();
  } catch (e) {
    if (e.name !== 'AbortError') showError(e);
  }
}

function engineSides() {
  return st.engine === 'both' ? ['S', 'N'] : st.engine === 'none' ? [] : [st.engine];
}

/** The engine plays while it is to move (the best move, or a stopped search's pick). */
async function engineTurn() {
  while (st.view.to_move && engineSides().includes(st.view.to_move)) {
    const r = await api('solve', positionBody(), `${sideName(st.view.to_move)} (engine) thinks`, showLive);
    showSolve(r);
    if (!r.best.length) return;
    st.moves.push(`${st.view.to_move}${enginePick(r)}`);
    st.redo = [];
    await refresh({ think: false });
  }
}

async function play(move) {
  if (st.busy || !st.view.to_move) return;
  if (!st.legal.some((m) => m.move === move)) return;
  st.moves.push(`${st.view.to_move}${move}`);
  st.redo = [];
  await guarded(() => refresh());
}

/** The hint: every legal move's exact value on its pit, the position's value on the bar. */
async function hint() {
  // Exact values never change: a position analysed once is not asked again.
  const known = st.analysed.get(st.view.position);
  if (known) {
    st.values = known;
  } else {
    // While the search runs, each progress line is shown as it comes: the moves valued so far
    // on their pits, the bounds on the others, the best move so far on the bar.
    try {
      st.values = await api('analyze', positionBody(), 'valuing every move', (p) => {
        st.values = p;
        showLive(p);
        render();
      });
    } catch (e) {
      st.values = null; // no progress line left on the board as if it were an answer
      render();
      throw e;
    }
    if (st.values.complete) st.analysed.set(st.view.position, st.values);
  }
  render();
}

async function solveNow() {
  if (!st.view.to_move) return;
  const r = await api('solve', positionBody(), 'solving', showLive);
  showSolve(r);
}

/** The engine's move: the principal variation's first (a best move), so the line shown is the
 * line played; a stopped search's pick otherwise. */
function enginePick(r) {
  return r.complete && r.pv.length ? r.pv[0].move : r.best[0];
}

function showSolve(r) {
  st.pvAt = r.position;
  const pv = r.complete ? r.pv.map((m) => `${m.side}${m.move}`).join(' ') : '';
  st.pv = r.complete
    ? `Value ${signed(r.value)} (${verdict(r.value)}); best ${r.best.join(', ')}; principal variation: ${pv}`
    : `Stopped: value in [${signed(r.lower)}, ${signed(r.upper)}]; ${r.best_proven ? 'best' : 'to play'} ${r.best.join(', ')}`;
  renderSide();
}

function undo() {
  if (st.busy || !st.moves.length) return;
  // Back to the last move a person made: the engine's answers after it go too.
  const group = [];
  const engine = engineSides();
  do {
    group.unshift(st.moves.pop());
  } while (st.moves.length && engine.includes(group[0][0]) && engine.length < 2);
  st.redo.push(group);
  guarded(() => refresh({ think: false }));
}

function redo() {
  if (st.busy || !st.redo.length) return;
  st.moves.push(...st.redo.pop());
  guarded(() => refresh({ think: false }));
}

/** The colour of a move `behind` points worse than the best (0: best), of `spread` at most. */
function colour(behind, spread) {
  const t = spread > 0 ? Math.min(1, behind / spread) : 0;
  const hue = 120 * (1 - t); // green (best) to red (worst)
  return `hsl(${hue}, 70%, ${behind === 0 ? 62 : 72}%)`;
}

function hintValues(holes) {
  const values = new Map();
  if (!st.values) return values;
  const mover = st.view.to_move;
  const own = (v) => (mover === 'S' ? v : -v); // better for the mover is larger
  const exact = st.values.moves.filter((m) => m.value !== null);
  const best = Math.max(...exact.map((m) => own(m.value)));
  const worst = Math.min(...exact.map((m) => own(m.value)));
  const live = !!st.values.progress;
  for (const m of st.values.moves) {
    if (m.value === null) {
      const being = live && m.move === st.values.valuing ? ' (being valued)' : live ? ' (so far)' : ' (stopped)';
      values.set(m.move, {
        label: `${signed(m.lower)}..${signed(m.upper)}`, colour: '#ddd', exact: false,
        title: `move ${m.move}: value in [${signed(m.lower)}, ${signed(m.upper)}]${being}`,
      });
    } else {
      values.set(m.move, {
        label: signed(m.value), colour: colour(best - own(m.value), best - worst), exact: true,
        title: `move ${m.move}: ${verdict(m.value)}`,
      });
    }
  }
  void holes;
  return values;
}

function render() {
  const pos = parsePosition(st.view.position);
  const holes = pos.south.length;
  const moves = new Map();
  for (const m of st.legal) {
    const p = pitOfMove(st.view.to_move, m.move, holes);
    moves.set(`${p.side}${p.pit}`, m.move);
  }
  drawBoard($('board'), pos, { moves, values: hintValues(holes), onMove: (m) => play(m) });
  $('position').value = st.view.position;
  // A match's score is its current round's.
  const [s, n] = st.view.score ?? st.view.rounds[st.view.rounds.length - 1].score;
  let status = `South ${s}, North ${n}. `;
  if (st.view.to_move) status += `${sideName(st.view.to_move)} to move.`;
  else if (st.match && !st.view.match_over) status += 'The round is over.';
  else status += `Game over: ${st.view.winner === 'draw' ? 'a draw' : `${sideName(st.view.winner)} wins`}.`;
  if (st.match && st.view.match_over) {
    status = `Match over: ${st.view.winner === 'draw' ? 'drawn' : `${sideName(st.view.winner)} wins the match`}. ` + status;
  }
  $('status').textContent = status;
  renderBar(pos);
  renderSide();
  $('hint').setAttribute('aria-pressed', String(st.hint));
  enableButtons();
}

/** What a stopped analysis says to play: its proven best moves, or the look-ahead's pick among
 * the moves not proven worse, so that a player never has bounds alone. */
function toPlay(v) {
  if (!v.best || !v.best.length) return '';
  return v.best_proven ? `; best ${v.best.join(', ')}` : `; to play: ${v.best[0]} (a look-ahead's pick, not proven)`;
}

function renderBar(pos) {
  const bar = $('valuebar');
  bar.hidden = !(st.hint && st.values);
  if (bar.hidden) return;
  const T = Math.max(1, totalSeeds(pos));
  const v = st.values;
  // Bounds are drawn as the range they are (shaded), never as their midpoint.
  const part = (x) => `${(100 * (T - x)) / (2 * T)}%`;
  bar.querySelector('.north-part').style.width = part(v.complete ? v.value : v.upper);
  bar.classList.toggle('bounded', !v.complete);
  bar.style.setProperty('--unknown-width', v.complete ? '0%' : `${(100 * (v.upper - v.lower)) / (2 * T)}%`);
  if (v.progress) {
    // A search in progress: what is proven so far, never more.
    $('value-text').textContent = `Thinking: ${liveWords(v)}`;
    $('value-text').dataset.value = '';
    $('value-text').dataset.bestSoFar = v.best ?? '';
    return;
  }
  delete $('value-text').dataset.bestSoFar;
  $('value-text').textContent = v.complete
    ? `Value ${signed(v.value)}: ${verdict(v.value)} under perfect play (from the ${v.source})`
    : `Value in [${signed(v.lower)}, ${signed(v.upper)}] (stopped before it was exact)${toPlay(v)}`;
  $('value-text').dataset.value = v.complete ? signed(v.value) : '';
}

function renderSide() {
  const list = $('movelist');
  list.replaceChildren();
  let k = 0;
  const add = (move) => {
    const li = document.createElement('li');
    li.dataset.move = move;
    li.textContent = `${++k}. ${move}`;
    list.appendChild(li);
  };
  const heading = (text) => {
    const li = document.createElement('li');
    li.className = 'round';
    li.textContent = text;
    list.appendChild(li);
  };
  if (st.match && st.view?.rounds) {
    st.view.rounds.forEach((r, i) => {
      heading(`Round ${i + 1}: ${sideName(r.starter)} starts`);
      for (let j = 0; j < r.moves.length; j++) add(st.moves[k]);
    });
  } else {
    st.moves.forEach(add);
  }
  // A solve's line starts at the position it solved: said so once the board has moved on.
  const at = st.pv && st.pvAt !== st.view?.position ? ` (from ${st.pvAt})` : '';
  $('pv').textContent = st.pv ? st.pv + at : '';
  const rounds = $('rounds');
  rounds.replaceChildren();
  if (st.match && st.view?.rounds) {
    st.view.rounds.forEach((r, i) => {
      const p = document.createElement('p');
      p.className = 'round-summary';
      const end = r.end ? `ended ${r.end} (South ${r.score[0]}, North ${r.score[1]})` : 'goes on';
      p.textContent = `Round ${i + 1}: from ${r.start}, ${end}`;
      rounds.appendChild(p);
    });
  }
}

// ------------------------------------------------------------------------------------------
// The set-up form

function fillGames() {
  const sel = $('game');
  for (const g of st.games) {
    const o = document.createElement('option');
    o.value = g.game;
    o.textContent = g.title;
    sel.appendChild(o);
  }
}

/** The form's fields for the game chosen: its board's ranges, its options, matches. */
function gameChosen(keepSize) {
  const g = st.games.find((x) => x.game === $('game').value);
  const holes = $('holes');
  holes.min = g.holes.min;
  holes.max = g.holes.max;
  if (!keepSize) holes.value = g.holes.default;
  sizeChosen(keepSize);
  const box = $('options');
  box.querySelectorAll('label').forEach((l) => l.remove());
  for (const o of g.options) {
    const l = document.createElement('label');
    l.innerHTML = `<input type="checkbox" name="opt" value="${o.name}"> ${o.name}`;
    l.title = o.help;
    box.appendChild(l);
  }
  box.hidden = !g.options.length;
  $('match').disabled = !g.matches;
  if (!g.matches) $('match').checked = false;
}

function sizeChosen(keepSize) {
  const g = st.games.find((x) => x.game === $('game').value);
  const h = Number($('holes').value);
  const s = g.seeds.find((x) => x.holes === h);
  if (!s) return;
  $('seeds').min = s.min;
  $('seeds').max = s.max;
  if (!keepSize) $('seeds').value = s.default;
}

function newGame() {
  st.game = st.games.find((x) => x.game === $('game').value);
  st.holes = Number($('holes').value);
  st.seeds = Number($('seeds').value);
  st.options = [...document.querySelectorAll('#options input:checked')].map((i) => i.value);
  st.match = $('match').checked;
  st.engine = $('engine').value;
  st.start = null;
  st.moves = [];
  st.redo = [];
  st.pv = null;
  return guarded(() => refresh());
}

async function setPosition() {
  const before = { start: st.start, moves: st.moves, redo: st.redo };
  st.start = $('position').value.trim();
  st.moves = [];
  st.redo = [];
  st.pv = null;
  try {
    await refresh();
  } catch (e) {
    Object.assign(st, before);
    showError(e);
  }
}

async function copyPosition() {
  const text = $('position').value;
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    $('position').select();
    document.execCommand('copy');
  }
}

function keys(e) {
  if (e.key === 'Escape') return stop();
  if (e.target.closest('input, select, textarea') || e.ctrlKey || e.metaKey || e.altKey) return;
  const k = e.key.toLowerCase();
  if (/^[1-9]$/.test(k)) play(Number(k));
  else if (k === 'h') toggleHint();
  else if (k === 'u') undo();
  else if (k === 'r') redo();
  else if (k === 'e') guarded(engineMove);
  else if (k === 's') guarded(solveNow);
  else return;
  e.preventDefault();
}

function toggleHint() {
  if (st.busy) return;
  st.hint = !st.hint;
  if (st.hint && st.view.to_move) guarded(hint);
  else render();
}

/** The engine plays one move for the side to move, whoever that is. */
async function engineMove() {
  if (st.busy || !st.view.to_move) return;
  const r = await api('solve', positionBody(), `${sideName(st.view.to_move)} (engine) thinks`, showLive);
  showSolve(r);
  if (!r.best.length) return;
  st.moves.push(`${st.view.to_move}${enginePick(r)}`);
  st.redo = [];
  await refresh();
}

async function main() {
  st.games = (await api('games')).games;
  fillGames();
  $('game').value = 'kalah';
  gameChosen(false);
  $('game').addEventListener('change', () => gameChosen(false));
  $('holes').addEventListener('change', () => sizeChosen(false));
  $('new-game').addEventListener('submit', (e) => { e.preventDefault(); newGame(); });
  $('position-form').addEventListener('submit', (e) => { e.preventDefault(); setPosition(); });
  $('copy-position').addEventListener('click', copyPosition);
  $('hint').addEventListener('click', toggleHint);
  $('solve').addEventListener('click', () => guarded(solveNow));
  $('engine-move').addEventListener('click', () => guarded(engineMove));
  $('undo').addEventListener('click', undo);
  $('redo').addEventListener('click', redo);
  $('stop').addEventListener('click', stop);
  $('engine').addEventListener('change', () => { st.engine = $('engine').value; guarded(engineTurn); });
  document.addEventListener('keydown', keys);
  await newGame();
  document.body.dataset.ready = 'true';
}

main().catch(showError);
