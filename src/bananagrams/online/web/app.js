// The Bananagrams game page: a lobby, the player's board, rack and buttons, and the final grids,
// speaking the JSON protocol of docs/bananagrams-online.md over the server's /ws socket.
"use strict";

const SIZE = 64;
const STORE_KEY = "podium-bananagrams-seat";
const PLAYERS = ["Podium", "TwoLetterStranding", "Stranding", "Dangling", "Standard"];

const $ = (id) => document.getElementById(id);

const app = {
  socket: null,
  nextId: 1,
  room: null,
  seat: null,
  seatsInfo: [],
  state: null,
  cursor: { row: 32, col: 32 },
  across: true,
  selected: null,
  over: false,
  centred: false,
  reconnectTimer: null,
  graceSeconds: 60,
  droppedAt: null,
};

// ---- the socket -----------------------------------------------------------------------------

function socketUrl() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return scheme + "//" + location.host + "/ws";
}

function connect(firstMessage) {
  closeSocket();
  const socket = new WebSocket(socketUrl());
  app.socket = socket;
  socket.onopen = () => {
    setStatus(app.room ? "Connected to room " + app.room + "." : "Connected.");
    if (firstMessage) send(firstMessage);
  };
  socket.onmessage = (event) => {
    let message;
    try {
      message = JSON.parse(event.data);
    } catch (_) {
      setStatus("The server sent a frame that is not JSON.");
      return;
    }
    receive(message);
  };
  socket.onclose = () => {
    if (app.socket !== socket) return;
    app.socket = null;
    const saved = savedSeat();
    if (app.droppedAt === null) app.droppedAt = Date.now();
    if (saved && !app.over && Date.now() - app.droppedAt > app.graceSeconds * 1000) {
      forgetSeat();
      showLobby();
      setStatus("Could not reach the server within the " + app.graceSeconds + " s grace period: the seat is lost.");
    } else if (saved && !app.over) {
      setStatus("Connection lost: rejoining room " + saved.room + "…");
      clearTimeout(app.reconnectTimer);
      app.reconnectTimer = setTimeout(() => connect({ type: "rejoin", room: saved.room, token: saved.token }), 1000);
    } else if (!app.over) {
      setStatus("Not connected.");
    }
  };
}

// Closes the socket on purpose: no rejoin follows.
function closeSocket() {
  if (!app.socket) return;
  app.socket.onclose = null;
  app.socket.close();
  app.socket = null;
}

function send(message) {
  if (!app.socket || app.socket.readyState !== WebSocket.OPEN) {
    setStatus("Not connected: that did not reach the server.");
    return null;
  }
  message.id = app.nextId++;
  app.socket.send(JSON.stringify(message));
  return message.id;
}

// Opens a connection whose first message is `message` (create, join or rejoin).
function enter(message) {
  if (app.socket && app.socket.readyState === WebSocket.OPEN) send(message);
  else connect(message);
}

// ---- the seat kept across reloads -----------------------------------------------------------

function savedSeat() {
  try {
    const value = JSON.parse(sessionStorage.getItem(STORE_KEY) || "null");
    return value && typeof value.room === "string" && typeof value.token === "string" ? value : null;
  } catch (_) {
    return null;
  }
}

function saveSeat(room, token) {
  sessionStorage.setItem(STORE_KEY, JSON.stringify({ room, token }));
}

function forgetSeat() {
  sessionStorage.removeItem(STORE_KEY);
}

// ---- messages from the server ---------------------------------------------------------------

// Letters as the server writes them ("ABC", or a list) as a list.
function letterList(value) {
  return Array.isArray(value) ? value : [...String(value || "")];
}

