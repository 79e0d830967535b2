// The p2p-server's quote page: logs in to the WebSocket API on the port that served it (sub-protocol tr_json2),
// opens the items asked for and shows their fields as Refresh and Update messages arrive. No library, no build.
"use strict";

const LOGIN_ID = 1;
const RECONNECT_MS = 3000;
const params = new URLSearchParams(location.search);
const rows = new Map();   // item name -> row: {name, service, id, tr, cells: Map field -> td}
const streams = new Map(); // stream ID -> row, for the streams open on this connection
const fields = [];        // field columns, in the order first seen
let socket = null;
let reconnectTimer = 0;
let isLoggedIn = false;
let nextId = LOGIN_ID + 1;

function $(id) {
  return document.getElementById(id);
}

function showStatus(text) {
  $("status").textContent = text;
}

function send(messages) {
  // The WebSocket API's clients always send (and expect) an array of messages per frame.
  if (socket && socket.readyState === WebSocket.OPEN && messages.length > 0) {
    socket.send(JSON.stringify(messages));
  }
}

function connect() {
  const user = $("user").value.trim() || "guest";
  const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/WebSocket";
  isLoggedIn = false;
  streams.clear();
  socket = new WebSocket(url, ["tr_json2"]);
  socket.onopen = () => {
    showStatus("connected, logging in as " + user);
    send([{ID: LOGIN_ID, Domain: "Login", Key: {Name: user, Elements: {ApplicationId: "256"}}}]);
  };
  socket.onmessage = (event) => onFrame(event.data);
  socket.onclose = (event) => {
    isLoggedIn = false;
    streams.clear();
    rows.forEach((row) => row.tr.classList.add("stale"));
    showStatus("disconnected (" + event.code + "), reconnecting in " + RECONNECT_MS / 1000 + " s");
    reconnectTimer = setTimeout(connect, RECONNECT_MS);
  };
}

function reconnect() {
  clearTimeout(reconnectTimer);
  if (socket) {
    socket.onclose = null;
    socket.close();
  }
  connect();
}

function onFrame(data) {
  let messages;
  try {
    messages = JSON.parse(data);
  } catch (e) {
    showStatus("a frame that is not JSON: " + e.message);
    return;
  }
  for (const message of Array.isArray(messages) ? messages : [messages]) {
    onMessage(message);
  }
}

function onMessage(message) {
  if (message.Type === "Ping") {
    send([{Type: "Pong"}]);
  } else if (message.Type === "Error") {
    showStatus("the server refused a message: " + message.Text);
  } else if (message.ID === LOGIN_ID && message.Domain === "Login") {
    onLogin(message);
  } else if (streams.has(message.ID)) {
    onItem(streams.get(message.ID), message);
  }
}

function onLogin(message) {
  const state = message.State || {};
  if (message.Type === "Refresh" && state.Stream === "Open" && state.Data === "Ok") {
    isLoggedIn = true;
    showStatus("logged in as " + (message.Key || {}).Name);
    request(Array.from(rows.values()));
  } else if (state.Stream && state.Stream !== "Open") {
    isLoggedIn = false;
    showStatus("login refused: " + state.Stream + " / " + state.Data + " " + (state.Text || ""));
  }
}

function request(list) {
  if (!isLoggedIn) {
    return;
  }
  const messages = [];
  for (const row of list) {
    row.id = nextId++;
    streams.set(row.id, row);
    const key = {Name: row.name};
    if (row.service) {
      key.Service = row.service;
    }
    messages.push({ID: row.id, Key: key});
  }
  send(messages);
}

function onItem(row, message) {
  if (message.State) {
    const state = message.State;
    row.tr.classList.remove("stale");
    row.stateCell.textContent = state.Stream + " / " + state.Data;
    row.textCell.textContent = state.Text || "";
    if (state.Stream !== "Open") {
      streams.delete(row.id); // closed or not streaming: no more messages on this ID
    }
  }
  if (message.Fields && (message.Type === "Refresh" || message.Type === "Update")) {
    showFields(row, message.Fields, message.Type === "Update");
  }
}

function showFields(row, values, isUpdate) {
  for (const [name, value] of Object.entries(values)) {
    if (!fields.includes(name)) {
      addColumn(name);
    }
    const cell = row.cells.get(name);
    const text = null === value ? "" : typeof value === "object" ? JSON.stringify(value) : String(value);
    const before = cell.textContent;
    cell.textContent = text;
    if (isUpdate && before !== text) {
      highlight(cell, Number(before), Number(text));
    }
  }
}

function highlight(cell, before, after) {
  cell.classList.remove("up", "down", "changed");
  void cell.offsetWidth; // restarts the animation when the same cell changes again
  const isNumeric = !Number.isNaN(before) && !Number.isNaN(after);
  cell.classList.add(!isNumeric ? "changed" : after > before ? "up" : after < before ? "down" : "changed");
}

function addColumn(name) {
  fields.push(name);
  const th = document.createElement("th");
  th.textContent = name;
  $("quotes").tHead.rows[0].appendChild(th);
  rows.forEach((row) => addCell(row, name));
}

function addCell(row, name) {
  const td = row.tr.insertCell();
  td.dataset.field = name;
  row.cells.set(name, td);
}

function openItems(text, service) {
  const added = [];
  for (const name of text.split(/[\s,]+/)) {
    if (name && !rows.has(name)) {
      const tr = $("quotes").tBodies[0].insertRow();
      tr.dataset.item = name;
      const row = {name: name, service: service, id: 0, tr: tr, cells: new Map()};
      const nameCell = tr.insertCell();
      nameCell.textContent = name + " ";
      const close = document.createElement("button");
      close.className = "close";
      close.title = "close " + name;
      close.textContent = "\u00d7";
      close.onclick = () => closeItem(row);
      nameCell.appendChild(close);
      row.stateCell = tr.insertCell();
      row.stateCell.className = "state";
      row.stateCell.textContent = "requested";
      row.textCell = tr.insertCell();
      row.textCell.className = "text";
      fields.forEach((field) => addCell(row, field));
      rows.set(name, row);
      added.push(row);
    }
  }
  request(added);
}

function closeItem(row) {
  if (streams.get(row.id) === row) {
    streams.delete(row.id);
    send([{ID: row.id, Type: "Close"}]);
  }
  rows.delete(row.name);
  row.tr.remove();
}

$("login").onsubmit = (event) => {
  event.preventDefault();
  reconnect();
};
$("open").onsubmit = (event) => {
  event.preventDefault();
  openItems($("items").value, $("service").value.trim());
  $("items").value = "";
};
$("user").value = params.get("user") || $("user").value;
$("service").value = params.get("service") || "";
openItems(params.get("items") || "", $("service").value.trim());
connect();
