//===- ReadModel.cpp - model files in, GraphDef files out -----------------===//
//
// Finds out what a model path holds (a SavedModel directory, a binary or a
// text GraphDef), parses it with one-line errors, and writes GraphDefs back
// without leaving partial files.
//
// Binary and text are told apart by content: a text proto is printable, a
// binary GraphDef starts with field tags and lengths that are not.
//
//===----------------------------------------------------------------------===//

#include "tfc/Target/GraphDef.h"
#include "tfc/Dialect/Tfg/AttrConversion.h"
#include "tfc/Runtime/Checkpoint.h"

#include "graph.pb.h"
#include "saved_model.pb.h"

#include <google/protobuf/io/tokenizer.h>
#include <map>
#include <google/protobuf/text_format.h>

#include "mlir/IR/Builders.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;

namespace tfc {
namespace {

/// Keeps the first text-format parse error, with its position.
class FirstErrorCollector : public google::protobuf::io::ErrorCollector {
public:
  void AddError(int line, int column, const std::string &message) override {
    if (error.empty())
      error = std::to_string(line + 1) + ":" + std::to_string(column + 1) +
              ": " + message;
  }
  std::string error;
};

/// Whether `bytes` look like a text proto: no control characters besides
/// whitespace in the first 64 KiB.
bool looksLikeText(StringRef bytes) {
  return llvm::all_of(bytes.take_front(1 << 16), [](char c) {
    auto u = static_cast<unsigned char>(c);
    return u >= 0x20 || u == '\n' || u == '\r' || u == '\t' || u == '\f' ||
           u == '\v';
  });
}

/// Parses `bytes` as binary or text proto `message`; sets `error` with the
/// reason on failure.
bool parseProto(StringRef bytes, google::protobuf::Message &message,
                std::string &error) {
  if (bytes.empty()) {
    error = "file is empty";
    return false;
  }
  if (looksLikeText(bytes)) {
    google::protobuf::TextFormat::Parser parser;
    FirstErrorCollector collector;
    parser.RecordErrorsTo(&collector);
    if (parser.ParseFromString(bytes.str(), &message))
      return true;
    error = "malformed text " + message.GetTypeName().substr(10) + " at " +
            collector.error;
    return false;
  }
  if (!message.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())) ||
      bytes.size() > INT32_MAX) {
    error = "malformed binary " + message.GetTypeName().substr(10) +
            " (truncated or not a protobuf)";
    return false;
  }
  // Random bytes can happen to parse as fields of unknown numbers; a real
  // file of this kind has none at the top level.
  const auto &unknown = message.GetReflection()->GetUnknownFields(message);
  for (int i = 0; i < unknown.field_count(); ++i) {
    int number = unknown.field(i).number();
    // GraphDef field 5 (debug_info) is TensorFlow's, and not read by tfc.
    if (message.GetTypeName() == "tfc.proto.GraphDef" && number == 5)
      continue;
    error = "not a " + message.GetTypeName().substr(10) +
            " (unknown field " + std::to_string(number) + ")";
    return false;
  }
  return true;
}

InFlightDiagnostic fileError(MLIRContext *context, StringRef path) {
  return emitError(FileLineColLoc::get(context, path, 0, 0));
}

/// The checkpoint keys of the variables a TF2 SavedModel's functions
/// capture, by the name of their node in the graph: a call of a concrete
/// function passes its captured inputs after its arguments, in the order of
/// the function's bound_inputs, which are object ids; the checkpoint's
/// object graph, with the same ids, gives each variable object's key (its
/// VARIABLE_VALUE). Empty when the model has no object graph or its
/// checkpoint cannot be read (freezing then reports the checkpoint).
std::map<std::string, std::string>
capturedVariableKeys(const proto::MetaGraphDef &meta, StringRef checkpoint) {
  std::map<std::string, std::string> keys;
  const auto &functions = meta.object_graph_def().concrete_functions();
  rt::CheckpointReader reader;
  std::vector<std::string> graph;
  std::string error;
  proto::TrackableObjectGraph objects;
  if (functions.empty() || !reader.open(checkpoint.str(), error) ||
      !reader.entries().count(rt::kObjectGraphKey) ||
      !reader.readStrings(rt::kObjectGraphKey, graph, error) || graph.size() != 1 ||
      !objects.ParseFromString(graph[0]))
    return keys;
  std::map<std::string, const proto::NodeDef *> nodes;
  for (const proto::NodeDef &node : meta.graph_def().node())
    nodes[node.name()] = &node;
  for (const proto::NodeDef &node : meta.graph_def().node()) {
    auto f = node.attr().find("f");
    if (f == node.attr().end() || !f->second.has_func())
      continue;
    auto function = functions.find(f->second.func().name());
    if (function == functions.end())
      continue;
    std::vector<std::string> inputs;
    for (const std::string &input : node.input())
      if (!input.empty() && input[0] != '^')
        inputs.push_back(input.substr(0, input.find(':')));
    const auto &bound = function->second.bound_inputs();
    if (size_t(bound.size()) > inputs.size())
      continue;
    for (int i = 0; i < bound.size(); ++i) {
      std::string &name = inputs[inputs.size() - bound.size() + i];
      auto captured = nodes.find(name);
      if (bound[i] < 0 || bound[i] >= objects.nodes_size() || captured == nodes.end() ||
          captured->second->op() != "VarHandleOp")
        continue;
      for (const auto &attribute : objects.nodes(bound[i]).attributes())
        if (attribute.name() == "VARIABLE_VALUE")
          keys[name] = attribute.checkpoint_key();
    }
  }
  return keys;
}