function receive(message) {
  switch (message.type) {
    case "room":
      app.room = message.room;
      break;
    case "welcome":
      app.room = message.room;
      app.seat = message.seat;
      app.seatsInfo = message.seats || [];
      app.over = false;
      app.droppedAt = null;
      if (Number.isFinite(message.grace_s)) app.graceSeconds = message.grace_s;
      saveSeat(message.room, message.token);
      showGame();
      setStatus("You are seat " + (message.seat + 1) + " in room " + message.room + ".");
      break;
    case "state":
      message.rack = letterList(message.rack);
      app.state = message;
      renderState();
      break;
    case "peeled":
      addLog("You took " + message.got + " from " + (message.seat === app.seat ? "your" : (seatName(message.seat) || "a") + "'s") + " peel.", "mine");
      break;
    case "dumped":
      addLog("You dumped " + message.gave + " and took " + letterList(message.got).join(" ") + ".", "mine");
      break;
    case "log":
      addLog(message.text, message.event);
      break;
    case "rejected":
      onRejected(message);
      break;
    case "over":
      showOver(message);
      break;
    case "ack":
      break;
    default:
      break;
  }
}

function onRejected(message) {
  if (message.of === "rejoin") {
    forgetSeat();
    app.room = null;
    showLobby();
    setStatus("Could not rejoin: " + message.reason);
    return;
  }
  setStatus(message.of + " refused: " + message.reason);
  if (app.state) renderState();
}

// ---- the lobby ------------------------------------------------------------------------------

function seatRow(kind) {
  const item = document.createElement("li");
  item.className = "seat-row";
  item.dataset.kind = kind;
  const index = document.querySelectorAll("#seat-list li").length + 2;
  if (kind === "podium") {
    const options = PLAYERS.map((p) => `<option>${p}</option>`).join("");
    item.innerHTML =
      `<label>Podium player <select class="seat-player" aria-label="Seat ${index}: player">${options}</select></label>` +
      `<label>Pace (ms per action) <input class="seat-pace" type="number" min="100" max="60000" step="100" value="1500" aria-label="Seat ${index}: pace in milliseconds"></label>`;
  } else {
    item.innerHTML = `<span class="seat-person">A person (joins with the room code)</span>`;
  }
  const remove = document.createElement("button");
  remove.type = "button";
  remove.className = "small";
  remove.textContent = "Remove";
  remove.setAttribute("aria-label", "Remove seat " + index);
  remove.onclick = () => item.remove();
  item.appendChild(remove);
  $("seat-list").appendChild(item);
}

function createRoom(event) {
  event.preventDefault();
  const name = $("create-name").value.trim();
  const seats = [{ kind: "person" }];
  for (const row of document.querySelectorAll("#seat-list li")) {
    if (row.dataset.kind === "podium") {
      const pace = Math.max(100, Math.min(60000, Number(row.querySelector(".seat-pace").value) || 0));
      seats.push({ kind: "podium", player: row.querySelector(".seat-player").value, pace_ms: pace });
    } else {
      seats.push({ kind: "person" });
    }
  }
  if (seats.length < 2 || seats.length > 8) {
    setStatus("A room has 2 to 8 seats: you and 1 to 7 others.");
    return;
  }
  app.room = null;
  enter({ type: "create", name, seats });
}

function joinRoom(event) {
  event.preventDefault();
  const room = $("join-room").value.trim().toUpperCase();
  const name = $("join-name").value.trim();
  enter({ type: "join", room, name });
}

// ---- the board ------------------------------------------------------------------------------

function buildBoard() {
  const board = $("board");
  const cells = document.createDocumentFragment();
  for (let row = 0; row < SIZE; row++) {
    for (let col = 0; col < SIZE; col++) {
      const cell = document.createElement("div");
      cell.className = "cell";
      cell.id = "cell-" + row + "-" + col;
      cell.dataset.row = row;
      cell.dataset.col = col;
      cells.appendChild(cell);
    }
  }
  board.appendChild(cells);
}

function cellAt(row, col) {
  return $("cell-" + row + "-" + col);
}

// The seat's grid as a map "row,col" -> letter.
function gridLetters(grid) {
  const letters = new Map();
  if (!grid || !grid.rows) return letters;
  grid.rows.forEach((text, r) => {
    for (let c = 0; c < text.length; c++) {
      if (text[c] !== "." && text[c] !== " ") letters.set(grid.top + r + "," + (grid.left + c), text[c]);
    }
  });
  return letters;
}

