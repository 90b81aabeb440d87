// A chouette beside the board (docs/chouette.md): the players and the line (box, captain,
// crew), every seat's cube, the running score sheet, and the board's question with a
// button for each answer it takes; a latecomer joins, a player leaves, a new chouette
// starts.  It reads the view board.js hands it (the "bgpi:view" event) and speaks to the
// board through board.js (window.bgpi): the same lines the buttons and hands send.
"use strict";

(() => {
  const panel = document.getElementById("chouette");
  const answers = document.getElementById("chouette-answers");
  let view = null;

  function node(name, text, attributes) {
    const made = document.createElement(name);
    if (text !== undefined && text !== null) made.textContent = String(text);
    for (const [key, value] of Object.entries(attributes || {})) made.setAttribute(key, value);
    return made;
  }

  function row(cells, header) {
    const tr = node("tr");
    for (const cell of cells) tr.appendChild(cell instanceof Node ? cell : node(header ? "th" : "td", cell));
    return tr;
  }

  // -- who is who -------------------------------------------------------------------------

  function place(chouette, player) {
    const at = chouette.line.indexOf(player);
    if (at < 0) return "not playing";
    if (player === chouette.box) return "box";
    if (player === chouette.partner) return "the box's partner";
    if (player === chouette.captain) return "captain";
    return `crew ${at - 1}`;
  }

  // A seat's cube in words: centred, its own, the box's, offered, out of the game.
  function cubeWords(seat) {
    if (!seat) return "";
    if (seat.out) return `out (cube ${seat.cube})`;
    if (seat.offered) return `${seat.cube}, a double on offer`;
    if (seat.owner === "seat") return `${seat.cube}, own`;
    if (seat.owner === "box") return `${seat.cube}, the box's`;
    return seat.cube === 1 ? "centred" : `${seat.cube}, centred`;
  }

  function between() { return ["setup", "results"].includes(view.phase); }

  function drawLine(chouette) {
    const players = chouette.line.concat(Object.keys(chouette.totals).filter((p) => !chouette.line.includes(p)));
    const body = document.querySelector("#chouette-line tbody");
    body.replaceChildren(...players.map((player) => {
      const leave = node("button", "Leave", {type: "button", "data-leave": player});
      leave.disabled = !view.actions || !between() || !chouette.line.includes(player);
      const who = (chouette.computers || []).includes(player) ? `${player} (computer)` : player;
      const tr = row([chouette.chairs[player] || "", who, place(chouette, player),
                      cubeWords((chouette.seats || {})[player]), chouette.totals[player] || 0, leave]);
      tr.setAttribute("data-player", player);
      tr.className = place(chouette, player).split(" ")[0].replace("'", "");
      return tr;
    }));
    const sides = view.players ? ` White: ${view.players.white} · Black: ${view.players.black}.` : "";
    const rules = {never: "the team does not consult on the checker play",
                   always: "the team may consult on the checker play",
                   own_cube: "a member of the team may consult once their own cube is turned"};
    document.getElementById("chouette-rule").textContent =
      `${chouette.line.length ? "The line: " + chouette.line.join(", ") + "." : "Everyone rolls off first."}` +
      `${sides} Consultation: ${rules[chouette.consultation] || chouette.consultation}.`;
  }

  function drawSheet(chouette) {
    const sheet = view.sheet || [];
    const players = Object.keys(chouette.totals);
    for (const line of sheet) for (const p of Object.keys(line.totals)) if (!players.includes(p)) players.push(p);
    const table = document.getElementById("chouette-sheet");
    table.querySelector("thead").replaceChildren(row(["game", "box", "captain", ...players], true));
    const rows = sheet.map((line) => row([line.game, line.box, line.captain, ...players.map((player) => {
      const cell = node("td", player in line.points ? line.points[player] : "");
      if (line.why[player]) cell.title = line.why[player];
      return cell;
    })]));
    rows.push(row(["total", "", "", ...players.map((player) => chouette.totals[player] || 0)]));
    rows[rows.length - 1].className = "total";
    table.querySelector("tbody").replaceChildren(...rows);
  }

  // -- the board's question, a button for each answer -------------------------------------

  function drawAnswers(chouette) {
    const prompt = view.prompt;
    answers.replaceChildren();
    if (!prompt || !view.actions) return;
    const byChair = Object.fromEntries(Object.entries(chouette.chairs).map(([player, chair]) => [chair, player]));
    const asked = (prompt.asked || []).map((chair) => byChair[chair]).filter(Boolean);
    if (asked.length) answers.appendChild(node("span", `asked: ${asked.join(", ")}`, {class: "asked"}));
    for (const [button, word] of Object.entries(prompt.answers || {})) {
      const held = button.startsWith("hold ");
      const name = held ? button.slice(5) : button;
      const label = `${word} (${held ? "hold " : ""}${name.replace(".", " ")})`;
      const answer = node("button", label, {type: "button", "data-answer": button});
      answer.addEventListener("click", () => window.bgpi.pressButton(name, held));
      answers.appendChild(answer);
    }
  }

  function show(fresh) {
    view = fresh;
    const chouette = view.chouette;
    panel.hidden = !chouette;
    if (!chouette) return;
    drawLine(chouette);
    drawSheet(chouette);
    drawAnswers(chouette);
    document.getElementById("chouette-join").hidden = !view.actions;
  }

  document.addEventListener("bgpi:view", (event) => show(event.detail));

  // -- between games: a latecomer, a player leaving ---------------------------------------

  document.getElementById("chouette-join").addEventListener("submit", (event) => {
    event.preventDefault();
    const input = event.target.elements.name;
    const name = input.value.trim();
    if (!name) return;
    window.bgpi.send([{join: name}]);
    input.value = "";
  });
  document.querySelector("#chouette-line tbody").addEventListener("click", (event) => {
    const player = event.target.getAttribute("data-leave");
    if (player) window.bgpi.send([{leave: player}]);
  });

  // -- a new chouette ----------------------------------------------------------------------

  const start = document.getElementById("chouette-start");
  const confirm = document.getElementById("chouette-confirm");

  function startChouette() {
    confirm.hidden = true;
    const form = start.elements;
    const players = form.players.value.split(",").map((name) => name.trim()).filter(Boolean);
    const computers = form.computers.value.split(",").map((name) => name.trim()).filter(Boolean);
    const config = {chouette: {players, ...(computers.length ? {computers} : {})},
                    jacoby: form.jacoby.checked, beavers: form.beavers.checked};
    fetch(window.bgpi.api("api/session"), {method: "POST", headers: {"Content-Type": "application/json"},
                                           body: JSON.stringify({config})})
      .then((response) => response.json().then((answer) => {
        if (!response.ok) window.bgpi.say((answer.problems || [answer.error]).join("; "), true);
      }));
  }

  start.addEventListener("submit", (event) => {
    event.preventDefault();
    if (window.bgpi.sessionInProgress()) { confirm.hidden = false; return; }
    startChouette();
  });
  document.getElementById("chouette-yes").addEventListener("click", startChouette);
  document.getElementById("chouette-no").addEventListener("click", () => { confirm.hidden = true; });
})();
