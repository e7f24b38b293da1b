/* CatDoc dashboard: draws the page's graph, follows the live event stream.
   No inline scripts (the Content-Security-Policy forbids them): the graph comes from a
   JSON data block, and every text added to the page goes through textContent. */
(function () {
  "use strict";

  var STYLE = [
    { selector: "node", style: {
        "label": "data(label)", "text-wrap": "wrap", "text-max-width": "140px",
        "font-size": "10px", "text-valign": "bottom", "text-margin-y": 4,
        "background-color": "#4f6d8f", "width": 18, "height": 18, "color": "#1d2530" } },
    { selector: "node[kind = 'category']", style: {
        "shape": "round-rectangle", "width": 34, "height": 34, "background-color": "#3c7a5a",
        "font-size": "12px" } },
    { selector: "node[role = 'focus']", style: { "background-color": "#c0612b", "width": 26, "height": 26 } },
    { selector: "node[role = 'source'], node[role = 'target']", style: { "background-color": "#c0612b" } },
    { selector: "edge", style: {
        "curve-style": "bezier", "target-arrow-shape": "triangle", "width": 1.5,
        "line-color": "#8a99ab", "target-arrow-color": "#8a99ab", "label": "data(label)",
        "font-size": "8px", "color": "#5a6675", "text-rotation": "autorotate" } },
    { selector: "edge[kind = 'functor']", style: {
        "line-style": "dashed", "line-color": "#3c7a5a", "target-arrow-color": "#3c7a5a" } },
    { selector: "edge[kind = 'parent']", style: { "line-style": "dotted", "target-arrow-shape": "none" } }
  ];

  function drawGraph() {
    var box = document.getElementById("graph");
    var data = document.getElementById("graph-data");
    if (!box || !data || typeof window.cytoscape !== "function") { return; }
    var elements = JSON.parse(data.textContent);
    var layout = box.getAttribute("data-layout") || "cose";
    var options = { name: layout, animate: false, fit: true, padding: 24 };
    if (layout === "breadthfirst") { options.directed = true; options.spacingFactor = 1.1; }
    if (layout === "cose") { options.numIter = 400; options.randomize = false; }
    var cy = window.cytoscape({
      container: box, elements: elements, style: STYLE, layout: options,
      minZoom: 0.2, maxZoom: 1.5, boxSelectionEnabled: false
    });
    cy.on("tap", "node", function (event) {
      var href = event.target.data("href");
      if (href) { window.location.assign(href); }
    });
    cy.on("mouseover", "node[href]", function () { box.style.cursor = "pointer"; });
    cy.on("mouseover", "node, edge", function (event) { box.title = event.target.data("title"); });
    cy.on("mouseout", "node, edge", function () { box.style.cursor = ""; box.title = ""; });
    window.cy = cy;
    document.body.setAttribute("data-graph-ready", String(cy.nodes().length));
    document.body.setAttribute("data-graph-ms", String(Math.round(window.performance.now())));
  }

  function callItem(call) {
    var item = document.createElement("li");
    item.className = "call " + (call.ok ? "ok" : "failed");
    var parts = [["tool", call.tool], ["duration", call.duration_ms + " ms"],
                 ["arguments", call.arguments], ["summary", call.summary]];
    parts.forEach(function (part) {
      var el = document.createElement(part[0] === "arguments" ? "code" : "span");
      el.className = part[0];
      el.textContent = part[1];
      item.appendChild(el);
    });
    return item;
  }

  function backgroundStep(step) {
    var item = document.createElement("span");
    item.className = "step";
    var count = step.done.toLocaleString("en-US");
    if (step.total) { count += " of " + step.total.toLocaleString("en-US"); }
    item.textContent = step.step + ": " + count + " ";
    var bar = document.createElement("progress");
    if (step.total) { bar.max = step.total; bar.value = step.done; }
    item.appendChild(bar);
    return item;
  }

  function showBackground(steps) {
    var box = document.getElementById("background");
    if (!box) { return; }
    box.replaceChildren.apply(box, steps.map(backgroundStep));
    box.hidden = steps.length === 0;
  }

  function follow() {
    var body = document.body;
    var live = document.getElementById("live");
    var token = body.getAttribute("data-token") || "";
    var watch = body.getAttribute("data-watch") || "";
    var after = Number(body.getAttribute("data-after") || "0");
    var handlers = {
      open: function () { if (live) { live.className = "live on"; } },
      error: function () { if (live) { live.className = "live off"; } },
      change: function (data) {
        var current = JSON.parse(data)[watch];
        if (current !== undefined && current !== token) { window.location.reload(); }
      },
      background: function (data) { showBackground(JSON.parse(data)); },
      activity: function (data) {
        var call = JSON.parse(data);
        var list = document.getElementById("activity-list");
        if (call.seq <= after || !list) { return; }
        after = call.seq;
        var empty = list.querySelector(".empty");
        if (empty) { empty.remove(); }
        list.insertBefore(callItem(call), list.firstChild);
        while (list.children.length > 200) { list.removeChild(list.lastChild); }
      }
    };
    if (typeof window.SharedWorker === "function") {
      // One stream for every tab (static/events.js).
      var port = new window.SharedWorker("/static/events.js").port;
      port.addEventListener("message", function (event) {
        handlers[event.data.type](event.data.data);
      });
      port.start();
      var hello = function () { port.postMessage({ watch: watch, after: after }); };
      hello();
      window.addEventListener("pagehide", function () { port.postMessage({ bye: true }); });
      window.addEventListener("pageshow", function (event) { if (event.persisted) { hello(); } });
      return;
    }
    if (typeof window.EventSource !== "function") { return; }
    // No SharedWorker: a stream of this tab's own, closed while the tab is hidden (it sends the
    // current state first when it opens again).
    var source = null;
    var open = function () {
      if (source) { source.close(); }
      source = new EventSource("/events?after=" + after + "&watch=" + encodeURIComponent(watch));
      Object.keys(handlers).forEach(function (type) {
        source.addEventListener(type, function (event) { handlers[type](event.data); });
      });
    };
    document.addEventListener("visibilitychange", function () {
      if (document.hidden) { source.close(); } else { open(); }
    });
    open();
  }

  document.addEventListener("DOMContentLoaded", function () {
    follow();
    // Lay the graph out after the first paint, so the text of the page shows at once.
    window.requestAnimationFrame(function () { window.setTimeout(drawGraph, 0); });
  });
})();