function letterAt(row, col) {
  return app.letters ? app.letters.get(row + "," + col) : undefined;
}

function renderBoard() {
  const letters = gridLetters(app.state.grid);
  const before = app.letters || new Map();
  for (const key of before.keys()) {
    if (!letters.has(key)) {
      const [row, col] = key.split(",").map(Number);
      const cell = cellAt(row, col);
      cell.textContent = "";
      cell.classList.remove("tile", "pending");
    }
  }
  for (const [key, letter] of letters) {
    const [row, col] = key.split(",").map(Number);
    const cell = cellAt(row, col);
    if (cell.textContent !== letter) cell.textContent = letter;
    cell.classList.add("tile");
    cell.classList.remove("pending");
  }
  app.letters = letters;
  if (!app.centred) {
    app.centred = true;
    if (letters.size) {
      const g = app.state.grid;
      app.cursor = { row: g.top, col: g.left };
    }
    scrollToCell(app.cursor.row, app.cursor.col, true);
  }
  renderCursor();
}

function renderCursor() {
  const previous = document.querySelector(".cell.cursor");
  if (previous) previous.classList.remove("cursor", "down");
  const cell = cellAt(app.cursor.row, app.cursor.col);
  cell.classList.add("cursor");
  cell.classList.toggle("down", !app.across);
  $("board").setAttribute("aria-activedescendant", cell.id);
  const letter = letterAt(app.cursor.row, app.cursor.col);
  $("cursor-info").textContent =
    "Cursor: row " + (app.cursor.row + 1) + ", column " + (app.cursor.col + 1) +
    (letter ? ", tile " + letter : ", empty") + "; typing " + (app.across ? "across" : "down") + ".";
  $("direction").textContent = app.across ? "across" : "down";
}

function scrollToCell(row, col, centre) {
  const cell = cellAt(row, col);
  const wrap = $("board-wrap");
  if (centre) {
    wrap.scrollLeft = cell.offsetLeft - wrap.clientWidth / 2 + cell.offsetWidth / 2;
    wrap.scrollTop = cell.offsetTop - wrap.clientHeight / 2 + cell.offsetHeight / 2;
  } else {
    cell.scrollIntoView({ block: "nearest", inline: "nearest" });
  }
}

function moveCursor(dRow, dCol) {
  app.cursor.row = Math.max(0, Math.min(SIZE - 1, app.cursor.row + dRow));
  app.cursor.col = Math.max(0, Math.min(SIZE - 1, app.cursor.col + dCol));
  renderCursor();
  scrollToCell(app.cursor.row, app.cursor.col, false);
}

function step(sign) {
  if (app.across) moveCursor(0, sign);
  else moveCursor(sign, 0);
}

function rackHas(letter) {
  return app.state && app.state.rack.includes(letter);
}

// Takes `letter` out of the shown rack and puts it on the shown board until the server's next state.
function showPlaced(row, col, letter) {
  const rack = app.state.rack;
  rack.splice(rack.indexOf(letter), 1);
  app.letters.set(row + "," + col, letter);
  const cell = cellAt(row, col);
  cell.textContent = letter;
  cell.classList.add("tile", "pending");
  renderRack();
}

function placeLetter(letter) {
  if (!playing()) return;
  const { row, col } = app.cursor;
  const here = letterAt(row, col);
  if (here === letter) {
    step(1);
    return;
  }
  if (!rackHas(letter)) {
    setStatus("No " + letter + " on your rack.");
    return;
  }
  if (here) send({ type: "remove", row, col });
  send({ type: "place", row, col, letter });
  showPlaced(row, col, letter);
  step(1);
}

function lift() {
  if (!playing()) return;
  let { row, col } = app.cursor;
  if (!letterAt(row, col)) {
    step(-1);
    ({ row, col } = app.cursor);
    if (!letterAt(row, col)) return;
  }
  send({ type: "remove", row, col });
}

