//===- GraphPage.cpp - a step's graph as a page that expands its scopes ---===//
//
// The page holds the step's boxes and edges (StepPicture) and, for each box,
// a layout of what it holds with every inner box closed, made by Graphviz's
// dot (-Tplain, every box's graph in one run). The page's script draws the
// boxes a reader opened inside their parents: an open box is as large as its
// own layout, and its parent's layout makes room for it by moving what lies
// below its rank down and what lies right of it further right (so each
// layout keeps dot's order and no boxes overlap), then draws each edge
// between the outermost closed boxes that hold its ends.
//
//===----------------------------------------------------------------------===//

#include "tfc/Target/GraphViz.h"
#include "StepPicture.h"

#include "tfc/Dialect/Tfc/TfcDialect.h"
#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Transforms/GraphUtils.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <map>

using namespace mlir;

namespace tfc {
namespace {

// The page's template (GraphPage.html), embedded by the build.
#include "GraphPage.inc"

/// Points per inch, dot's unit; the page draws in points too.
constexpr double kPointsPerInch = 72;

/// The size of a box drawn closed: its two lines of text.
std::pair<double, double> closedSize(const PictureItem &item) {
  std::string second;
  if (item.kind == PictureItem::Kind::Node)
    second = tfg::getOpType(item.op).str();
  else
    second = std::to_string(item.countNodes()) + " nodes";
  size_t characters = std::max(item.label.size(), second.size());
  characters = std::min<size_t>(characters, 40);
  return {std::max(60.0, 6.4 * characters + 18), 34};
}

class PageWriter {
public:
  explicit PageWriter(StepPicture &picture) : picture(picture) {
    number(picture.root);
  }

  /// Every open-able box's graph, for one run of dot.
  std::string layoutInput() {
    std::string text;
    llvm::raw_string_ostream os(text);
    for (const PictureItem *box : items) {
      if (box->children.empty())
        continue;
      os << "digraph b" << ids[box] << " {\n"
         << "  graph [rankdir=TB, nodesep=0.25, ranksep=0.35];\n"
         << "  node [shape=box, fixedsize=true, label=\"\"];\n";
      for (const auto &child : box->children) {
        auto [width, height] = closedSize(*child);
        os << "  c" << ids[child.get()] << " [width="
           << llvm::format("%.3f", width / kPointsPerInch) << ", height="
           << llvm::format("%.3f", height / kPointsPerInch) << "];\n";
      }
      // The picture's edges between this box's children, once each.
      for (auto &[ends, kind] : edgesWithin[box])
        os << "  c" << ids[ends.first] << " -> c" << ids[ends.second]
           << (kind == PictureEdge::Kind::Transfer ? " [constraint=false]"
                                                   : "")
           << ";\n";
      os << "}\n";
    }
    return text;
  }

  /// Reads dot's -Tplain answer: each box's children's centres.
  bool readLayouts(StringRef plain, std::string &error) {
    double height = 0;
    SmallVector<StringRef> lines;
    plain.split(lines, '\n');
    for (StringRef line : lines) {
      SmallVector<StringRef> fields;
      line.split(fields, ' ', -1, /*KeepEmpty=*/false);
      if (fields.size() >= 4 && fields[0] == "graph") {
        if (fields[3].getAsDouble(height))
          break;
        continue;
      }
      unsigned id;
      double x, y;
      if (fields.size() < 4 || fields[0] != "node" ||
          !fields[1].consume_front("c") || fields[1].getAsInteger(10, id) ||
          id >= items.size() || fields[2].getAsDouble(x) ||
          fields[3].getAsDouble(y))
        continue;
      centres[items[id]] = {x * kPointsPerInch,
                            (height - y) * kPointsPerInch};
    }
    for (const PictureItem *item : items)
      if (item != &picture.root && !centres.count(item)) {
        error = "dot's layout lacks the box of " + item->path();
        return false;
      }
    return true;
  }

