// Checks a page `tfc viz -o PAGE.html` wrote, running the page's own layout
// code (no browser): what the page holds (nodes, boxes, edges), and, with
// every box open, with the page's first view and with every box closed,
// that no two boxes drawn overlap, that each box lies inside the box that
// holds it, and that every edge joins two boxes drawn. Given the IR of the
// same stage, whether the page has exactly the IR's step nodes (fusion
// groups' members too), its fusion groups and its _Send/_Recv pairs.
//
// usage: node check_graph_page.js PAGE.html [STEP.mlir] [--svg OUT.svg]
//   --svg: the first view, drawn plainly (to look at).
"use strict";
const fs = require("fs");

const args = process.argv.slice(2);
const svgAt = args.indexOf("--svg");
const svgPath = svgAt >= 0 ? args.splice(svgAt, 2)[1] : null;
const html = fs.readFileSync(args[0], "utf8");
const dataText = html.match(/<script id="tfc-graph-data" type="application\/json">([\s\S]*?)<\/script>/)[1];
const data = JSON.parse(dataText);
const code = html.match(/<script>([\s\S]*?)<\/script>/)[1];
const page = { exports: null };
new Function("module", code)(page);
const TfcGraph = page.exports;

const count = kind => data.items.filter(item => item.kind === kind).length;
const kinds = [0, 0, 0];
data.edges.forEach(e => kinds[e[2]]++);
console.log(`nodes ${count("node")}; scopes ${count("scope")}; fused ${count("fused")}; ` +
            `edges: data ${kinds[0]}, control ${kinds[1]}, transfers ${kinds[2]}`);
data.items.filter(item => item.kind === "device")
  .forEach(item => console.log("device box: " + item.label));

const everyBox = new Set(data.items.map((item, id) => id)
  .filter(id => data.items[id].children.length));
const views = { "all open": everyBox, "first view": TfcGraph.initiallyOpen(data),
                "all closed": new Set([0, ...data.items.map((item, id) => id)
                  .filter(id => data.items[id].kind === "device")]) };
for (const [name, open] of Object.entries(views)) {
  const scene = TfcGraph.scene(data, open);
  const boxOf = new Map(scene.boxes.map(b => [b.id, b]));
  let overlaps = 0, outside = 0, loose = 0;
  const inside = (a, b) => a.x >= b.x && a.y >= b.y &&
    a.x + a.w <= b.x + b.w + 0.01 && a.y + a.h <= b.y + b.h + 0.01;
  for (const box of scene.boxes) {
    const parent = boxOf.get(data.items[box.id].parent);
    if (parent && !inside(box, parent)) outside++;
    // Siblings: the boxes with the same parent.
    for (const other of scene.boxes)
      if (other.id < box.id && data.items[other.id].parent === data.items[box.id].parent &&
          box.x < other.x + other.w && other.x < box.x + box.w &&
          box.y < other.y + other.h && other.y < box.y + box.h)
        overlaps++;
  }
  for (const edge of scene.edges)
    if (!edge.from || !edge.to) loose++;
  const closedNodes = scene.boxes.filter(b => !b.open).length;
  console.log(`${name}: ${scene.boxes.length} boxes (${closedNodes} closed or nodes), ` +
              `${scene.edges.length} edges; overlapping ${overlaps}, outside their box ${outside}, ` +
              `edges without ends ${loose}`);
  if (name === "first view" && svgPath) {
    let svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${scene.width}" height="${scene.height}">` +
      `<rect width="100%" height="100%" fill="white"/>`;
    for (const b of scene.boxes) {
      const item = data.items[b.id];
      const fill = item.kind === "device" ? data.colours[item.device] : "white";
      svg += `<rect x="${b.x}" y="${b.y}" width="${b.w}" height="${b.h}" rx="5" fill="${fill}" ` +
             `stroke="${item.kind === "fused" ? "#1a73e8" : "#5f6368"}"/>`;
      const label = item.kind === "node" ? item.label + " (" + item.op + ")" : TfcGraph.title(item);
      svg += `<text x="${b.x + 5}" y="${b.y + 13}" font-size="10" font-family="sans-serif">` +
             label.replace(/&/g, "&amp;").replace(/</g, "&lt;").slice(0, 40) + "</text>";
    }
    for (const e of scene.edges)
      svg += `<path d="${TfcGraph.edgePath(e.from, e.to)}" fill="none" stroke="` +
             `${["#555", "#999", "#d93025"][e.kind]}"/>`;
    fs.writeFileSync(svgPath, svg + "</svg>");
  }
}

// The page's drawing code, on a stand-in for the browser's document: it
// draws a <title> per box shown and a path per edge, and a click on a
// closed box opens it.
{
  class Element {
    constructor(name) { this.name = name; this.children = []; this.attrs = {};
                        this.listeners = {}; this.style = {}; this.text = ""; }
    setAttribute(k, v) { this.attrs[k] = String(v); }
    appendChild(child) { this.children.push(child); return child; }
    addEventListener(kind, f) { this.listeners[kind] = f; }
    set textContent(v) { this.text = v; if (v === "") this.children = []; }
    get textContent() { return this.text; }
    all(name) { return this.children.flatMap(c => (c.name === name ? [c] : []).concat(c.all(name))); }
  }
  const byId = {};
  const document = {
    title: "",
    getElementById(id) {
      if (!byId[id]) byId[id] = new Element("div");
      if (id === "tfc-graph-data") byId[id].text = dataText;
      return byId[id];
    },
    createElementNS(ns, name) { return new Element(name); },
  };
  new Function("module", "document", code)(undefined, document);
  const view = byId["view"];
  const drawn = () => [view.all("title").length, view.all("path").length - 1];
  const [boxes, edges] = drawn();
  const closed = view.all("g").find(g => (g.attrs.class || "").startsWith("closed"));
  let opened = "no closed box";
  if (closed) {
    closed.listeners.click();
    opened = `a click on a closed box opened it: ${drawn()[0]} boxes`;
  }
  console.log(`page script: drew ${boxes} boxes, ${edges} edges; ${opened}`);
}

if (args[1]) {
  // The IR's step graphs: every tfg.graph but the once-run entries'.
  const ir = fs.readFileSync(args[1], "utf8");
  const graphs = [...ir.matchAll(/(tfg\.graph[^\n]*)\{\n([\s\S]*?)\n  \}/g)]
    .filter(m => !/tfg\.entry = "(init|local_init|chief_init|runner:[^"]*)"/.test(m[1]))
    .map(m => m[2]);
  const names = graphs.flatMap(body => [...body.matchAll(/ name\("([^"]*)"\)/g)].map(m => m[1]));
  const drawn = data.items.filter(item => item.kind === "node")
    .map(item => item.title.split(" (")[0]);
  const missing = names.filter(name => !drawn.includes(name));
  const extra = drawn.filter(name => !names.includes(name));
  console.log("the IR's step nodes: " + (missing.length || extra.length || names.length !== drawn.length
    ? `${names.length}, drawn ${drawn.length}; missing ${missing.slice(0, 5)}; extra ${extra.slice(0, 5)}`
    : "all drawn"));
  const groups = graphs.reduce((n, body) => n + (body.match(/tfc\.fusion_group/g) || []).length, 0);
  console.log("the IR's fusion groups: " + (groups === count("fused") ? `all drawn (${groups})`
    : `${groups}, drawn ${count("fused")}`));
  const sends = graphs.reduce((n, body) => n + (body.match(/_Send\(/g) || []).length, 0);
  console.log("the IR's transfers: " + (sends === kinds[2] ? "all drawn" : `${sends}, drawn ${kinds[2]}`));
}
