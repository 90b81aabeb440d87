// The board in a browser: draws the view of /api/state and /api/events, and turns
// drags and clicks into board-script lines for POST /api/actions.  No build step.
"use strict";

const SVG = "http://www.w3.org/2000/svg";
// Board units (to scale: a checker is 40 across, a point 44 wide).
const D = 40, W = 44, F = 16, B = 56, T = 56, PH = 210, G = 70, STRIP = 66;
const X_LEFT = F, X_BAR = F + 6 * W, X_RIGHT = X_BAR + B, X_TRAY = X_RIGHT + 6 * W + F;
const Y_TOP = STRIP + F, Y_MID = Y_TOP + PH + G / 2, Y_BOTTOM = Y_TOP + 2 * PH + G;
const WIDTH = X_TRAY + T + F, HEIGHT = Y_BOTTOM + F + STRIP;
const HOLD_MS = 1000; // a long press, as the board's buttons count it
const PIP_SPOTS = [[-1, -1], [1, -1], [-1, 0], [0, 0], [1, 0], [-1, 1], [1, 1]];

const board = document.getElementById("board");
const params = new URLSearchParams(location.search);
const token = params.get("token");
let view = null;
let drag = null;          // {from, ghost} while a checker is in hand
let queue = Promise.resolve();

// -- talking to the board -------------------------------------------------------------

function api(path) {
  return token ? `${path}${path.includes("?") ? "&" : "?"}token=${encodeURIComponent(token)}` : path;
}

// Board-script lines, sent one request after another so that the board sees them in order.
function send(lines) {
  queue = queue.then(() => fetch(api("api/actions"), {
    method: "POST", headers: {"Content-Type": "application/x-ndjson"},
    body: lines.map((line) => JSON.stringify(line)).join("\n"),
  }).then((response) => response.json().then((answer) => {
    if (!response.ok) say((answer.problems || [answer.error]).join("; "), true);
    return answer;
  })).catch((error) => say(`the board did not answer: ${error}`, true)));
  return queue;
}

function connect() {
  const link = document.getElementById("link");
  const source = new EventSource(api("api/events"));
  source.onopen = () => { link.textContent = "live"; link.className = "online"; };
  source.onerror = () => { link.textContent = "reconnecting…"; link.className = "offline"; };
  source.onmessage = (message) => {
    const event = JSON.parse(message.data);
    if (event.event === "state") { view = event; draw(); }
  };
}

// -- drawing ----------------------------------------------------------------------------

function el(name, attributes, parent) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes || {})) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}

function pointColumn(point) {
  if (point <= 6) return {x: X_RIGHT + (6 - point) * W, top: false};
  if (point <= 12) return {x: X_LEFT + (12 - point) * W, top: false};
  if (point <= 18) return {x: X_LEFT + (point - 13) * W, top: true};
  return {x: X_RIGHT + (point - 19) * W, top: true};
}

// Where a location stands: its rectangle, which end is its outer edge, its LED row.
function place(loc) {
  if (/^\d+$/.test(loc)) {
    const {x, top} = pointColumn(Number(loc));
    return {x, y: top ? Y_TOP : Y_BOTTOM - PH, w: W, h: PH, top, ledY: top ? Y_TOP - F / 2 : Y_BOTTOM + F / 2};
  }
  const white = loc.endsWith("white");
  if (loc.startsWith("bar")) {   // white enters at 19..24: its half of the bar is the upper one
    return {x: X_BAR, y: white ? Y_TOP : Y_BOTTOM - PH, w: B, h: PH, top: white,
            ledY: white ? Y_TOP + PH + 8 : Y_BOTTOM - PH - 8};
  }
  return {x: X_TRAY, y: white ? Y_BOTTOM - PH : Y_TOP, w: T, h: PH, top: !white,
          ledY: white ? Y_BOTTOM - PH - 7 : Y_TOP + PH + 7};
}

function locationAt(x, y) {
  for (const loc of locations()) {
    const p = place(loc);
    if (x >= p.x && x < p.x + p.w && y >= p.y && y < p.y + p.h) return loc;
  }
  return null;
}

function locations() {
  const all = [];
  for (let point = 1; point <= 24; point++) all.push(String(point));
  return all.concat(["bar:white", "bar:black", "off:white", "off:black"]);
}