/// Adds a MetaGraph's saver and queue runners to the module.
LogicalResult annotateSaverAndCollections(ModuleOp module,
                                          const proto::MetaGraphDef &meta,
                                          StringRef path) {
  Builder b(module.getContext());
  if (meta.has_saver_def()) {
    const proto::SaverDef &saver = meta.saver_def();
    module->setAttr(
        kSaverAttr,
        b.getDictionaryAttr({
            b.getNamedAttr("filename_tensor_name",
                           b.getStringAttr(saver.filename_tensor_name())),
            b.getNamedAttr("save_tensor_name",
                           b.getStringAttr(saver.save_tensor_name())),
            b.getNamedAttr("restore_op_name",
                           b.getStringAttr(saver.restore_op_name())),
        }));
  }
  // The parts of partitioned variables, from every collection of
  // VariableDefs: the full variable's key and the part's slice.
  // (A variable is in several collections: once each.)
  std::map<std::string, std::pair<std::string, std::string>> parts;
  for (const char *name : {"variables", "trainable_variables",
                           "local_variables", "model_variables"}) {
    auto collection = meta.collection_def().find(name);
    if (collection == meta.collection_def().end())
      continue;
    for (const std::string &bytes : collection->second.bytes_list().value()) {
      proto::VariableDef variable;
      if (!variable.ParseFromString(bytes))
        return fileError(module.getContext(), path)
               << "the " << name << " collection holds something other than "
               << "a VariableDef";
      if (!variable.has_save_slice_info_def())
        continue;
      const proto::SaveSliceInfoDef &info = variable.save_slice_info_def();
      size_t rank = size_t(info.full_shape_size());
      if (info.full_name().empty() || size_t(info.var_offset_size()) != rank ||
          size_t(info.var_shape_size()) != rank)
        return fileError(module.getContext(), path)
               << "variable '" << variable.variable_name()
               << "': its save_slice_info_def is incomplete";
      std::string spec;
      for (int64_t d : info.full_shape())
        spec += std::to_string(d) + " ";
      for (size_t d = 0; d < rank; ++d)
        spec += (d ? ":" : "") + std::to_string(info.var_offset(int(d))) + "," +
                std::to_string(info.var_shape(int(d)));
      parts[StringRef(variable.variable_name()).split(':').first.str()] = {
          info.full_name(), spec};
    }
  }
  SmallVector<NamedAttribute> slices;
  for (const auto &[node, part] : parts)
    slices.push_back(b.getNamedAttr(
        node, b.getDictionaryAttr(
                  {b.getNamedAttr("key", b.getStringAttr(part.first)),
                   b.getNamedAttr("slice", b.getStringAttr(part.second))})));
  if (!slices.empty())
    module->setAttr(kVariableSlicesAttr, b.getDictionaryAttr(slices));

  // Each QueueRunnerDef of the collection: its enqueue ops, one thread
  // each, as --queue-runner takes them.
  auto runners = meta.collection_def().find("queue_runners");
  if (runners == meta.collection_def().end())
    return success();
  SmallVector<Attribute> flags;
  for (const std::string &bytes : runners->second.bytes_list().value()) {
    proto::QueueRunnerDef runner;
    if (!runner.ParseFromString(bytes))
      return fileError(module.getContext(), path)
             << "the queue_runners collection holds something other than a "
                "QueueRunnerDef";
    SmallVector<StringRef> ops;
    for (const std::string &op : runner.enqueue_op_name())
      ops.push_back(StringRef(op).split(':').first);
    if (ops.empty())
      return fileError(module.getContext(), path)
             << "queue runner of '" << runner.queue_name()
             << "' has no enqueue op";
    flags.push_back(b.getStringAttr(llvm::join(ops, ",")));
  }
  module->setAttr(kMetaGraphQueueRunnersAttr, b.getArrayAttr(flags));
  return success();
}