function onBoardKey(event) {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  if (moves[event.key]) {
    moveCursor(...moves[event.key]);
  } else if (event.key === " ") {
    app.across = !app.across;
    renderCursor();
  } else if (event.key === "Backspace") {
    lift();
  } else if (event.key === "Delete") {
    const { row, col } = app.cursor;
    if (playing() && letterAt(row, col)) send({ type: "remove", row, col });
  } else if (/^[a-zA-Z]$/.test(event.key)) {
    placeLetter(event.key.toUpperCase());
  } else {
    return;
  }
  event.preventDefault();
}

// ---- the rack and the buttons ---------------------------------------------------------------

function renderRack() {
  const rack = $("rack");
  rack.textContent = "";
  const letters = app.state ? app.state.rack.slice().sort() : [];
  if (app.selected !== null && !letters.includes(app.selected)) app.selected = null;
  let selectedShown = false;
  letters.forEach((letter) => {
    const tile = document.createElement("button");
    tile.type = "button";
    tile.className = "tile rack-tile";
    tile.textContent = letter;
    tile.dataset.letter = letter;
    const selected = letter === app.selected && !selectedShown;
    if (selected) selectedShown = true;
    tile.setAttribute("aria-pressed", selected ? "true" : "false");
    tile.setAttribute("aria-label", "Tile " + letter + (selected ? ", selected to dump" : ""));
    rack.appendChild(tile);
  });
  $("rack-count").textContent = "(" + letters.length + ")";
  renderButtons();
}

function stillIn() {
  return app.state.seats.filter((s) => s.status !== "out").length;
}

function renderButtons() {
  const live = playing();
  const rackEmpty = live && app.state.rack.length === 0;
  const bunchShort = live && app.state.bunch < stillIn();
  $("peel").disabled = !rackEmpty || bunchShort;
  $("bananas").disabled = !rackEmpty || !bunchShort;
  $("dump").disabled = !live || app.selected === null;
  $("stuck").disabled = !live;
}

function playing() {
  return !!app.state && app.state.phase === "playing" && !app.over;
}

function dump(letter) {
  if (!playing() || !letter) return;
  send({ type: "dump", letter });
  app.selected = null;
}

// ---- the other seats and the log ------------------------------------------------------------

function seatName(index) {
  const seats = (app.state && app.state.seats) || app.seatsInfo;
  return seats[index] ? seats[index].name : null;
}

function renderSeats() {
  const list = $("seats");
  list.textContent = "";
  app.state.seats.forEach((seat, index) => {
    const info = app.seatsInfo[index] || {};
    const item = document.createElement("li");
    item.className = "seat status-" + seat.status + (index === app.seat ? " me" : "");
    item.innerHTML = `<span class="seat-name"></span> <span class="seat-tiles"></span> <span class="seat-status"></span>`;
    item.querySelector(".seat-name").textContent = seat.name + seatTag(info.kind === "podium" ? info.player : null, index);
    item.querySelector(".seat-tiles").textContent = seat.tiles + " tiles";
    item.querySelector(".seat-status").textContent = seat.status;
    list.appendChild(item);
  });
}

// " (you)" for this page's seat, " (computer: PLAYER)" for a podium player.
function seatTag(player, index) {
  if (index === app.seat) return " (you)";
  if (!player) return "";
  return player === app.seatsInfo[index]?.name || player === seatName(index) ? " (computer)" : " (computer: " + player + ")";
}

function addLog(text, kind) {
  const item = document.createElement("li");
  item.textContent = text;
  if (kind) item.className = "log-" + kind;
  const log = $("log");
  log.appendChild(item);
  while (log.children.length > 200) log.firstChild.remove();
  log.scrollTop = log.scrollHeight;
}

function setStatus(text) {
  $("status").textContent = text;
}

function renderState() {
  const state = app.state;
  $("bunch-count").textContent = state.bunch;
  const phases = {
    waiting: "Waiting for every person to join: share the room code.",
    playing: "Playing.",
    over: "The game is over.",
  };
  $("phase-line").textContent = phases[state.phase] || state.phase;
  $("phase-line").hidden = state.phase === "playing";
  renderSeats();
  renderRack();
  renderBoard();
}

// ---- drag and drop (pointer events: mouse, pen and touch alike) -----------------------------

