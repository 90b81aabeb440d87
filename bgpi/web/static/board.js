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
const drags = new Map();  // pointer id -> {from, colour, ghost}: one checker in hand per finger
const presses = new Map(); // pointer id -> {name, started, timer}: a button held down
let queue = Promise.resolve();
// The colour of each checker, bottom first, per location: the game says most of them; the
// page remembers the ones it put down itself (a black checker moved during white's turn,
// every checker between games), which the switches cannot tell apart.
let stacks = {};
let drops = [];           // this turn's [from, to] of the page's own hands (the "which play" answer)
let held = null;          // the checker a click took ({from, colour, ghost}), until the next click
let lastCube = null;      // the cube as the game left it, drawn where it was after the game
const pressing = new Set(); // buttons whose press the board is still answering: clicks on them are ignored
let quietUntil = 0;       // ... and on the last one pressed for a moment after its answer
let lastPressed = null;
let movedSince = false;   // whether a checker moved since the last press
const QUIET_MS = 400;

// -- talking to the board -------------------------------------------------------------

function api(path) {
  return token ? `${path}${path.includes("?") ? "&" : "?"}token=${encodeURIComponent(token)}` : path;
}

// Board-script lines, sent one request after another so that the board sees them in order.
let unanswered = 0;        // requests the board has not answered yet (tests wait for 0)
function send(lines) {
  unanswered += 1;
  queue = queue.then(() => fetch(api("api/actions"), {
    method: "POST", headers: {"Content-Type": "application/x-ndjson"},
    body: lines.map((line) => JSON.stringify(line)).join("\n"),
  }).then((response) => response.json().then((answer) => {
    if (!response.ok) say((answer.problems || [answer.error]).join("; "), true);
    return answer;
  })).catch((error) => say(`the board did not answer: ${error}`, true)).finally(() => { unanswered -= 1; }));
  return queue;
}

function connect() {
  const link = document.getElementById("link");
  const source = new EventSource(api("api/events"));
  source.onopen = () => { link.textContent = "live"; link.className = "online"; };
  source.onerror = () => { link.textContent = "reconnecting…"; link.className = "offline"; };
  source.onmessage = (message) => {
    const event = JSON.parse(message.data);
    if (event.event === "state") {
      if (!view) showSession(event);
      view = event; remember(); draw(); answerChoice();
      document.dispatchEvent(new CustomEvent("bgpi:view", {detail: view}));  // chouette.js listens
    }
  };
}

// -- what the page remembers --------------------------------------------------------------

function remember() {
  const fresh = {};
  for (const [loc, stack] of Object.entries(view.checkers)) {
    const old = stacks[loc] || [];
    const colours = (view.colours || {})[loc] || [];
    fresh[loc] = [];
    for (let i = 0; i < stack.count; i++) fresh[loc].push(colours[i] || old[i] || fallbackColour(loc));
  }
  stacks = fresh;
  if (!view.result) lastCube = {...view.cube, offered: null, doubler: null};
  if (!["move", "choose"].includes(view.phase)) drops = [];
}

// A checker nobody has named: the mover's during a move, the set-up's between games.
function fallbackColour(loc) {
  if (view.setup && view.setup[loc]) return view.setup[loc].colour;
  return ["move", "choose"].includes(view.phase) && view.turn ? view.turn : "unknown";
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
  if (lit) {
    tint.classList.add("lit");
    if (lit.combined) tint.classList.add("combined");
    tint.setAttribute("fill", lit.colour);
  }
  // Both numberings: the player on roll's count large, the other's small beside it.
  const black = view.turn === "black";
  const label = el("text", {class: "label", x: p.x + W / 2, y: p.top ? Y_TOP - F - 11 : Y_BOTTOM + F + 11,
                            id: `label-${loc}`}, g);
  const own = black ? 25 - Number(loc) : Number(loc);
  el("tspan", {class: "own"}, label).textContent = own;
  el("tspan", {class: "other", dx: 2}, label).textContent = black ? loc : 25 - Number(loc);
}