/// Adds a SavedModel's signatures, feeds/fetches and saver to the module.
LogicalResult annotateSavedModel(ModuleOp module,
                                 const proto::MetaGraphDef &meta,
                                 StringRef directory,
                                 const ModelImportOptions &options) {
  MLIRContext *context = module.getContext();
  Builder b(context);
  auto tensorMap = [&](const auto &map) {
    SmallVector<NamedAttribute> entries;
    for (const auto &[key, info] : map)
      entries.push_back(b.getNamedAttr(key, b.getStringAttr(info.name())));
    return b.getDictionaryAttr(entries);
  };
  SmallVector<NamedAttribute> signatures;
  for (const auto &[key, sig] : meta.signature_def())
    signatures.push_back(b.getNamedAttr(
        key, b.getDictionaryAttr({
                 b.getNamedAttr("inputs", tensorMap(sig.inputs())),
                 b.getNamedAttr("outputs", tensorMap(sig.outputs())),
                 b.getNamedAttr("method_name",
                                b.getStringAttr(sig.method_name())),
             })));
  module->setAttr(kSignaturesAttr, b.getDictionaryAttr(signatures));

  std::string key = options.signature;
  if (key.empty()) {
    if (meta.signature_def().count("serving_default"))
      key = "serving_default";
    else if (meta.signature_def().size() == 1)
      key = meta.signature_def().begin()->first;
  }
  if (!key.empty()) {
    auto it = meta.signature_def().find(key);
    if (it == meta.signature_def().end()) {
      std::vector<std::string> keys;
      for (const auto &entry : meta.signature_def())
        keys.push_back(entry.first);
      std::sort(keys.begin(), keys.end());
      return fileError(context, directory)
             << "SavedModel has no signature '" << key << "' (it has: "
             << llvm::join(keys, ", ") << ")";
    }
    module->setAttr(kSignatureFeedsAttr, tensorMap(it->second.inputs()));
    module->setAttr(kSignatureFetchesAttr, tensorMap(it->second.outputs()));
  }

  if (failed(annotateSaverAndCollections(module, meta, directory)))
    return failure();

  SmallVector<NamedAttribute> info;
  SmallVector<StringRef> tags(options.tags.begin(), options.tags.end());
  info.push_back(b.getNamedAttr("tags", b.getStrArrayAttr(tags)));
  if (!key.empty())
    info.push_back(b.getNamedAttr("signature", b.getStringAttr(key)));
  SmallString<256> variables(directory);
  llvm::sys::path::append(variables, "variables", "variables.index");
  if (llvm::sys::fs::exists(variables)) {
    llvm::sys::path::remove_filename(variables);
    llvm::sys::path::append(variables, "variables");
    info.push_back(b.getNamedAttr("variables", b.getStringAttr(variables)));
    SmallVector<NamedAttribute> keys;
    for (const auto &[node, key] : capturedVariableKeys(meta, variables))
      keys.push_back(b.getNamedAttr(node, b.getStringAttr(key)));
    if (!keys.empty())
      info.push_back(b.getNamedAttr("variable_keys", b.getDictionaryAttr(keys)));
  }
  // Each asset's path as a loader feeds it: the SavedModel's assets/ folder
  // and the file's name, keyed by the node that takes it.
  NamedAttrList assets;
  for (const proto::AssetFileDef &asset : meta.asset_file_def()) {
    SmallString<256> file(directory);
    llvm::sys::path::append(file, "assets", asset.filename());
    assets.set(StringRef(asset.tensor_info().name()).split(':').first,
               b.getStringAttr(file));
  }
  if (!assets.empty())
    info.push_back(
        b.getNamedAttr("assets", assets.getDictionary(module.getContext())));
  module->setAttr(kSavedModelAttr, b.getDictionaryAttr(info));
  return success();
}