const drag = { source: null, ghost: null, startX: 0, startY: 0, moved: false };

function onPointerDown(event) {
  if (event.button !== 0) return;
  const rackTile = event.target.closest(".rack-tile");
  const cell = event.target.closest(".cell");
  if (rackTile) {
    drag.source = { from: "rack", letter: rackTile.dataset.letter, element: rackTile };
  } else if (cell && cell.classList.contains("tile")) {
    drag.source = { from: "grid", row: +cell.dataset.row, col: +cell.dataset.col, letter: cell.textContent, element: cell };
  } else {
    return;
  }
  drag.startX = event.clientX;
  drag.startY = event.clientY;
  drag.moved = false;
  event.preventDefault();
}

function onPointerMove(event) {
  if (!drag.source) return;
  if (!drag.moved && Math.hypot(event.clientX - drag.startX, event.clientY - drag.startY) < 5) return;
  if (!drag.moved) {
    drag.moved = true;
    drag.ghost = document.createElement("div");
    drag.ghost.className = "tile ghost";
    drag.ghost.textContent = drag.source.letter;
    document.body.appendChild(drag.ghost);
    drag.source.element.classList.add("dragging");
  }
  drag.ghost.style.left = event.clientX + "px";
  drag.ghost.style.top = event.clientY + "px";
  const over = dropTarget(event.clientX, event.clientY);
  document.querySelectorAll(".drop-over").forEach((e) => e !== over && e.classList.remove("drop-over"));
  if (over) over.classList.add("drop-over");
}

function dropTarget(x, y) {
  const element = document.elementFromPoint(x, y);
  if (!element) return null;
  return element.closest(".cell, #dump-zone, #rack");
}

function onPointerUp(event) {
  const source = drag.source;
  if (!source) return;
  drag.source = null;
  source.element.classList.remove("dragging");
  document.querySelectorAll(".drop-over").forEach((e) => e.classList.remove("drop-over"));
  if (drag.ghost) {
    drag.ghost.remove();
    drag.ghost = null;
  }
  if (!drag.moved) return click(source);
  const target = dropTarget(event.clientX, event.clientY);
  if (!target || !playing()) return;
  if (target.id === "dump-zone") {
    if (source.from === "rack") dump(source.letter);
    else setStatus("Lift the tile to your rack first, then dump it.");
  } else if (target.id === "rack") {
    if (source.from === "grid") send({ type: "remove", row: source.row, col: source.col });
  } else {
    const row = +target.dataset.row;
    const col = +target.dataset.col;
    if (letterAt(row, col)) return setStatus("That cell is taken.");
    if (source.from === "rack") {
      send({ type: "place", row, col, letter: source.letter });
      showPlaced(row, col, source.letter);
    } else {
      send({ type: "move", from: [source.row, source.col], to: [row, col] });
    }
    app.cursor = { row, col };
    renderCursor();
  }
}

function click(source) {
  if (source.from === "rack") {
    app.selected = app.selected === source.letter ? null : source.letter;
    renderRack();
  } else {
    app.cursor = { row: source.row, col: source.col };
    renderCursor();
    $("board").focus({ preventScroll: true });
  }
}

function onBoardClick(event) {
  const cell = event.target.closest(".cell");
  if (!cell || cell.classList.contains("tile")) return;
  app.cursor = { row: +cell.dataset.row, col: +cell.dataset.col };
  renderCursor();
  $("board").focus({ preventScroll: true });
}

// ---- the end --------------------------------------------------------------------------------

