//===- GraphViz.cpp - a step's graph as a Graphviz picture ----------------===//

#include "tfc/Target/GraphViz.h"
#include "StepPicture.h"

#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Transforms/OpTable.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace tfc {

const char *const kDeviceColours[] = {"#e8f0fe", "#fce8e6", "#e6f4ea",
                                      "#fef7e0", "#f3e8fd", "#e0f7fa"};
const unsigned kNumDeviceColours = std::size(kDeviceColours);

namespace {

/// A DOT string literal.
std::string quoteDot(StringRef text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    if (c == '"' || c == '\\')
      out += '\\';
    out += c;
  }
  return out + "\"";
}

} // namespace

bool isTransfer(Operation *node) {
  return opKindOf(node) == OpKind::InternalSend ||
         opKindOf(node) == OpKind::InternalRecv;
}

namespace {

class DotWriter {
public:
  explicit DotWriter(llvm::raw_string_ostream &os) : os(os) {}

  void item(const PictureItem &item, const std::string &indent) {
    using Kind = PictureItem::Kind;
    if (item.kind == Kind::Node) {
      ids[&item] = "n" + std::to_string(ids.size());
      os << indent << ids[&item] << " [label="
         << quoteDot(item.label + "\n" + tfg::getOpType(item.op).str())
         << ", tooltip=" << quoteDot(nodeTooltip(item.op))
         << (isTransfer(item.op) ? ", shape=cds, color=\"#d93025\"" : "")
         << "];\n";
      return;
    }
    std::string inner = indent;
    if (item.kind != Kind::Root) {
      inner += "  ";
      os << indent << "subgraph ";
      if (item.kind == Kind::Device)
        os << "cluster_device_" << item.device << " {\n"
           << inner << "label=" << quoteDot(item.label)
           << "; style=filled; fillcolor="
           << quoteDot(kDeviceColours[item.device % kNumDeviceColours])
           << "; fontsize=16;\n";
      else if (item.kind == Kind::Scope)
        os << "cluster_scope_" << boxes++ << " {\n"
           << inner << "label=" << quoteDot(item.label)
           << "; style=\"rounded,filled\"; fillcolor=white;\n";
      else
        os << "cluster_fused_" << boxes++ << " {\n"
           << inner << "label=" << quoteDot("fused: " + item.label)
           << "; tooltip="
           << quoteDot("one loop or kernel computes these nodes")
           << "; style=\"dashed,bold,filled\"; color=\"#1a73e8\"; "
              "fillcolor=\"#f1f6fe\"; fontcolor=\"#1a73e8\";\n";
    }
    for (const auto &child : item.children)
      this->item(*child, inner);
    if (item.kind != Kind::Root)
      os << indent << "}\n";
  }

  void edge(const PictureEdge &edge) {
    os << "  " << ids[edge.from] << " -> " << ids[edge.to];
    if (edge.kind == PictureEdge::Kind::Control)
      os << " [style=dashed]";
    else if (edge.kind == PictureEdge::Kind::Transfer)
      os << " [style=dotted, color=\"#d93025\", constraint=false]";
    os << ";\n";
  }

private:
  llvm::raw_string_ostream &os;
  llvm::DenseMap<const PictureItem *, std::string> ids;
  unsigned boxes = 0;
};

} // namespace

std::string stepToDot(ModuleOp module) {
  StepPicture picture = pictureStep(module);
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "digraph step {\n"
     << "  rankdir=TB; compound=true; fontname=\"Helvetica\";\n"
     << "  node [shape=box, style=\"rounded,filled\", fillcolor=white, "
        "fontname=\"Helvetica\", fontsize=10];\n"
     << "  edge [arrowsize=0.6];\n";
  DotWriter writer(os);
  writer.item(picture.root, "  ");
  for (const PictureEdge &edge : picture.edges)
    writer.edge(edge);
  os << "}\n";
  return text;
}

bool runDot(StringRef format, StringRef input, std::string &output,
            std::string &error) {
  llvm::ErrorOr<std::string> program = llvm::sys::findProgramByName("dot");
  if (!program) {
    error = "Graphviz's dot is not installed (Debian: graphviz)";
    return false;
  }
  SmallString<128> inputPath, outputPath;
  int fd;
  if (llvm::sys::fs::createTemporaryFile("tfc-viz", "dot", fd, inputPath)) {
    error = "cannot make a temporary file for dot";
    return false;
  }
  {
    llvm::raw_fd_ostream file(fd, /*shouldClose=*/true);
    file << input;
  }
  if (llvm::sys::fs::createTemporaryFile("tfc-viz", "out", outputPath)) {
    llvm::sys::fs::remove(inputPath);
    error = "cannot make a temporary file for dot";
    return false;
  }
  // To its standard output: with -o, dot writes only the first of several
  // graphs there.
  std::string flag = ("-T" + format).str();
  std::optional<StringRef> redirects[] = {std::nullopt, outputPath.str(),
                                          std::nullopt};
  int status = llvm::sys::ExecuteAndWait(
      *program, {*program, flag, inputPath.str()}, std::nullopt, redirects,
      /*secondsToWait=*/600, 0, &error);
  llvm::sys::fs::remove(inputPath);
  auto buffer = llvm::MemoryBuffer::getFile(outputPath);
  llvm::sys::fs::remove(outputPath);
  if (status != 0 || !buffer) {
    error = "dot failed" + (error.empty() ? "" : ": " + error);
    return false;
  }
  output = (*buffer)->getBuffer().str();
  return true;
}

} // namespace tfc