OwningOpRef<ModuleOp> importSavedModel(StringRef directory,
                                       MLIRContext *context,
                                       const ModelImportOptions &options) {
  SmallString<256> path(directory);
  llvm::sys::path::append(path, "saved_model.pb");
  if (!llvm::sys::fs::exists(path)) {
    path = directory;
    llvm::sys::path::append(path, "saved_model.pbtxt");
  }
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer) {
    fileError(context, directory)
        << "not a SavedModel: no saved_model.pb or saved_model.pbtxt";
    return nullptr;
  }
  proto::SavedModel savedModel;
  std::string error;
  if (!parseProto((*buffer)->getBuffer(), savedModel, error)) {
    fileError(context, path) << error;
    return nullptr;
  }

  std::vector<std::string> wanted = options.tags;
  std::sort(wanted.begin(), wanted.end());
  const proto::MetaGraphDef *meta = nullptr;
  std::vector<std::string> available;
  for (const proto::MetaGraphDef &candidate : savedModel.meta_graphs()) {
    std::vector<std::string> tags(candidate.meta_info_def().tags().begin(),
                                  candidate.meta_info_def().tags().end());
    std::sort(tags.begin(), tags.end());
    if (tags == wanted && !meta)
      meta = &candidate;
    available.push_back("{" + llvm::join(tags, ",") + "}");
  }
  if (!meta) {
    fileError(context, path)
        << "SavedModel has no MetaGraph with tags {"
        << llvm::join(wanted, ",") << "} (it has: "
        << llvm::join(available, " ") << ")";
    return nullptr;
  }
  OwningOpRef<ModuleOp> module =
      importGraphDef(meta->graph_def(), context, path);
  if (!module || failed(annotateSavedModel(*module, *meta, directory, options)))
    return nullptr;
  return module;
}

} // namespace

OwningOpRef<ModuleOp> importModel(StringRef path, MLIRContext *context,
                                  const ModelImportOptions &options) {
  if (llvm::sys::fs::is_directory(path))
    return importSavedModel(path, context, options);
  auto buffer = llvm::MemoryBuffer::getFileOrSTDIN(
      path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!buffer) {
    fileError(context, path) << "cannot read: " << buffer.getError().message();
    return nullptr;
  }
  if (path.ends_with(".meta"))
    return importMetaGraphBytes((*buffer)->getBuffer(), path, context);
  return importGraphDefBytes((*buffer)->getBuffer(), path, context);
}

OwningOpRef<ModuleOp> importMetaGraphBytes(StringRef bytes, StringRef path,
                                           MLIRContext *context) {
  proto::MetaGraphDef meta;
  std::string error;
  if (!parseProto(bytes, meta, error)) {
    fileError(context, path) << error;
    return nullptr;
  }
  if (!meta.has_graph_def()) {
    fileError(context, path) << "the MetaGraphDef has no graph";
    return nullptr;
  }
  OwningOpRef<ModuleOp> module = importGraphDef(meta.graph_def(), context, path);
  if (!module || failed(annotateSaverAndCollections(*module, meta, path)))
    return nullptr;
  StringRef prefix = path.drop_back(StringRef(".meta").size());
  if (llvm::sys::fs::exists(prefix + ".index")) {
    Builder b(context);
    (*module)->setAttr(
        kSavedModelAttr,
        b.getDictionaryAttr({b.getNamedAttr("variables", b.getStringAttr(prefix))}));
  }
  return module;
}

OwningOpRef<ModuleOp> importGraphDefBytes(StringRef bytes,
                                          StringRef sourceName,
                                          MLIRContext *context) {
  proto::GraphDef graph;
  std::string error;
  if (!parseProto(bytes, graph, error)) {
    fileError(context, sourceName) << error;
    return nullptr;
  }
  return importGraphDef(graph, context, sourceName);
}

LogicalResult writeGraphDef(ModuleOp module, StringRef path, StringRef entry,
                            StringRef device) {
  proto::GraphDef graph;
  if (failed(exportGraphDef(module, graph, entry, device)))
    return failure();
  std::string bytes;
  bool binary = path.ends_with(".pb");
  if (binary) {
    if (!graph.SerializeToString(&bytes))
      return emitError(module.getLoc(), "GraphDef exceeds 2 GiB");
  } else {
    google::protobuf::TextFormat::PrintToString(graph, &bytes);
  }
  std::string error;
  std::unique_ptr<llvm::ToolOutputFile> out = openOutputFile(path, &error);
  if (!out)
    return fileError(module.getContext(), path) << error;
  out->os() << bytes;
  out->os().flush();
  if (out->os().has_error())
    return fileError(module.getContext(), path) << "write failed";
  out->keep();
  return success();
}

} // namespace tfc
