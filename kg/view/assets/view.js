// The view's controls: legend and filters, search by any name, details panel.
// Text from abstracts reaches the page only through textContent, never as markup.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("kg-data").textContent);
  var info = data.nodeInfo, edgeInfo = data.edgeInfo;
  var labelOf = {};
  data.nodes.forEach(function (n) { labelOf[n.id] = n.label; });
  var nodes = new vis.DataSet(data.nodes);
  var edges = new vis.DataSet(data.edges);
  var container = document.getElementById("kg-graph");
  var network = new vis.Network(container, { nodes: nodes, edges: edges }, data.options);
  var $ = function (id) { return document.getElementById(id); };

  network.once("afterDrawing", function () {
    window.kgFirstDraw = performance.now();
    document.documentElement.setAttribute("data-kg-drawn", "1");
  });

  function el(tag, text, cls) {
    var e = document.createElement(tag);
    if (text !== undefined && text !== null) e.textContent = String(text);
    if (cls) e.className = cls;
    return e;
  }
  function count(n, one, many) { return n.toLocaleString() + " " + (n === 1 ? one : many); }

  // -- header and notes -------------------------------------------------------
  var stats = count(data.meta.nodes, "entity", "entities") + " · " +
    count(data.meta.edges, "relation", "relations") + " · " + count(data.meta.papers, "paper", "papers");
  if (data.meta.totalNodes > data.meta.nodes) stats += " (of " + data.meta.totalNodes.toLocaleString() + " entities)";
  $("kg-stats").textContent = stats;
  if (data.meta.notes.length) {
    data.meta.notes.forEach(function (t) { $("kg-notes").appendChild(el("p", t)); });
    $("kg-notes").hidden = false;
  }

  // -- legend and filters -----------------------------------------------------
  var SVG = "http://www.w3.org/2000/svg";
  function glyph(shape, color, line) {
    var svg = document.createElementNS(SVG, "svg");
    svg.setAttribute("width", "18"); svg.setAttribute("height", "14");
    var s;
    if (line) {
      s = document.createElementNS(SVG, "line");
      s.setAttribute("x1", "1"); s.setAttribute("y1", "7"); s.setAttribute("x2", "17"); s.setAttribute("y2", "7");
      s.setAttribute("stroke", color); s.setAttribute("stroke-width", "3");
    } else if (shape === "square") {
      s = document.createElementNS(SVG, "rect");
      s.setAttribute("x", "3"); s.setAttribute("y", "1"); s.setAttribute("width", "12"); s.setAttribute("height", "12");
    } else if (shape === "triangle") {
      s = document.createElementNS(SVG, "polygon"); s.setAttribute("points", "9,1 16,13 2,13");
    } else if (shape === "diamond") {
      s = document.createElementNS(SVG, "polygon"); s.setAttribute("points", "9,0 16,7 9,14 2,7");
    } else {
      s = document.createElementNS(SVG, "circle");
      s.setAttribute("cx", "9"); s.setAttribute("cy", "7"); s.setAttribute("r", "6");
    }
    if (!line) s.setAttribute("fill", color);
    svg.appendChild(s);
    return svg;
  }

  var typeOn = {}, relOn = {};
  function filterRow(parent, name, style, isLine, state) {
    state[name] = true;
    var label = el("label", null, "kg-check");
    label.title = style.meaning || "";
    var box = el("input");
    box.type = "checkbox"; box.checked = true;
    box.setAttribute("data-filter", name);
    box.addEventListener("change", function () { state[name] = box.checked; applyFilters(); });
    label.appendChild(box);
    label.appendChild(glyph(style.shape, style.color, isLine));
    label.appendChild(el("span", name));
    label.appendChild(el("span", style.count.toLocaleString(), "kg-count"));
    parent.appendChild(label);
    return box;
  }
  var typeBoxes = {};
  Object.keys(data.types).forEach(function (t) {
    if (data.types[t].count) typeBoxes[t] = filterRow($("kg-type-filters"), t, data.types[t], false, typeOn);
  });
  Object.keys(data.relations).forEach(function (r) {
    if (data.relations[r].count) filterRow($("kg-rel-filters"), r, data.relations[r], true, relOn);
  });
  var showUnlinked = $("kg-show-unlinked");
  showUnlinked.addEventListener("change", applyFilters);

  var hidden = {};
  function applyFilters() {
    var nodeUpdates = [], edgeUpdates = [];
    data.nodes.forEach(function (n) {
      var i = info[n.id];
      var h = !typeOn[i.type] || (!showUnlinked.checked && i.degree === 0);
      if (!!hidden[n.id] !== h) { hidden[n.id] = h; nodeUpdates.push({ id: n.id, hidden: h }); }
    });
    data.edges.forEach(function (e) {
      var h = !relOn[edgeInfo[e.id].rel] || !!hidden[e.from] || !!hidden[e.to];
      edgeUpdates.push({ id: e.id, hidden: h });
    });
    nodes.update(nodeUpdates);
    edges.update(edgeUpdates);
    placeLabels();  // a hidden node gives its label to the next one
  }

  // -- search by any name ------------------------------------------------------
  function fold(s) { return String(s).normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ""); }
  var names = [];  // [folded name, node id, the name itself]
  data.nodes.forEach(function (n) {
    names.push([fold(n.label), n.id, n.label]);
    info[n.id].aliases.forEach(function (a) { names.push([fold(a), n.id, a]); });
  });

  function search(text, limit) {
    var q = fold(text);
    if (!q) return [];
    var best = {};
    names.forEach(function (entry) {
      var pos = entry[0].indexOf(q);
      if (pos < 0) return;
      var rank = entry[0] === q ? 0 : pos === 0 ? 1 : 2;
      var prev = best[entry[1]];
      if (!prev || rank < prev.rank) best[entry[1]] = { id: entry[1], rank: rank, name: entry[2] };
    });
    return Object.keys(best).map(function (k) { return best[k]; }).sort(function (a, b) {
      return a.rank - b.rank || info[b.id].degree - info[a.id].degree || labelOf[a.id].length - labelOf[b.id].length;
    }).slice(0, limit || 12);
  }

  var box = $("kg-search"), list = $("kg-matches"), current = [], cursor = 0;
  function showMatches() {
    current = search(box.value);
    cursor = 0;
    list.textContent = "";
    current.forEach(function (m, k) {
      var li = el("li");
      li.setAttribute("role", "option");
      li.setAttribute("aria-selected", k === cursor ? "true" : "false");
      li.appendChild(el("span", labelOf[m.id]));
      li.appendChild(el("span", info[m.id].type, "kg-type"));
      if (m.name !== labelOf[m.id]) li.appendChild(el("span", "as " + m.name, "kg-alias"));
      li.addEventListener("mousedown", function (ev) { ev.preventDefault(); choose(m.id); });
      list.appendChild(li);
    });
    if (!current.length && box.value.trim()) list.appendChild(el("li", "no entity has this name", "kg-type"));
    list.hidden = !box.value.trim();
  }
  function choose(id) {
    list.hidden = true;
    box.value = labelOf[id];
    focusNode(id);
  }
  box.addEventListener("input", showMatches);
  box.addEventListener("keydown", function (ev) {
    if (ev.key === "Enter" && current.length) { ev.preventDefault(); choose(current[cursor].id); }
    else if (ev.key === "ArrowDown" || ev.key === "ArrowUp") {
      ev.preventDefault();
      if (!current.length) return;
      cursor = (cursor + (ev.key === "ArrowDown" ? 1 : current.length - 1)) % current.length;
      Array.prototype.forEach.call(list.children, function (li, k) { li.setAttribute("aria-selected", k === cursor ? "true" : "false"); });
    } else if (ev.key === "Escape") { list.hidden = true; }
  });
  box.addEventListener("blur", function () { list.hidden = true; });
  document.addEventListener("keydown", function (ev) {
    if (ev.key === "/" && document.activeElement !== box) { ev.preventDefault(); box.focus(); box.select(); }
  });

  function focusNode(id) {
    var i = info[id];
    if (!typeOn[i.type]) { typeOn[i.type] = true; typeBoxes[i.type].checked = true; }
    if (i.degree === 0 && !showUnlinked.checked) showUnlinked.checked = true;
    applyFilters();
    network.selectNodes([id]);
    network.focus(id, { scale: Math.max(network.getScale(), 1.1), animation: { duration: 350, easingFunction: "easeInOutQuad" } });
    showNode(id);
  }

  // -- details panel ---------------------------------------------------------
  var panel = $("kg-panel"), body = $("kg-panel-body");
  $("kg-panel-close").addEventListener("click", function () { panel.hidden = true; network.unselectAll(); });

  function section(title) { body.appendChild(el("h3", title)); }
  function more(shown, total) {
    if (total > shown) body.appendChild(el("p", "and " + (total - shown).toLocaleString() + " more", "kg-muted"));
  }
  function paperText(p) {
    var paper = data.papers[p];
    return paper[1] ? paper[0] + " — " + paper[1] : paper[0];
  }
  function nodeLink(id) {
    var b = el("button", labelOf[id], "kg-link");
    b.type = "button";
    b.addEventListener("click", function () { focusNode(id); });
    return b;
  }
  function resultText(r) {
    var head = r.method || "?";
    if (r.baseline) head += " over " + r.baseline;
    if (r.dataset) head += " on " + r.dataset;
    var value = [r.metric, r.value, r.unit].filter(function (x) { return x; }).join(" ");
    return value ? head + (r.kind === "Improvement" ? ", gain " : ": ") + value : head;
  }
  function evidence(it) {
    if (it.results.length) {
      section("Results");
      var ul = el("ul");
      it.results.forEach(function (k) {
        var r = data.results[k], li = el("li", resultText(r));
        if (r.paper !== null) li.appendChild(el("span", paperText(r.paper), "kg-src"));
        ul.appendChild(li);
      });
      body.appendChild(ul);
      more(it.results.length, it.nResults);
    }
    if (it.sentences.length) {
      section("Sentences");
      it.sentences.forEach(function (k) {
        var s = data.sentences[k], q = el("blockquote", s[0]);
        if (s[1] !== null) q.appendChild(el("span", data.papers[s[1]][0], "kg-src"));
        body.appendChild(q);
      });
      more(it.sentences.length, it.nSentences);
    }
    section("Papers (" + it.nPapers.toLocaleString() + ")");
    var pl = el("ul");
    it.papers.forEach(function (p) { pl.appendChild(el("li", paperText(p))); });
    body.appendChild(pl);
    more(it.papers.length, it.nPapers);
  }
  function open() { panel.hidden = false; body.scrollTop = 0; panel.scrollTop = 0; }

  function showNode(id) {
    var i = info[id], style = data.types[i.type];
    body.textContent = "";
    body.appendChild(el("h2", labelOf[id]));
    var badge = el("span", i.type, "kg-badge");
    badge.style.background = style.color;
    body.appendChild(badge);
    if (style.meaning) body.appendChild(el("span", " " + style.meaning, "kg-muted"));
    if (i.aliases.length) {
      section("Also called");
      body.appendChild(el("p", i.aliases.join(" · ")));
    }
    if (i.proposedIn.length) {
      section("Proposed in");
      var pp = el("ul");
      i.proposedIn.forEach(function (p) { pp.appendChild(el("li", paperText(p))); });
      body.appendChild(pp);
    }
    var mine = network.getConnectedEdges(id);
    if (mine.length) {
      section("Relations (" + mine.length + ")");
      var ul = el("ul");
      mine.slice(0, 60).forEach(function (eid) {
        var e = edges.get(eid), li = el("li");
        if (e.from === id) { li.appendChild(el("span", edgeInfo[eid].rel + " → ")); li.appendChild(nodeLink(e.to)); }
        else { li.appendChild(nodeLink(e.from)); li.appendChild(el("span", " " + edgeInfo[eid].rel + " → this")); }
        ul.appendChild(li);
      });
      body.appendChild(ul);
      more(Math.min(60, mine.length), mine.length);
    }
    evidence(i);
    body.appendChild(el("p", i.iri, "kg-muted kg-src"));
    open();
  }

  function showEdge(eid) {
    var e = edges.get(eid), it = edgeInfo[eid], style = data.relations[it.rel];
    body.textContent = "";
    var h = el("h2");
    h.appendChild(nodeLink(e.from));
    h.appendChild(el("span", " " + it.rel + " "));
    h.appendChild(nodeLink(e.to));
    body.appendChild(h);
    if (style && style.meaning) body.appendChild(el("p", style.meaning, "kg-muted"));
    evidence(it);
    open();
  }

  network.on("click", function (params) {
    if (params.nodes.length) showNode(params.nodes[0]);
    else if (params.edges.length) showEdge(params.edges[0]);
    else panel.hidden = true;
  });

  // -- labels of the best-connected nodes at any zoom ----------------------------
  // vis-network skips a label whose size on screen is under a few pixels, so a
  // whole graph fitted to the window names nothing. The page names its
  // best-connected nodes (data.labelled, most relations first) whenever the
  // zoom would hide their labels: their font grows as the view shrinks, so it
  // stays LABEL_PX on screen. A candidate whose label would overlap one already
  // placed is left out, so the labels shown can be read.
  var LABEL_PX = 13, MAX_LABELS = 25, BASE_FONT = data.options.nodes.font.size;
  var labelled = [];
  function placeLabels() {
    var scale = network.getScale();
    var grow = BASE_FONT * scale < LABEL_PX;
    var placed = [], want = {};
    if (grow) {
      data.labelled.forEach(function (id) {
        if (placed.length >= MAX_LABELS || hidden[id]) return;
        var p = network.canvasToDOM(network.getPositions([id])[id]);
        var w = labelOf[id].length * LABEL_PX * 0.6, h = LABEL_PX * 1.4;
        var box = { x0: p.x - w / 2 - 4, x1: p.x + w / 2 + 4, y0: p.y - h, y1: p.y + 2 * h };
        var clash = placed.some(function (b) { return box.x0 < b.x1 && b.x0 < box.x1 && box.y0 < b.y1 && b.y0 < box.y1; });
        if (!clash) { placed.push(box); want[id] = true; }
      });
    }
    var updates = [];
    labelled.forEach(function (id) { if (!want[id]) updates.push({ id: id, font: { size: BASE_FONT, strokeWidth: 3 } }); });
    labelled = Object.keys(want).map(Number);
    labelled.forEach(function (id) { updates.push({ id: id, font: { size: LABEL_PX / scale, strokeWidth: 3 * LABEL_PX / BASE_FONT / scale } }); });
    if (updates.length) nodes.update(updates);
  }
  // Every change of scale, by wheel, focus or code, passes through a drawing.
  var placedAt = null;
  network.on("beforeDrawing", function () {
    var scale = network.getScale();
    if (scale === placedAt) return;
    placedAt = scale;
    placeLabels();
  });
  network.once("afterDrawing", function () { document.documentElement.setAttribute("data-kg-labelled", "1"); });

  window.kgView = { network: network, nodes: nodes, edges: edges, data: data, search: search, focusNode: focusNode,
                  labelled: function () { return labelled.slice(); } };
})();