  llvm::json::Value data(StringRef title) {
    llvm::json::Array itemArray;
    for (const PictureItem *item : items) {
      llvm::json::Object object;
      static const char *const kinds[] = {"root", "device", "scope", "fused",
                                          "node"};
      object["kind"] = kinds[static_cast<int>(item->kind)];
      object["label"] = item->label;
      object["device"] = item->device;
      if (item->parent)
        object["parent"] = ids[item->parent];
      auto [width, height] = closedSize(*item);
      object["w"] = width;
      object["h"] = height;
      if (item->kind == PictureItem::Kind::Node) {
        object["op"] = tfg::getOpType(item->op);
        object["title"] = nodeTooltip(item->op);
        object["transfer"] = isTransfer(item->op);
      } else {
        object["count"] = item->countNodes();
        object["title"] = boxTooltip(*item);
      }
      if (item != &picture.root) {
        auto [x, y] = centres[item];
        object["x"] = x;
        object["y"] = y;
      }
      llvm::json::Array children;
      for (const auto &child : item->children)
        children.push_back(ids[child.get()]);
      object["children"] = std::move(children);
      itemArray.push_back(std::move(object));
    }
    llvm::json::Array edgeArray;
    for (const PictureEdge &edge : picture.edges)
      edgeArray.push_back(llvm::json::Array{ids[edge.from], ids[edge.to],
                                            static_cast<int>(edge.kind)});
    llvm::json::Array colours;
    for (unsigned i = 0; i < picture.devices; ++i)
      colours.push_back(kDeviceColours[i % kNumDeviceColours]);
    return llvm::json::Object{{"title", title},
                              {"items", std::move(itemArray)},
                              {"edges", std::move(edgeArray)},
                              {"colours", std::move(colours)}};
  }

private:
  void number(const PictureItem &item) {
    ids[&item] = items.size();
    items.push_back(&item);
    for (const auto &child : item.children)
      number(*child);
    if (&item == &picture.root)
      for (const PictureEdge &edge : picture.edges)
        within(edge);
  }

  /// Files `edge` under the box that holds both its ends most closely, as
  /// an edge between that box's two children that hold them.
  void within(const PictureEdge &edge) {
    SmallVector<const PictureItem *> from = chain(edge.from), to = chain(edge.to);
    size_t common = 0;
    while (common + 1 < from.size() && common + 1 < to.size() &&
           from[common + 1] == to[common + 1])
      ++common;
    if (common + 1 >= from.size() || common + 1 >= to.size())
      return;
    edgesWithin[from[common]].insert(
        {{from[common + 1], to[common + 1]}, edge.kind});
  }

  /// The boxes from the root down to `item`.
  static SmallVector<const PictureItem *> chain(const PictureItem *item) {
    SmallVector<const PictureItem *> path;
    for (; item; item = item->parent)
      path.push_back(item);
    std::reverse(path.begin(), path.end());
    return path;
  }

  static std::string boxTooltip(const PictureItem &item) {
    std::string count = std::to_string(item.countNodes()) + " nodes";
    switch (item.kind) {
    case PictureItem::Kind::Device:
      return item.label + "\n" + count;
    case PictureItem::Kind::Scope:
      return "scope " + item.path() + "\n" + count;
    case PictureItem::Kind::Fused: {
      std::string ops;
      for (Operation *member : nodesComputedBy(item.op))
        ops += (ops.empty() ? "" : "+") + tfg::getOpType(member).str();
      return "fused " + tfg::getNodeName(item.op).str() + " (" + ops +
             "): one loop or kernel computes these nodes";
    }
    default:
      return count;
    }
  }

  StepPicture &picture;
  std::vector<const PictureItem *> items;
  llvm::DenseMap<const PictureItem *, unsigned> ids;
  llvm::DenseMap<const PictureItem *, std::pair<double, double>> centres;
  std::map<const PictureItem *,
           std::map<std::pair<const PictureItem *, const PictureItem *>,
                    PictureEdge::Kind>>
      edgesWithin;
};

} // namespace

bool stepToHtml(ModuleOp module, StringRef title, std::string &html,
                std::string &error) {
  StepPicture picture = pictureStep(module);
  PageWriter writer(picture);
  std::string plain;
  if (!runDot("plain", writer.layoutInput(), plain, error) ||
      !writer.readLayouts(plain, error))
    return false;
  std::string data;
  llvm::raw_string_ostream(data) << writer.data(title);
  // The data sits in a <script> element: "</" would end it.
  std::string safe;
  for (size_t i = 0; i < data.size(); ++i) {
    safe += data[i];
    if (data[i] == '<' && i + 1 < data.size() && data[i + 1] == '/')
      safe += '\\';
  }
  StringRef page(kGraphPage);
  auto [head, rest] = page.split("@TFC_GRAPH_DATA@");
  html = (head + safe + rest).str();
  return true;
}

} // namespace tfc
