/* CatDoc dashboard: one event stream for all the dashboard's tabs of a browser (a SharedWorker),
   since a browser opens at most 6 connections to a host and each stream holds one open.
   A tab says {watch, after} when it opens (the stream is opened again, for its object and from
   its first tool call, and sends the current state first) and {bye: true} when it goes; every
   event goes to every tab as {type, data}: each tab picks what concerns it. */
"use strict";

var ports = new Map(); // port → the object id its page watches ("" for none)
var after = null; // the last tool call the stream has passed on
var source = null;

function broadcast(message) {
  ports.forEach(function (watch, port) { port.postMessage(message); });
}

function connect() {
  if (source) { source.close(); }
  var query = "?after=" + encodeURIComponent(after);
  new Set(ports.values()).forEach(function (watch) {
    if (watch) { query += "&watch=" + encodeURIComponent(watch); }
  });
  source = new EventSource("/events" + query);
  source.addEventListener("open", function () { broadcast({ type: "open" }); });
  source.addEventListener("error", function () { broadcast({ type: "error" }); });
  ["change", "background", "activity"].forEach(function (type) {
    source.addEventListener(type, function (event) {
      if (type === "activity") { after = Math.max(after, JSON.parse(event.data).seq); }
      broadcast({ type: type, data: event.data });
    });
  });
}

self.addEventListener("connect", function (event) {
  var port = event.ports[0];
  port.addEventListener("message", function (message) {
    if (message.data.bye) {
      ports.delete(port);
      if (ports.size === 0 && source) { source.close(); source = null; }
      return;
    }
    ports.set(port, message.data.watch);
    after = after === null ? message.data.after : Math.min(after, message.data.after);
    connect();
  });
  port.start();
});
