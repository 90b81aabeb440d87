// bgpi team: every board of a team match, live (GET /api/team, then /api/team/events).
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const W = 260, H = 214, M = 8, BAR = 16, TRAY = 14;
const PW = (W - 2 * M - BAR - TRAY) / 12;  // a point's width
const R = PW / 2 - 0.5;                    // a checker's radius
const PHASES = {
  setup: "setting up", new_session: "choosing a session", opening: "the opening roll", roll: "to roll",
  doubled: "doubled", move: "to move", choose: "to choose a reading", resigning: "resigning",
  resigned: "resignation offered", game_over: "game over", match_over: "match over",
};
const LINKS = {
  connecting: "connecting", connected: "connected", away: "the other board is away",
  abandoned: "the other board abandoned the game: it may be claimed",
  unreachable: "the broker cannot be reached", refused: "the broker refused it", disagree: "the boards disagree",
};

function el(name, attrs, parent) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}

function pointX(point) {  // the left edge of absolute point 1..24, white's home at the bottom right
  const column = point <= 12 ? 12 - point : point - 13;  // 0..11 from the left
  return M + column * PW + (column >= 6 ? BAR : 0);
}

function stack(svg, x, bottom, count, side) {
  // Up to five checkers from the edge inwards, the rest as a number on the fifth.
  const shown = Math.min(count, 5);
  for (let i = 0; i < shown; i += 1) {
    const y = bottom ? H - M - R - 1 - i * 2 * R : M + R + 1 + i * 2 * R;
    el("circle", {class: `checker ${side}`, cx: x, cy: y, r: R}, svg);
    if (i === shown - 1 && count > 5) {
      el("text", {class: `count ${side}`, x, y}, svg).textContent = String(count);
    }
  }
}

function drawBoard(board) {
  const svg = el("svg", {viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": "the board"});
  el("rect", {class: "frame", x: 0, y: 0, width: W, height: H, rx: 4}, svg);
  el("rect", {class: "felt", x: M, y: M, width: W - 2 * M - TRAY, height: H - 2 * M}, svg);
  for (let point = 1; point <= 24; point += 1) {
    const x = pointX(point), bottom = point <= 12;
    const tip = bottom ? H / 2 + 12 : H / 2 - 12, base = bottom ? H - M : M;
    el("polygon", {class: `point ${point % 2 ? "dark" : "light"}`,
                   points: `${x},${base} ${x + PW},${base} ${x + PW / 2},${tip}`}, svg);
  }
  if (!board) {
    el("text", {class: "nopos", x: W / 2, y: H / 2}, svg).textContent = "no state heard yet";
    return svg;
  }
  board.points.forEach(([white, black], index) => {
    const point = index + 1, x = pointX(point) + PW / 2, bottom = point <= 12;
    if (white) stack(svg, x, bottom, white, "white");
    if (black) stack(svg, x, bottom, black, "black");
  });
  const barX = M + 6 * PW + BAR / 2;
  if (board.bar[0]) stack(svg, barX, false, board.bar[0], "white");  // white enters at black's home, the top
  if (board.bar[1]) stack(svg, barX, true, board.bar[1], "black");
  const trayX = W - M - TRAY / 2;
  if (board.off[0]) stack(svg, trayX, true, board.off[0], "white");
  if (board.off[1]) stack(svg, trayX, false, board.off[1], "black");
  return svg;
}

function line(parent, text, className) {
  const p = document.createElement("p");
  p.textContent = text;
  if (className) p.className = className;
  parent.appendChild(p);
  return p;
}

function boardWords(pair, board) {
  if (!board) return "no state heard yet";
  const team = (side) => `${pair[side]} (${side})`;
  const phase = PHASES[board.phase] || board.phase;
  const turn = board.turn ? `${team(board.turn)} ${phase}` : phase;
  const length = board.match_length ? `, to ${board.match_length}` : "";
  const crawford = board.crawford ? ", Crawford game" : "";
  return `${pair.white} ${board.score[0]}, ${pair.black} ${board.score[1]}${length}${crawford}: ${turn}`;
}

function drawPair(pair) {
  const card = document.createElement("section");
  card.className = "pair";
  card.dataset.game = pair.game;
  const title = document.createElement("h2");
  title.textContent = `${pair.game}: ${pair.white} (white) – ${pair.black} (black), ${pair.length} point${pair.length === 1 ? "" : "s"}`;
  card.appendChild(title);
  const shown = pair.boards.white || pair.boards.black;
  card.appendChild(drawBoard(shown));
  line(card, boardWords(pair, shown), "words");
  const links = ["white", "black"].map((side) => {
    const board = pair.boards[side];
    return `${side} board: ${board ? LINKS[board.link] || board.link : "not heard"}`;
  });
  const linkLine = line(card, links.join(" · "), "boards");
  if (["white", "black"].some((side) => !pair.boards[side] || pair.boards[side].link !== "connected")) {
    linkLine.classList.add("away");
  }
  if (pair.winner) line(card, `${pair.winner} win this match`, "result");
  if (pair.problem) line(card, `Not counted: ${pair.problem}`, "problem");
  const files = document.createElement("p");
  files.className = "links";
  files.textContent = `${pair.events} events logged `;
  if (pair.events) {
    for (const kind of ["mat", "sgf"]) {
      const a = document.createElement("a");
      a.href = `api/games/${encodeURIComponent(pair.game)}.${kind}`;
      a.textContent = `.${kind}`;
      files.appendChild(a);
    }
  }
  card.appendChild(files);
  return card;
}

function show(snapshot) {
  document.getElementById("match").textContent = snapshot.match;
  const broker = document.getElementById("broker");
  broker.hidden = snapshot.broker.state === "connected";
  broker.textContent = snapshot.broker.line;
  broker.dataset.state = snapshot.broker.state;
  document.getElementById("team-score").textContent = snapshot.score.line;
  document.getElementById("export").hidden = !snapshot.export;
  document.getElementById("pairs").replaceChildren(...snapshot.pairs.map(drawPair));
  const problems = document.getElementById("problems");
  problems.replaceChildren(...snapshot.problems.slice().reverse().map((text) => {
    const li = document.createElement("li");
    li.textContent = text;
    return li;
  }));
  document.getElementById("problems-panel").hidden = snapshot.problems.length === 0;
}

function listen() {
  const link = document.getElementById("link");
  const source = new EventSource("api/team/events");
  source.onopen = () => { link.textContent = "live"; link.className = "online"; };
  source.onmessage = (message) => show(JSON.parse(message.data));
  source.onerror = () => { link.textContent = "reconnecting…"; link.className = "offline"; };
}

document.getElementById("export").addEventListener("click", async () => {
  const said = document.getElementById("exported");
  const answer = await fetch("api/export", {method: "POST"});
  const body = await answer.json();
  said.textContent = answer.ok
    ? `written: ${body.written.join(", ") || "nothing yet"}${body.warnings.length ? ` (${body.warnings.join("; ")})` : ""}`
    : body.error;
});

fetch("api/team").then((answer) => answer.json()).then(show).finally(listen);