function drawCheckers(g, loc, stack) {
  const p = place(loc);
  const colours = stacks[loc] || [];
  if (loc.startsWith("off")) {
    // The tray holds its checkers on edge, one slab each; a dragged one is taken from the top.
    for (let i = 0; i < stack.count; i++) {
      const y = p.top ? p.y + 4 + i * 13 : p.y + p.h - 15 - i * 13;
      el("rect", {class: `slab ${colours[i] || "unknown"}`, x: p.x + 6, y, width: p.w - 12, height: 11, rx: 2,
                  "data-loc": loc}, g);
    }
    return;
  }
  const slots = loc.startsWith("bar") ? view.slots.bar : view.slots.point;
  const shown = Math.min(stack.count, slots);
  for (let i = 0; i < shown; i++) {
    // Past the slots the top checker stands for the rest: it shows the top one's colour.
    const colour = (i === shown - 1 ? colours[colours.length - 1] : colours[i]) || "unknown";
    const cy = p.top ? p.y + D / 2 + 2 + i * D : p.y + p.h - D / 2 - 2 - i * D;
    el("circle", {class: `checker ${colour}`, cx: p.x + p.w / 2, cy, r: D / 2 - 1, "data-loc": loc}, g);
    if (i === shown - 1 && stack.count > shown) {
      el("text", {class: `count ${colour}`, x: p.x + p.w / 2, y: cy, "data-loc": loc}, g).textContent = stack.count;
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

// Which of the two dice are played: a die whose number is no longer left; of a double's
// four moves, the first die once two are played, the second once all four are.
function diceUsed() {
  if (!view.dice || !view.dice_left) return [false, false];
  const [first, second] = view.dice, left = view.dice_left;
  if (first === second) return [left.length <= 2, left.length === 0];
  const shown = diceShown();
  return shown.map((die) => !left.includes(die));
}

// The dice in the order the LEDs show them (`die:1` first).
function diceShown() {
  const [first, second] = view.dice;
  const lit = (die) => (view.leds.targets[die] || []).filter((index) => view.leds.looks[index]).length;
  // The LEDs show the playable die first when only one can be played: follow them.
  return lit("die:1") === second && lit("die:2") === first && first !== second ? [second, first] : [first, second];
}

function drawDice(g) {
  const centre = X_RIGHT + 3 * W;
  ["die:1", "die:2"].forEach((die, n) => {
    const cx = centre + (n ? 32 : -32);
    // While a double waits for its answer the dice's pips light the question, not a roll.
    const asking = ["doubled"].includes(view.phase) ? " asking" : "";
    const used = diceUsed()[n] ? " used" : "";
    el("rect", {class: `die${asking}${used}`, x: cx - 22, y: Y_MID - 22, width: 44, height: 44, rx: 7,
                id: `die-${n + 1}`}, g);
    (view.leds.targets[die] || []).forEach((index, pip) => {
      const [dx, dy] = PIP_SPOTS[pip];
      drawLed(g, cx + dx * 12, Y_MID + dy * 12, index, 4.5, `pip die-${n + 1}${used}`, {"data-loc": die});
    });
  });
}

// The cube as the game has it; after a game, where the game left it (a double dropped is
// no longer on offer) until the board is set up for the next game, which starts at 1.
function shownCube() {
  if (!view.result || (view.prompt && view.prompt.asks !== "game_over")) return view.cube;
  return lastCube || {value: view.result.cube, owner: null, offered: null, doubler: null};
}

// The cube stands in the middle when nobody owns it, on its owner's side of the board
// (white's at the bottom edge, black's at the top) when owned; offered, it is drawn large
// and amber in the middle, with the doubler's words beside it.
function drawDiceCaption(g) {
  if (view.phase !== "doubled") return;
  el("text", {class: "caption dice-caption", x: X_RIGHT + 3 * W, y: Y_MID + 33}, g).textContent =
    "the dice light the question: take or drop";
}

function drawCube(g) {
  const cube = shownCube();
  const offered = cube.offered !== null;
  const x = X_LEFT + 4.5 * W;
  const y = offered || !cube.owner ? Y_MID : cube.owner === "white" ? HEIGHT - 21 : 21;
  const size = offered ? 48 : 36;
  const group = el("g", {class: offered ? "cube offered" : "cube", id: "cube", "data-owner": cube.owner || "",
                         transform: `translate(${x}, ${y})`}, g);
  el("rect", {x: -size / 2, y: -size / 2, width: size, height: size, rx: 5}, group);
  const value = offered ? cube.offered : cube.value;
  el("text", {x: 0, y: 0}, group).textContent = value === 1 ? 64 : value;
  if (offered) {
    el("text", {class: "caption", id: "cube-caption", x, y: y + size / 2 + 10}, g).textContent = "double offered";
  } else if (cube.owner) {
    el("text", {class: "caption owned", id: "cube-caption", x: x + size / 2 + 6, y}, g).textContent = `${cube.owner}'s`;
  }
}

function cubeWords() {
  const cube = shownCube();
  if (cube.offered !== null) {
    const taker = cube.doubler === "white" ? "black" : "white";
    return `${cap(cube.doubler)} offers the cube at ${cube.offered}: ${taker} takes or drops`;
  }
  if (cube.owner) return `cube ${cube.value}, ${cube.owner} owns it`;
  return cube.value === 1 ? "cube in the middle" : `cube ${cube.value} in the middle`;
}

function cap(word) { return word ? word[0].toUpperCase() + word.slice(1) : ""; }

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
  drawDiceCaption(g);
  drawCube(g);
  drawButtons(g);
  for (const drag of drags.values()) board.appendChild(drag.ghost);
  showHeld();
  drawText();
}

function drawText() {
  document.getElementById("kind").textContent = view.board === "sim" ? "simulated board" : "live view of the board";
  document.getElementById("match").textContent = view.match_length
    ? `match to ${view.match_length}${view.crawford ? " (Crawford)" : ""}` : "money play";
  document.getElementById("score").textContent = `white ${view.score.white} · black ${view.score.black}`;
  const dice = view.dice ? `, rolled ${Math.max(...view.dice)}${Math.min(...view.dice)}` : "";
  document.getElementById("status").textContent = `${view.phase.replace("_", " ")}${view.turn ? `, ${view.turn} on turn` : ""}${dice}`;
  document.getElementById("asking").textContent = view.prompt_words || "";
  document.getElementById("cube-words").textContent = cubeWords();
  for (const side of ["white", "black"]) {
    document.getElementById(`count-${side}`).textContent =
      view.pips ? `${cap(side)}: ${view.pips[side]} pips, ${view.off[side]} off` : `${cap(side)}: ${view.off[side]} in the tray`;
  }
  const unset = view.prompt && ["setup", "game_over"].includes(view.prompt.asks);
  document.getElementById("set-up").hidden = !(view.actions && view.setup && unset);
  document.getElementById("undo").hidden = !(view.actions && view.phase === "move" && drops.length);
  const computers = view.computers || [];
  document.getElementById("players").textContent = computers.length
    ? ["white", "black"].map((side) => `${side}: ${computers.includes(side) ? "the computer" : "you"}`).join(" · ") : "";
  drawControls();
  drawBanner();
  document.getElementById("help").textContent = view.actions
    ? "Click a checker to take it and click where it goes (or drag it), from a point, the bar or a tray; " +
      "Undo puts your last checker back. Click a button to press it, hold it a second for a long press; " +
      "the controls above the board do what its buttons do. " +
      "Point numbers: large in the count of the player on roll, small in the other's."
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

// -- controls: every button sequence the board answers now, named ----------------------------

const KINDS = ["single", "gammon", "backgammon"];
// The answers whose word alone would not say what the control does.
const LABELS = {"new session": "Choose a new session", "choose session": "Choose a new session",
                "next choice": "Next choice", "start it": "Start this session", "back": "Go back",
                "next reading": "Show the next reading", "this reading": "Commit this reading"};
const KIND_WORDS = {single: "a single game", gammon: "a gammon", backgammon: "a backgammon"};

// [{label, lines}]: what the buttons answer now (a drop's two presses, a long press, the
// presses that step to a resignation's kind and offer it), for the players at this page
// (not the computer's), and a way to resign whenever a held cube would open one.
function controls() {
  const prompt = view.prompt;
  if (!view.actions || !prompt) return [];
  const humans = ["white", "black"].filter((side) => !(view.computers || []).includes(side));
  const list = [], words = new Set();
  for (const [button, word] of Object.entries(prompt.answers)) {
    const name = button.replace("hold ", ""), hold = button.startsWith("hold ");
    const side = name.split(".")[0];
    if (!humans.includes(side) || words.has(word)) continue;
    words.add(word);
    if (word === "single, gammon, backgammon") {
      const now = KINDS.indexOf(view.resigning ? view.resigning.result : "single");
      KINDS.forEach((kind, k) => {
        const steps = (k - now + KINDS.length) % KINDS.length;
        const points = (k + 1) * view.cube.value;
        list.push({label: `Offer ${KIND_WORDS[kind]} (${points} point${points === 1 ? "" : "s"})`,
                   lines: [...Array(steps).fill({press: name}), {press: `${side}.turn`}]});
      });
    } else if (prompt.asks === "resigning" && word === "offer") {
      continue;  // the offers above say what they offer
    } else if (word === "drop (press twice)") {
      list.push({label: "Drop", lines: [{press: name}, {press: name}]});
    } else {
      list.push({label: LABELS[word] || cap(word), lines: [hold ? {hold: name} : {press: name}]});
    }
  }
  if (["roll", "move", "choose"].includes(view.phase)) {
    for (const side of humans) list.push({label: `${cap(side)} resigns…`, lines: [{hold: `${side}.cube`}]});
  }
  return list;
}

function drawControls() {
  document.getElementById("controls").replaceChildren(...controls().map(({label, lines}) => {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = label;
    button.title = lines.map((line) => `${line.hold ? "hold " : ""}${buttonLabel(line.press || line.hold)}`).join(", then ");
    button.addEventListener("click", () => pressLines(lines));
    return button;
  }));
}

function buttonLabel(name) {
  const [side, kind] = name.split(".");
  return kind ? `${cap(side)} ${kind}` : cap(side);
}

// A control's presses, sent together (the board hears them in order, a moment apart).
function pressLines(lines) {
  if (pressing.size || held || drags.size) return;
  const name = lines[0].press || lines[0].hold;
  pressing.add(name);
  lastPressed = name;
  movedSince = false;
  send(lines).then(() => { pressing.delete(name); quietUntil = performance.now() + QUIET_MS; });
}

// Game over and match over: who won, the score, and what to do next.
function drawBanner() {
  const banner = document.getElementById("banner");
  const result = view.result;
  if (!result) { banner.hidden = true; return; }
  const kinds = {single: "a single game", gammon: "a gammon", backgammon: "a backgammon"};
  const points = `${result.points} point${result.points === 1 ? "" : "s"}`;
  const score = `Score: white ${view.score.white} · black ${view.score.black}` +
    (view.match_length ? ` in a match to ${view.match_length}.` : ".");
  let next;
  if (view.phase === "match_over") {
    next = "Next: a turn button starts a new match of the same length; or choose a new session beside the board.";
  } else if (view.prompt && view.prompt.asks === "opening") {
    next = "The board is set up: a turn button rolls the opening. Or a cube button chooses a new session.";
  } else {
    const how = view.actions ? "drag the checkers, or press Set up the board" : "as the lights show";
    next = `Next game: set up the board (${how}); then a turn button rolls the opening. ` +
      "Or a cube button chooses a new session.";
  }
  document.getElementById("banner-title").textContent = view.phase === "match_over"
    ? `${cap(result.winner)} wins the match` : `${cap(result.winner)} wins ${kinds[result.result] || "the game"}: ${points}`;
  document.getElementById("banner-text").textContent = `${score} ${next}`;
  banner.hidden = false;
}

function say(text, bad) {
  const item = document.createElement("li");
  item.textContent = text;
  if (bad) item.className = "bad";
  document.getElementById("words").prepend(item);
}

function playText(entry) {
  switch (entry.kind) {
    case "play": return `${Math.max(...entry.dice)}${Math.min(...entry.dice)}: ${entry.move || "(no play)"}`;
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
  if (!handsAllowed() || drags.has(event.pointerId) || presses.has(event.pointerId)) return;
  const button = event.target.closest("[data-button]");
  if (button) { pressStart(button, event); return; }
  const {x, y} = boardPoint(event);
  if (held) { event.preventDefault(); putDown(held, locationAt(x, y) || held.from); held = null; return; }
  // A checker, or anywhere on its point's column: its top checker.
  const loc = event.target.getAttribute("data-loc") || locationAt(x, y);
  if (!loc || !view.checkers[loc] || !(stacks[loc] || []).length) return;
  event.preventDefault();
  board.setPointerCapture(event.pointerId);
  // The checker in this hand keeps its colour: the top one, or on a point where a hit blot
  // still stands under the hitter, the blot (the rules send it to the bar first).
  const hit = view.lights[loc] && view.lights[loc].role === "hit";
  const colour = hit ? stacks[loc].shift() : stacks[loc].pop();
  const ghost = el("circle", {class: `checker ghost ${colour}`, cx: x, cy: y, r: D / 2 - 1,
                              id: drags.size ? `in-hand-${event.pointerId}` : "in-hand"});
  drags.set(event.pointerId, {from: loc, colour, ghost, x, y, moved: false});
  board.appendChild(ghost);
  send([{lift: lineLocation(loc)}]);
});

board.addEventListener("pointermove", (event) => {
  const drag = drags.get(event.pointerId);
  if (!drag) return;
  const {x, y} = boardPoint(event);
  drag.moved = drag.moved || Math.hypot(x - drag.x, y - drag.y) > D / 4;
  drag.ghost.setAttribute("cx", x);
  drag.ghost.setAttribute("cy", y);
});

// Only the finger that holds a checker puts it down: another finger's lift is not a drop.
// A click (a checker let go where it was taken, unmoved) keeps it in hand: the next click
// puts it down, on a point, the bar or a tray, or back where it came from.
function drop(event) {
  const drag = drags.get(event.pointerId);
  if (!drag) return;
  const {x, y} = boardPoint(event);
  const to = event.type === "pointercancel" ? drag.from : locationAt(x, y) || drag.from;  // off the board: back
  drags.delete(event.pointerId);
  if (to === drag.from && !drag.moved && event.type === "pointerup") {
    held = drag;
    showHeld();
    return;
  }
  putDown(drag, to);
}

function putDown(hand, to) {
  hand.ghost.remove();
  (stacks[to] = stacks[to] || []).push(hand.colour);
  if (to !== hand.from) drops.push([hand.from, to, hand.colour]);
  quietUntil = 0;  // the hands moved since the last press: the next press is meant
  movedSince = true;
  send([{place: lineLocation(to)}]);
}

// The checker a click took floats over its point, raised, until the next click.
function showHeld() {
  if (!held) return;
  const p = place(held.from);
  const count = (stacks[held.from] || []).length;
  const slots = held.from.startsWith("off") ? 0 : Math.min(count, held.from.startsWith("bar") ? view.slots.bar : view.slots.point);
  const cy = p.top ? p.y + D / 2 + 2 + slots * D + 6 : p.y + p.h - D / 2 - 2 - slots * D - 6;
  held.ghost.setAttribute("cx", p.x + p.w / 2 + 6);
  held.ghost.setAttribute("cy", Math.max(p.y + D / 2, Math.min(p.y + p.h - D / 2, cy)));
  held.ghost.id = "in-hand";
  held.ghost.classList.add("held");
  board.appendChild(held.ghost);
}
board.addEventListener("pointerup", (event) => { if (drags.has(event.pointerId)) drop(event); else pressEnd(event); });
board.addEventListener("pointercancel", (event) => {
  if (drags.has(event.pointerId)) drop(event); else cancelPress(event);
});

function lineLocation(loc) { return /^\d+$/.test(loc) ? Number(loc) : loc; }

function pressStart(group, event) {
  event.preventDefault();
  const bar = group.querySelector(".progress");
  const started = performance.now();
  group.classList.add("pressed");
  const timer = setInterval(() => {
    const share = Math.min(1, (performance.now() - started) / HOLD_MS);
    bar.setAttribute("width", 120 * share);
  }, 50);
  presses.set(event.pointerId, {name: group.getAttribute("data-button"), started, timer});
}

function cancelPress(event) {
  const pressing = presses.get(event.pointerId);
  if (!pressing) return;
  clearInterval(pressing.timer);
  presses.delete(event.pointerId);
  draw();
}

// One press of a button at a time: clicks on it while the board is still answering it, or
// just after with no hand moved since, a commit right after rolling with nothing moved,
// and any click while the dice tumble (nobody is asked anything) are a hand's bounce, not
// a second press, and are dropped.
function pressEnd(event) {
  const pressing = presses.get(event.pointerId);
  if (!pressing) return;
  cancelPress(event);
  const held = performance.now() - pressing.started >= HOLD_MS;
  pressButton(pressing.name, held);
}

function pressButton(name, held) {
  if (pressing.has(name) || (name === lastPressed && performance.now() < quietUntil) || !view.prompt) return null;
  // The same button again to commit a play nobody has moved yet: the bounce of the roll.
  if (name === lastPressed && !movedSince && view.prompt.answers[name] === "commit") return null;
  pressing.add(name);
  lastPressed = name;
  movedSince = false;
  return send([held ? {hold: name} : {press: name}]).then((answer) => {
    pressing.delete(name);
    quietUntil = performance.now() + QUIET_MS;
    return answer;
  });
}

// -- what only the page's hands know ---------------------------------------------------------

// "Set up the board": the simulated checkers go to the set-up position, as hands would
// move them, all in one go: on each location the checkers of the wrong colour and those
// too many stay surplus, and each goes to a place that lacks one, of its own colour first.
function setupMoves() {
  const target = view.setup || {};
  const surplus = [], lacking = [];
  for (const loc of locations()) {
    const have = (stacks[loc] || []).slice();
    const want = target[loc] ? target[loc].count : 0;
    let kept = 0;
    while (kept < have.length && kept < want && have[kept] === target[loc].colour) kept += 1;
    for (let n = have.length; n > kept; n--) surplus.push({loc, colour: have[n - 1]});
    for (let n = kept; n < want; n++) lacking.push({loc, colour: target[loc].colour});
  }
  const moves = [];
  for (const sameColour of [true, false]) {
    for (const need of lacking) {
      if (need.done) continue;
      const give = surplus.find((one) => !one.used && (!sameColour || one.colour === need.colour));
      if (!give) continue;
      give.used = need.done = true;
      moves.push([give.loc, need.loc]);
    }
  }
  return moves;
}

document.getElementById("set-up").addEventListener("click", () => {
  if (!handsAllowed() || !view.setup) return;
  const moves = setupMoves();
  // The page's hands remember what they carried: each checker keeps its colour.
  for (const [from, to] of moves) (stacks[to] = stacks[to] || []).push(stacks[from].pop());
  if (moves.length) send(moves.map(([from, to]) => ({move: [lineLocation(from), lineLocation(to)]})));
});

// Undo: the page's hands take back their last move of this turn, as hands would: the
// checker of that move's colour goes back where it came from.
document.getElementById("undo").addEventListener("click", () => {
  if (!handsAllowed() || !drops.length || held || drags.size) return;
  const [from, to, colour] = drops.pop();
  const stack = stacks[to] || [];
  const at = stack.lastIndexOf(colour);
  (stacks[from] = stacks[from] || []).push(stack.splice(at < 0 ? stack.length - 1 : at, 1)[0]);
  movedSince = true;
  quietUntil = 0;
  send([{move: [lineLocation(to), lineLocation(from)]}]);
});

// The switches cannot tell some plays apart (a checker hidden on a full point); the page
// knows where its hands put each checker, so it answers the board's question itself: the
// cube button until the lit reading is the one its hands made, then the turn button.
let choosing = false, choiceTries = 0;
function answerChoice() {
  if (view.phase !== "choose") choiceTries = 0;
  if (!handsAllowed() || view.phase !== "choose" || !view.turn || !drops.length || choosing) return;
  if (choiceTries >= 8) return;  // no reading is the one made: the player answers with the buttons
  const made = {};
  for (const [from, to] of drops) {
    made[from] = (made[from] || 0) - 1;
    made[to] = (made[to] || 0) + 1;
  }
  const lit = {};
  for (const [loc, light] of Object.entries(view.lights)) {
    if (light.role === "source") lit[loc] = -1;
    if (light.role === "destination") lit[loc] = 1;
  }
  const changed = Object.entries(made).filter(([, n]) => n !== 0);
  const same = changed.length === Object.keys(lit).length && changed.every(([loc, n]) => lit[loc] === Math.sign(n));
  choosing = true;
  choiceTries += 1;
  const button = `${view.turn}.${same ? "turn" : "cube"}`;
  send([{press: button}]).then(() => { choosing = false; answerChoice(); });
}

// The session form starts out as the session being played, to change from there.
function showSession(first) {
  const form = document.getElementById("session");
  form.elements.kind.value = first.match_length ? "match" : "money";
  if (first.match_length) form.querySelector("input[name=length]").value = first.match_length;
  const computers = first.computers || [];
  form.elements.opponent.value = computers.length === 1 ? computers[0] : "";
}

// A new session ends the one in progress: the page asks first, in its own words.
function sessionInProgress() {
  if (!view || view.phase === "match_over") return false;
  return view.plays.length > 0 || view.score.white + view.score.black > 0 || !["setup", "opening"].includes(view.phase);
}

function startSession() {
  const form = new FormData(document.getElementById("session"));
  const config = {};
  if (form.get("kind") === "match") config.match = Number(form.get("length"));
  else config.beavers = form.get("beavers") === "on";
  if (form.get("opponent")) { config.opponent = "gnubg"; config.opponent_side = form.get("opponent"); }
  document.getElementById("confirm-session").hidden = true;
  fetch(api("api/session"), {method: "POST", headers: {"Content-Type": "application/json"},
                            body: JSON.stringify({config})})
    .then((response) => response.json().then((answer) => {
      if (!response.ok) say((answer.problems || [answer.error]).join("; "), true);
    }));
}

document.getElementById("session").addEventListener("submit", (event) => {
  event.preventDefault();
  if (!sessionInProgress()) { startSession(); return; }
  const what = view.match_length ? `the match to ${view.match_length}` : "the money session";
  document.getElementById("confirm-text").textContent =
    `This ends ${what} in progress (white ${view.score.white} · black ${view.score.black}). ` +
    "Its games stay in the downloads.";
  document.getElementById("confirm-session").hidden = false;
});
document.getElementById("confirm-yes").addEventListener("click", startSession);
document.getElementById("confirm-no").addEventListener("click", () => {
  document.getElementById("confirm-session").hidden = true;
});
document.getElementById("download-mat").href = api("api/session.mat");
document.getElementById("download-sgf").href = api("api/session.sgf");

// What the page's other scripts (chouette.js) may use: the board's lines and its buttons.
window.bgpi = {send, pressButton, api, say, sessionInProgress};

connect();
