// The view's controls: legend and filters, search by any name, details panel.
// Text from abstracts reaches the page only through textContent, never as markup.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("kg-data").textContent);
  var info = data.nodeInfo, edgeInfo = data.edgeInfo;
  var labelOf = {}, sizeOf = {};
  // The first screen is the map: entities off it start hidden, with their relations.
  var hidden = {};
  data.nodes.forEach(function (n) {
    labelOf[n.id] = n.label;
    sizeOf[n.id] = n.size;
    if (!info[n.id].map) { n.hidden = true; hidden[n.id] = true; }
  });
  data.edges.forEach(function (e) { if (hidden[e.from] || hidden[e.to]) e.hidden = true; });
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
  if (data.meta.map) {
    $("kg-map-note").textContent = data.meta.map;
    $("kg-map-note").hidden = false;
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
  // Entities off the map: all shown by the checkbox, or one (with its neighbours) by search.
  var showOutside = $("kg-show-outside"), revealed = {};
  var offMap = data.meta.nodes - data.meta.onMap;
  if (offMap) $("kg-outside-count").textContent = offMap.toLocaleString();
  else $("kg-outside").hidden = true;
  showOutside.addEventListener("change", applyFilters);

  function applyFilters() {
    var nodeUpdates = [], edgeUpdates = [];
    data.nodes.forEach(function (n) {
      var i = info[n.id];
      var h = !typeOn[i.type] || (!i.map && !showOutside.checked && !revealed[n.id]);
      if (!!hidden[n.id] !== h) { hidden[n.id] = h; nodeUpdates.push({ id: n.id, hidden: h }); }
    });
    data.edges.forEach(function (e) {
      var h = !relOn[edgeInfo[e.id].rel] || !!hidden[e.from] || !!hidden[e.to];
      edgeUpdates.push({ id: e.id, hidden: h });
    });
    nodes.update(nodeUpdates);
    edges.update(edgeUpdates);
    placedKey = null;  // a hidden node gives its label to the next one
    network.redraw();
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
    if (!i.map) {
      revealed[id] = true;
      network.getConnectedNodes(id).forEach(function (m) { revealed[m] = true; });
    }
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
    if (i.beside) {
      body.appendChild(el("p", "On the map beside " + labelOf[i.beside[0]] + ", named in the same papers " +
        count(i.beside[1], "time", "times") + ": its own relations do not reach the map.", "kg-muted"));
    } else if (!i.map) {
      body.appendChild(el("p", "Not on the map, which shows the best-connected entities; found by search.", "kg-muted"));
    }
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

  // -- labels on the map ---------------------------------------------------------
  // vis-network skips a label whose size on screen is under a few pixels, so a
  // whole graph fitted to the window names nothing. The page writes the names
  // of data.labelled itself, LABEL_PX tall whatever the zoom, on top of the
  // drawing: each beside its node (below, above, right, left or on a
  // diagonal) where it overlaps no label already placed and stays on screen.
  // The first data.mustLabel (the entities most papers name) also try places
  // further out, with a line to their node, so that they are always named;
  // the others take a place next to their node or none. Zoomed in far enough
  // for vis-network's own labels to be read, the page stops writing its own.
  var LABEL_PX = 13, BASE_FONT = data.options.nodes.font.size, RINGS = 5, RING_PX = 16;
  var FONT = "600 " + LABEL_PX + "px system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif";
  var measure = document.createElement("canvas").getContext("2d");
  measure.font = FONT;
  var widthOf = {};
  function textWidth(id) {
    if (!(id in widthOf)) widthOf[id] = measure.measureText(labelOf[id]).width;
    return widthOf[id];
  }
  var placed = [], placedKey = null;
  function spots(p, r, w, h, gap) {
    var d = r * 0.75 + gap;
    return [[p.x, p.y + r + gap + h / 2], [p.x, p.y - r - gap - h / 2],
            [p.x + r + gap + w / 2, p.y], [p.x - r - gap - w / 2, p.y],
            [p.x + d + w / 2, p.y + d + h / 2], [p.x - d - w / 2, p.y + d + h / 2],
            [p.x + d + w / 2, p.y - d - h / 2], [p.x - d - w / 2, p.y - d - h / 2]];
  }
  function placeLabels() {
    var scale = network.getScale(), at = network.getViewPosition();
    var width = container.clientWidth, height = container.clientHeight;
    var key = [scale, at.x, at.y, width, height].join(" ");
    if (key === placedKey) return;
    placedKey = key;
    placed = [];
    if (BASE_FONT * scale >= LABEL_PX) return;
    var most = Math.max(12, Math.round(width * height / 30000));
    var ids = data.labelled.filter(function (id) { return !hidden[id]; });
    var where = network.getPositions(ids);
    data.labelled.forEach(function (id, rank) {
      var must = rank < data.mustLabel;
      if (hidden[id] || (!must && placed.length >= most)) return;
      var p = network.canvasToDOM(where[id]);
      if (p.x < 0 || p.y < 0 || p.x > width || p.y > height) return;
      var r = Math.max(2, sizeOf[id] * scale), w = textWidth(id) + 4, h = LABEL_PX + 3;
      for (var ring = 0; ring < (must ? RINGS : 1); ring++) {
        var found = spots(p, r, w, h, 2 + ring * RING_PX).some(function (c) {
          var box = { x0: c[0] - w / 2, x1: c[0] + w / 2, y0: c[1] - h / 2, y1: c[1] + h / 2 };
          if (box.x0 < 2 || box.y0 < 2 || box.x1 > width - 2 || box.y1 > height - 2) return false;
          var clash = placed.some(function (l) {
            var b = l.box;
            return box.x0 < b.x1 && b.x0 < box.x1 && box.y0 < b.y1 && b.y0 < box.y1;
          });
          if (clash) return false;
          var line = null;
          if (ring > 0) {  // from the node's rim towards the label's nearest point
            var tx = Math.max(box.x0, Math.min(p.x, box.x1)), ty = Math.max(box.y0, Math.min(p.y, box.y1));
            var len = Math.hypot(tx - p.x, ty - p.y) || 1;
            line = [p.x + (tx - p.x) * r / len, p.y + (ty - p.y) * r / len, tx, ty];
          }
          placed.push({ id: id, x: c[0], y: c[1], box: box, line: line });
          return true;
        });
        if (found) break;
      }
    });
  }
  // Every change of zoom or position, by wheel, drag, focus or code, passes through a drawing.
  network.on("beforeDrawing", placeLabels);
  network.on("afterDrawing", function (ctx) {
    if (!placed.length) return;
    var ratio = (network.canvas && network.canvas.pixelRatio) || window.devicePixelRatio || 1;
    ctx.save();
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.font = FONT;
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    ctx.lineJoin = "round";
    placed.forEach(function (l) {
      if (l.line) {
        ctx.strokeStyle = "#7b8794";
        ctx.lineWidth = 1;
        ctx.beginPath();
        ctx.moveTo(l.line[0], l.line[1]);
        ctx.lineTo(l.line[2], l.line[3]);
        ctx.stroke();
      }
      ctx.lineWidth = 4;
      ctx.strokeStyle = "rgba(255, 255, 255, 0.92)";
      ctx.strokeText(labelOf[l.id], l.x, l.y);
      ctx.fillStyle = "#1d2733";
      ctx.fillText(labelOf[l.id], l.x, l.y);
    });
    ctx.restore();
  });
  network.once("afterDrawing", function () { document.documentElement.setAttribute("data-kg-labelled", "1"); });

  window.kgView = { network: network, nodes: nodes, edges: edges, data: data, search: search, focusNode: focusNode,
                  labelled: function () { return placed.map(function (l) { return l.id; }); },
                  // the labels written on the last drawing: where (page pixels, in the graph's box) and what
                  labelBoxes: function () {
                    return placed.map(function (l) {
                      return { id: l.id, label: labelOf[l.id], x0: l.box.x0, x1: l.box.x1, y0: l.box.y0, y1: l.box.y1,
                               line: !!l.line };
                    });
                  } };
})();
