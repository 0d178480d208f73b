// The board: a position in docs/rules.md notation read into pits, and drawn as an SVG board.
//
//   North's store   N4 N3 N2 N1            (North sows right to left)
//        |                         South's store
//                   S1 S2 S3 S4            (South sows left to right)
//
// A round of a match marks a burnt pit `x` and a son `5s` (a pit owned by the player opposite,
// docs/rules.md §13.2).

const SVG = 'http://www.w3.org/2000/svg';

/** Reads `3,0,4,4/3,3,3,3/1,0/S` (with `x` and `5s` marks) into rows, stores and the mover. */
export function parsePosition(text) {
  const parts = text.trim().split('/');
  if (parts.length !== 4) throw new Error(`not a position: ${text}`);
  const row = (s) => s.split(',').map((e) => {
    e = e.trim();
    if (e === 'x') return { seeds: 0, burnt: true, son: false };
    const son = e.endsWith('s');
    return { seeds: parseInt(son ? e.slice(0, -1) : e, 10), burnt: false, son };
  });
  const stores = parts[2].split(',').map((n) => parseInt(n, 10));
  const side = parts[3].trim();
  return {
    south: row(parts[0]),
    north: row(parts[1]),
    stores: { S: stores[0], N: stores[1] },
    toMove: side === 'S' || side === 'N' ? side : null,
  };
}

/** All seeds in play: the board and both stores (the range of a final value is ±this). */
export function totalSeeds(pos) {
  const sum = (r) => r.reduce((a, p) => a + p.seeds, 0);
  return sum(pos.south) + sum(pos.north) + pos.stores.S + pos.stores.N;
}

/**
 * The pit a move sows: move k ≤ n is the mover's own pit k; k > n a son on the other row, the
 * other row's pit k − n (§13.2).
 */
export function pitOfMove(side, move, holes) {
  if (move <= holes) return { side, pit: move };
  return { side: side === 'S' ? 'N' : 'S', pit: move - holes };
}

function el(name, attrs, parent) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

function text(parent, x, y, s, cls) {
  const t = el('text', { x, y, class: cls, 'text-anchor': 'middle', 'dominant-baseline': 'central' }, parent);
  t.textContent = s;
  return t;
}

/**
 * Draws `pos` into `svg`. `moves` maps "S3" (side and pit) to the move number that sows it;
 * `values` maps a move number to {label, colour, title} (the hint); `onMove(move)` plays.
 */
export function drawBoard(svg, pos, { moves = new Map(), values = new Map(), onMove = () => {} } = {}) {
  const n = pos.south.length;
  const cell = 80, pad = 10, top = 26;
  const w = (n + 2) * cell + 2 * pad, h = 2 * cell + 2 * top + 2 * pad;
  svg.replaceChildren();
  svg.setAttribute('viewBox', `0 0 ${w} ${h}`);
  el('rect', { x: 2, y: 2, width: w - 4, height: h - 4, rx: 40, class: 'wood' }, svg);
  const store = (side, col) => {
    const g = el('g', { class: 'store', 'data-store': side }, svg);
    const x = pad + col * cell + cell / 2;
    el('rect', { x: x - cell / 2 + 8, y: pad + top, width: cell - 16, height: 2 * cell, rx: 34, class: 'cup' }, g);
    text(g, x, pad + top + cell, String(pos.stores[side]), 'count store-count');
    const name = side === 'S' ? 'South' : 'North';
    const mover = pos.toMove === side;
    text(g, x, pad + top + 2 * cell + 14, mover ? `${name} ▸` : name, mover ? 'label mover' : 'label');
    g.setAttribute('aria-label', `${side === 'S' ? 'South' : 'North'}'s store: ${pos.stores[side]}`);
  };
  store('N', 0);
  store('S', n + 1);
  const pit = (side, i) => {
    const p = (side === 'S' ? pos.south : pos.north)[i];
    const number = i + 1;
    const col = side === 'S' ? number : n - i;
    const x = pad + col * cell + cell / 2;
    const y = pad + top + (side === 'S' ? 1.5 : 0.5) * cell;
    const move = moves.get(`${side}${number}`);
    const g = el('g', {
      class: 'pit' + (p.burnt ? ' burnt' : '') + (p.son ? ' son' : '') + (move ? ' legal' : ''),
      'data-side': side, 'data-pit': number, 'data-seeds': p.seeds,
    }, svg);
    const cup = el('circle', { cx: x, cy: y, r: cell / 2 - 8, class: 'cup' }, g);
    const labelY = side === 'S' ? y + cell / 2 + 8 : y - cell / 2 - 8;
    text(g, x, labelY, String(number), 'label');
    const who = side === 'S' ? 'South' : 'North';
    if (p.burnt) {
      text(g, x, y, '×', 'count burnt-mark');
      g.setAttribute('aria-label', `${who} pit ${number}: burnt`);
      return;
    }
    text(g, x, y - (values.has(move) ? 10 : 0), String(p.seeds), 'count');
    let label = `${who} pit ${number}: ${p.seeds} seed${p.seeds === 1 ? '' : 's'}`;
    if (p.son) {
      text(g, x + cell / 2 - 16, y - cell / 2 + 16, 's', 'son-mark');
      label += `, a son of ${side === 'S' ? 'North' : 'South'}`;
    }
    if (move) {
      g.setAttribute('data-move', move);
      g.setAttribute('tabindex', '0');
      g.setAttribute('role', 'button');
      label += `; move ${move}`;
      const v = values.get(move);
      if (v) {
        cup.setAttribute('style', `fill: ${v.colour}`);
        g.setAttribute('data-value', v.label);
        text(g, x, y + 16, v.label, v.exact ? 'value' : 'value range');
        label += `, value ${v.label}`;
        el('title', {}, g).textContent = v.title;
      }
      g.addEventListener('click', () => onMove(move));
      g.addEventListener('keydown', (e) => {
        if (e.key === 'Enter' || e.key === ' ') {
          e.preventDefault();
          onMove(move);
        }
      });
    }
    g.setAttribute('aria-label', label);
  };
  for (let i = 0; i < n; i++) {
    pit('N', i);
    pit('S', i);
  }
}
