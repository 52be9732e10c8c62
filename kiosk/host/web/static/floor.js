// The floor dashboard's live parts: Server-Sent Events from /events update the terminals'
// rows and add new alarms without a reload; a command's page follows the command's state.
"use strict";

function ago(ms, now) {
  if (!ms) return "-";
  const s = Math.max(0, Math.round((now - ms) / 1000));
  if (s < 120) return s + " s ago";
  if (s < 7200) return Math.round(s / 60) + " min ago";
  return Math.round(s / 3600) + " h ago";
}

function setText(el, text) {
  if (el && el.textContent !== text) el.textContent = text;
}

function cell(tr, name) {
  return tr.querySelector("td." + name);
}

function updateTerminal(tr, t, now) {
  const link = cell(tr, "link");
  link.className = "link " + (t.online ? "online" : "offline");
  setText(link, t.online ? "online" : "OFFLINE");
  setText(cell(tr, "seen"), ago(t.last_seen_ms, now));
  const play = cell(tr, "play");
  play.className = "play " + (t.enabled ? "enabled" : "disabled");
  setText(play, t.enabled ? "enabled" : "disabled: " + t.disable_reason);
  setText(cell(tr, "version"), t.software_version);
  const auth = cell(tr, "auth");
  auth.className = "auth " + (t.auth_result || "none");
  setText(auth, (t.auth_result || "not yet") + (t.auth_ms ? " " + when(t.auth_ms).slice(11) : ""));
  auth.title = t.auth_ms ? when(t.auth_ms) : "";
  setText(cell(tr, "events"), String(t.events));
  setText(cell(tr, "alarms"), String(t.alarms));
}

function newRow(table, t) {
  const tr = document.createElement("tr");
  tr.dataset.terminal = t.terminal_id;
  for (const name of ["id", "link", "seen", "play", "version", "auth", "events", "alarms"]) {
    const td = document.createElement("td");
    td.className = name + (name === "events" || name === "alarms" ? " num" : "");
    tr.appendChild(td);
  }
  const link = document.createElement("a");
  link.href = "/terminals/" + encodeURIComponent(t.terminal_id);
  link.textContent = t.terminal_id;
  tr.firstChild.appendChild(link);
  if (table.dataset.actions) {  // an operator's table: the command links
    const td = document.createElement("td");
    td.className = "cmds";
    for (const action of table.dataset.actions.split(" ")) {
      const a = document.createElement("a");
      a.className = "cmd";
      a.id = action + "-" + t.terminal_id;
      a.href = "/terminals/" + encodeURIComponent(t.terminal_id) + "/command?action=" + action;
      a.textContent = action;
      td.appendChild(a);
      td.appendChild(document.createTextNode(" "));
    }
    tr.appendChild(td);
  }
  table.tBodies[0].appendChild(tr);
  return tr;
}

function when(ms) {  // as the server writes it: 2026-11-26 14:05:09 (local time)
  const d = new Date(ms);
  const two = (n) => String(n).padStart(2, "0");
  return d.getFullYear() + "-" + two(d.getMonth() + 1) + "-" + two(d.getDate()) + " " +
    two(d.getHours()) + ":" + two(d.getMinutes()) + ":" + two(d.getSeconds());
}

function onFloor(data) {
  setText(document.getElementById("n-online"), String(data.online));
  setText(document.getElementById("n-offline"), String(data.offline));
  setText(document.getElementById("n-disabled"), String(data.disabled));
  setText(document.getElementById("n-alarms"), String(data.alarms));
  setText(document.getElementById("alarm-badge"), String(data.alarms));
  setText(document.getElementById("open-alarms"), String(data.alarms));
  const table = document.getElementById("terminals");
  if (!table) return;
  const body = table.tBodies[0];
  for (const t of data.terminals) {
    let tr = body.querySelector('tr[data-terminal="' + CSS.escape(t.terminal_id) + '"]');
    if (!tr) tr = newRow(table, t);
    updateTerminal(tr, t, data.now_ms);
  }
}


function ticket(number) {  // as the ticket prints it: 12-3456-7890-1234-5678
  if (!/^[0-9]{18}$/.test(number)) return number;
  return [number.slice(0, 2), number.slice(2, 6), number.slice(6, 10), number.slice(10, 14),
    number.slice(14)].join("-");
}

function ackForm(key) {  // the Acknowledge button of an alarm added live
  const form = document.createElement("form");
  form.method = "post";
  form.action = "/alarms/ack";
  form.className = "ack";
  const csrf = document.querySelector('input[name="csrf"]');
  for (const [name, value] of [["csrf", csrf ? csrf.value : ""], ["key", key],
    ["back", window.location.pathname]]) {
    const input = document.createElement("input");
    input.type = "hidden";
    input.name = name;
    input.value = value;
    form.appendChild(input);
  }
  const button = document.createElement("button");
  button.type = "submit";
  button.className = "ack-button";
  button.dataset.key = key;
  button.textContent = "Acknowledge";
  form.appendChild(button);
  return form;
}

function onAlarm(a) {
  const list = document.getElementById("alarm-list");
  if (!list || list.querySelector('li[data-key="' + CSS.escape(a.key) + '"]')) return;
  const none = list.querySelector("li.none");
  if (none) none.remove();
  const li = document.createElement("li");
  li.className = "alarm new sev-" + a.severity + " " + a.kind;
  li.dataset.key = a.key;
  const parts = [
    ["at", when(a.at_ms)],
    ["kind", a.kind.replace(/_/g, " ")],
    ["terminal", a.terminal_id],
  ];
  if (a.subject) parts.push(["voucher", "voucher " + ticket(a.subject)]);
  parts.push(["text", a.text]);
  for (const [name, text] of parts) {
    const span = document.createElement(name === "terminal" ? "a" : "span");
    span.className = name;
    span.textContent = text;
    if (name === "terminal") span.href = "/terminals/" + encodeURIComponent(text);
    li.appendChild(span);
    li.appendChild(document.createTextNode(" "));
  }
  if (list.dataset.operator) li.appendChild(ackForm(a.key));
  list.insertBefore(li, list.firstChild);
}

function liveState(ok, text) {
  const dot = document.getElementById("live-state");
  if (dot) dot.className = "dot " + (ok ? "ok" : "down");
  setText(document.getElementById("live-text"), text);
}

function startLive() {
  const live = document.getElementById("live");
  if (!live) return;
  const source = new EventSource("/events?cursor=" + encodeURIComponent(live.dataset.cursor));
  source.addEventListener("open", () => liveState(true, "live"));
  source.addEventListener("error", () => liveState(false, "reconnecting…"));
  source.addEventListener("floor", (e) => {
    liveState(true, "live");
    onFloor(JSON.parse(e.data));
  });
  source.addEventListener("alarm", (e) => onAlarm(JSON.parse(e.data)));
  source.addEventListener("expired", () => {
    source.close();
    window.location.assign("/login");
  });
}

function followCommand() {
  const state = document.getElementById("command-state");
  if (!state) return;
  const poll = async () => {
    const answer = await fetch("/api/commands/" + state.dataset.command, {
      credentials: "same-origin",
    });
    if (answer.ok) {
      const data = await answer.json();
      state.className = data.state;
      setText(state, data.state);
      setText(document.getElementById("command-result"), data.result);
      if (data.state === "done" || data.state === "failed") return;
    }
    setTimeout(poll, 500);
  };
  poll();
}

document.addEventListener("DOMContentLoaded", () => {
  startLive();
  followCommand();
});