function drawFrame(g) {
  el("defs", {}, g).innerHTML = '<filter id="glow" x="-1" y="-1" width="3" height="3">' +
    '<feGaussianBlur stdDeviation="2.5" result="b"/><feMerge><feMergeNode in="b"/>' +
    '<feMergeNode in="SourceGraphic"/></feMerge></filter>';
  el("rect", {class: "frame", x: 0, y: STRIP, width: WIDTH, height: HEIGHT - 2 * STRIP, rx: 10}, g);
  el("rect", {class: "felt", x: X_LEFT, y: Y_TOP, width: 6 * W, height: 2 * PH + G}, g);
  el("rect", {class: "felt", x: X_RIGHT, y: Y_TOP, width: 6 * W, height: 2 * PH + G}, g);
  el("rect", {class: "bar", x: X_BAR, y: Y_TOP, width: B, height: 2 * PH + G}, g);
  for (const loc of ["off:white", "off:black"]) {
    const p = place(loc);
    el("rect", {class: "tray", x: p.x, y: p.y, width: p.w, height: p.h}, g);
  }
}

function drawPoint(g, loc, lit) {
  const p = place(loc);
  const tip = p.top ? p.y + PH - 12 : p.y + 12;
  const base = p.top ? p.y : p.y + PH;
  const shape = `${p.x},${base} ${p.x + W},${base} ${p.x + W / 2},${tip}`;
  const dark = Number(loc) % 2 === 0;
  el("polygon", {class: `point ${dark ? "dark" : "light"}`, points: shape}, g);
  const tint = el("polygon", {class: "tint", points: shape, id: `tint-${loc}`}, g);
  if (lit) { tint.classList.add("lit"); tint.setAttribute("fill", lit.colour); }
  el("text", {class: "label", x: p.x + W / 2, y: p.top ? Y_TOP - F - 9 : Y_BOTTOM + F + 9}, g).textContent = loc;
}

function drawCheckers(g, loc, stack) {
  const p = place(loc);
  const colour = stack.colour || "unknown";
  if (loc.startsWith("off")) {
    for (let i = 0; i < stack.count; i++) {
      const y = p.top ? p.y + 4 + i * 12 : p.y + p.h - 14 - i * 12;
      el("rect", {class: `slab ${colour}`, x: p.x + 6, y, width: p.w - 12, height: 10, rx: 2, "data-loc": loc}, g);
    }
    return;
  }
  const slots = loc.startsWith("bar") ? view.slots.bar : view.slots.point;
  const shown = Math.min(stack.count, slots);
  for (let i = 0; i < shown; i++) {
    const cy = p.top ? p.y + D / 2 + 2 + i * D : p.y + p.h - D / 2 - 2 - i * D;
    el("circle", {class: `checker ${colour}`, cx: p.x + p.w / 2, cy, r: D / 2 - 1, "data-loc": loc}, g);
    if (i === shown - 1 && stack.count > shown) {
      el("text", {class: `count ${colour}`, x: p.x + p.w / 2, y: cy}, g).textContent = stack.count;
    }
  }
}

function blink(node, look) {
  if (!look.period) return;
  node.classList.add("blink");
  node.style.animationDuration = `${look.period}s`;
  // Every light with the same period blinks in step, as on the board.
  node.style.animationDelay = `-${(performance.now() / 1000) % look.period}s`;
}

// One LED of the profile's map: dark, or in its look's colour (blinking to its other
// colour, or to dark).
// `marks` go on the lit LED: its location and role, for people's tools and the tests.
function drawLed(g, x, y, index, r, kind, marks) {
  const look = view.leds.looks[index];
  const id = `led-${index}`;
  const base = el("circle", {class: `${kind}`, cx: x, cy: y, r, id}, g);
  if (!look) return;
  // Colours go in the style: the stylesheet's dark LED would beat a fill attribute.
  if (look.other) { base.style.fill = look.other; base.classList.add("lit"); }
  const lit = el("circle", {class: `${kind} lit`, cx: x, cy: y, r, id: `${id}-lit`, ...marks}, g);
  lit.style.fill = look.colour;
  blink(lit, look);
}

function drawLeds(g) {
  const targets = view.leds.targets;
  for (const loc of locations()) {
    const p = place(loc);
    const indices = targets[loc] || [];
    const marks = {"data-loc": loc, "data-role": view.lights[loc] ? view.lights[loc].role : ""};
    indices.forEach((index, i) => {
      drawLed(g, p.x + p.w * (i + 1) / (indices.length + 1), p.ledY, index, 6, "led", marks);
    });
  }
  const turnY = {white: Y_MID + 12, black: Y_MID - 12};
  for (const side of ["white", "black"]) {
    for (const index of targets[`turn:${side}`] || []) {
      drawLed(g, X_TRAY + T / 2, turnY[side], index, 6, "led", {"data-loc": `turn:${side}`});
    }
  }
}