function finalGrid(entry) {
  const figure = document.createElement("figure");
  figure.className = "final-grid status-" + entry.status;
  const rows = (entry.grid && entry.grid.rows) || [];
  const width = rows.reduce((w, r) => Math.max(w, r.length), 0);
  const grid = document.createElement("div");
  grid.className = "mini-grid";
  grid.style.gridTemplateColumns = "repeat(" + Math.max(width, 1) + ", var(--mini))";
  grid.setAttribute("role", "img");
  grid.setAttribute("aria-label", entry.name + "'s grid: " + rows.map((r) => r.replace(/\./g, " ").trim()).join(" / "));
  rows.forEach((text) => {
    for (let c = 0; c < width; c++) {
      const cell = document.createElement("div");
      const letter = text[c] && text[c] !== "." ? text[c] : "";
      cell.className = letter ? "mini tile" : "mini";
      cell.textContent = letter;
      grid.appendChild(cell);
    }
  });
  const caption = document.createElement("figcaption");
  const tiles = typeof entry.tiles === "number" ? entry.tiles : letterList(entry.tiles).length;
  caption.textContent = entry.name + seatTag(entry.player, entry.seat) + ": " + entry.status + ", " + tiles + " tiles";
  figure.append(caption, grid);
  return figure;
}

function showOver(message) {
  app.over = true;
  const winner = message.winner === null || message.winner === undefined ? null : message.winner;
  const names = message.grids || [];
  const winnerEntry = names.find((g) => g.seat === winner);
  const headline = winner === null ? "No winner." : (winner === app.seat ? "You won!" : (winnerEntry ? winnerEntry.name : "Seat " + (winner + 1)) + " won.");
  $("final-reason").textContent = headline + (message.reason ? " " + message.reason : "");
  const grids = $("final-grids");
  grids.textContent = "";
  names.forEach((entry) => grids.appendChild(finalGrid(entry)));
  const finalLog = $("final-log");
  finalLog.textContent = "";
  for (const item of $("log").children) finalLog.appendChild(item.cloneNode(true));
  $("final").hidden = false;
  $("game").hidden = true;
  finalLog.scrollTop = finalLog.scrollHeight;
  setStatus("Game over in room " + app.room + ".");
  renderButtons();
}

// ---- screens and wiring ---------------------------------------------------------------------

function showLobby() {
  $("lobby").hidden = false;
  $("game").hidden = true;
  $("final").hidden = true;
}

function showGame() {
  $("lobby").hidden = true;
  $("final").hidden = true;
  $("game").hidden = false;
  if ($("room-code").textContent !== app.room) $("log").textContent = "";
  $("room-code").textContent = app.room;
  app.centred = false;
}

function start() {
  buildBoard();
  seatRow("podium");
  $("add-podium").onclick = () => seatRow("podium");
  $("add-person").onclick = () => seatRow("person");
  $("create-form").addEventListener("submit", createRoom);
  $("join-form").addEventListener("submit", joinRoom);
  $("board").addEventListener("keydown", onBoardKey);
  $("board").addEventListener("click", onBoardClick);
  document.addEventListener("pointerdown", onPointerDown);
  document.addEventListener("pointermove", onPointerMove);
  document.addEventListener("pointerup", onPointerUp);
  document.addEventListener("pointercancel", () => onPointerUp({ clientX: -1, clientY: -1 }));
  $("peel").onclick = () => send({ type: "peel" });
  $("bananas").onclick = () => send({ type: "bananas" });
  $("stuck").onclick = () => send({ type: "stuck" });
  $("dump").onclick = () => dump(app.selected);
  $("rack").addEventListener("click", (event) => {
    const tile = event.target.closest(".rack-tile");
    if (tile && event.detail === 0) click({ from: "rack", letter: tile.dataset.letter });
  });
  $("copy-link").onclick = () => {
    const link = location.origin + "/#" + app.room;
    if (navigator.clipboard) navigator.clipboard.writeText(link).catch(() => {});
    setStatus("Room link: " + link);
  };
  $("new-game").onclick = () => {
    forgetSeat();
    app.room = null;
    app.state = null;
    app.over = false;
    closeSocket();
    showLobby();
    setStatus("Create a room or join one.");
  };
  const code = location.hash.replace(/^#/, "").trim();
  if (code) $("join-room").value = code.toUpperCase();
  const saved = savedSeat();
  if (saved) {
    app.room = saved.room;
    setStatus("Rejoining room " + saved.room + "…");
    connect({ type: "rejoin", room: saved.room, token: saved.token });
  } else {
    showLobby();
    setStatus("Create a room or join one.");
  }
}

start();