function drawDice(g) {
  const centre = X_RIGHT + 3 * W;
  ["die:1", "die:2"].forEach((die, n) => {
    const cx = centre + (n ? 32 : -32);
    el("rect", {class: "die", x: cx - 22, y: Y_MID - 22, width: 44, height: 44, rx: 7, id: `die-${n + 1}`}, g);
    (view.leds.targets[die] || []).forEach((index, pip) => {
      const [dx, dy] = PIP_SPOTS[pip];
      drawLed(g, cx + dx * 12, Y_MID + dy * 12, index, 4.5, `pip die-${n + 1}`, {"data-loc": die});
    });
  });
}

function drawCube(g) {
  const cube = view.cube;
  const offered = cube.offered !== null;
  const holder = offered ? (cube.doubler === "white" ? "black" : "white") : cube.owner;
  const y = Y_MID + (holder === "white" ? 14 : holder === "black" ? -14 : 0);
  const group = el("g", {class: offered ? "cube offered" : "cube", id: "cube",
                         transform: `translate(${X_LEFT + 3 * W}, ${y})`}, g);
  el("rect", {x: -18, y: -18, width: 36, height: 36, rx: 5}, group);
  const value = offered ? cube.offered : cube.value;
  el("text", {x: 0, y: 0}, group).textContent = value === 1 ? 64 : value;
}

const BUTTONS = [
  {name: "black.turn", label: "Black turn", x: X_RIGHT + 10, top: true},
  {name: "black.cube", label: "Black cube", x: X_RIGHT + 150, top: true},
  {name: "white.cube", label: "White cube", x: X_RIGHT + 10, top: false},
  {name: "white.turn", label: "White turn", x: X_RIGHT + 150, top: false},
  {name: "hint", label: "Hint", x: X_LEFT + 10, top: false},
];

function drawButtons(g) {
  for (const button of BUTTONS) {
    const y = button.top ? 4 : HEIGHT - 38;
    const group = el("g", {class: "button", id: `button-${button.name.replace(".", "-")}`,
                           "data-button": button.name}, g);
    el("rect", {x: button.x, y, width: 120, height: 34}, group);
    el("rect", {class: "progress", x: button.x, y: y + 30, width: 0, height: 4}, group);
    el("text", {x: button.x + 60, y: y + 17}, group).textContent = button.label;
  }
}

function draw() {
  if (!view) return;
  board.setAttribute("viewBox", `0 0 ${WIDTH} ${HEIGHT}`);
  board.replaceChildren();
  const g = el("g", {}, board);
  drawFrame(g);
  for (let point = 1; point <= 24; point++) drawPoint(g, String(point), view.lights[String(point)]);
  for (const loc of ["bar:white", "bar:black", "off:white", "off:black"]) {
    const lit = view.lights[loc];
    if (lit) {
      const p = place(loc);
      el("rect", {class: "tint lit", x: p.x, y: p.y, width: p.w, height: p.h, fill: lit.colour, id: `tint-${loc}`}, g);
    }
  }
  for (const [loc, stack] of Object.entries(view.checkers)) drawCheckers(g, loc, stack);
  drawLeds(g);
  drawDice(g);
  drawCube(g);
  drawButtons(g);
  if (drag) board.appendChild(drag.ghost);
  drawText();
}

function drawText() {
  document.getElementById("kind").textContent = view.board === "sim" ? "simulated board" : "live view of the board";
  document.getElementById("match").textContent = view.match_length
    ? `match to ${view.match_length}${view.crawford ? " (Crawford)" : ""}` : "money play";
  document.getElementById("score").textContent = `white ${view.score.white} · black ${view.score.black}`;
  const dice = view.dice ? `, rolled ${view.dice[0]}${view.dice[1]}` : "";
  document.getElementById("status").textContent = `${view.phase}${view.turn ? `, ${view.turn} on turn` : ""}${dice}`;
  document.getElementById("asking").textContent = view.asking || "";
  document.getElementById("help").textContent = view.actions
    ? "Drag a checker with the mouse or a finger; click a button to press it, hold it a second for a long press."
    : "Hands on the board move the checkers: this page shows what the board sees.";
  const words = document.getElementById("words");
  words.replaceChildren(...view.words.slice().reverse().map((text) => {
    const item = document.createElement("li");
    item.textContent = text;
    if (text.startsWith("Illegal") || text.startsWith("The board does not")) item.className = "bad";
    return item;
  }));
  drawPlays();
}

function say(text, bad) {
  const item = document.createElement("li");
  item.textContent = text;
  if (bad) item.className = "bad";
  document.getElementById("words").prepend(item);
}

function playText(entry) {
  switch (entry.kind) {
    case "play": return `${entry.dice[0]}${entry.dice[1]}: ${entry.move || "(no play)"}`;
    case "double": return `Doubles => ${entry.cube}`;
    case "beaver": return `Beavers => ${entry.cube}`;
    case "take": return "Takes";
    default: return "Drops";
  }
}

function drawPlays() {
  const rows = [];
  for (const entry of view.plays) {
    const row = rows[rows.length - 1];
    if (!row || row[entry.player] || (entry.player === "white" && row.black)) rows.push({[entry.player]: playText(entry)});
    else row[entry.player] = playText(entry);
  }
  document.querySelector("#plays tbody").replaceChildren(...rows.map((row, n) => {
    const tr = document.createElement("tr");
    for (const text of [`${n + 1}.`, row.white || "", row.black || ""]) {
      const td = document.createElement("td");
      td.textContent = text;
      tr.appendChild(td);
    }
    return tr;
  }));
}

// -- hands --------------------------------------------------------------------------------

function boardPoint(event) {
  const matrix = board.getScreenCTM().inverse();
  const point = new DOMPoint(event.clientX, event.clientY).matrixTransform(matrix);
  return {x: point.x, y: point.y};
}

function handsAllowed() { return view && view.actions; }

board.addEventListener("pointerdown", (event) => {
  if (!handsAllowed()) return;
  const button = event.target.closest("[data-button]");
  if (button) { pressStart(button, event); return; }
  const loc = event.target.getAttribute("data-loc");
  if (!loc || drag || !view.checkers[loc]) return;
  event.preventDefault();
  board.setPointerCapture(event.pointerId);
  const {x, y} = boardPoint(event);
  const colour = view.checkers[loc].colour || "unknown";
  const ghost = el("circle", {class: `checker ghost ${colour}`, cx: x, cy: y, r: D / 2 - 1, id: "in-hand"});
  drag = {from: loc, ghost};
  board.appendChild(ghost);
  send([{lift: lineLocation(loc)}]);
});

board.addEventListener("pointermove", (event) => {
  if (!drag) return;
  const {x, y} = boardPoint(event);
  drag.ghost.setAttribute("cx", x);
  drag.ghost.setAttribute("cy", y);
});

function drop(event) {
  if (!drag) return;
  const {x, y} = boardPoint(event);
  const to = locationAt(x, y) || drag.from;   // dropped off the board: it goes back
  drag.ghost.remove();
  drag = null;
  send([{place: lineLocation(to)}]);
}
board.addEventListener("pointerup", (event) => { if (drag) drop(event); else pressEnd(event); });
board.addEventListener("pointercancel", drop);

function lineLocation(loc) { return /^\d+$/.test(loc) ? Number(loc) : loc; }

let pressing = null;
function pressStart(group, event) {
  event.preventDefault();
  const bar = group.querySelector(".progress");
  const started = performance.now();
  group.classList.add("pressed");
  const timer = setInterval(() => {
    const share = Math.min(1, (performance.now() - started) / HOLD_MS);
    bar.setAttribute("width", 120 * share);
  }, 50);
  pressing = {name: group.getAttribute("data-button"), started, timer};
}

function pressEnd() {
  if (!pressing) return;
  clearInterval(pressing.timer);
  const held = performance.now() - pressing.started >= HOLD_MS;
  send([held ? {hold: pressing.name} : {press: pressing.name}]);
  pressing = null;
  draw();
}

document.getElementById("session").addEventListener("submit", (event) => {
  event.preventDefault();
  const form = new FormData(event.target);
  const config = {};
  if (form.get("kind") === "match") config.match = Number(form.get("length"));
  else config.beavers = form.get("beavers") === "on";
  fetch(api("api/session"), {method: "POST", headers: {"Content-Type": "application/json"},
                            body: JSON.stringify({config})})
    .then((response) => response.json().then((answer) => {
      if (!response.ok) say((answer.problems || [answer.error]).join("; "), true);
    }));
});
document.getElementById("download-mat").href = api("api/session.mat");
document.getElementById("download-sgf").href = api("api/session.sgf");

connect();
