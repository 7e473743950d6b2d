//===- CompileInterface.cpp - feeds, fetches, targets of a compile --------===//

#include "tfc/Transforms/CompileInterface.h"
#include "tfc/Dialect/Tfc/TfcAttributes.h"
#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Target/GraphDef.h"
#include "tfc/Transforms/GraphUtils.h"
#include "tfc/Transforms/OpTable.h"
#include "tfc/Transforms/Placement.h"
#include "tfc/Transforms/SyncReplicas.h"
#include "tfc/Transforms/Variables.h"
#include "tfc/Support/DeviceName.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;

namespace tfc {
namespace {

/// Parses the "=D0,D1,..." part of a feed: a shape, "?" or -1 unknown.
FailureOr<tfg::ShapeAttr> parseFeedShape(MLIRContext *context, StringRef flag,
                                         StringRef dims) {
  SmallVector<int64_t> shape;
  if (!dims.empty()) {
    SmallVector<StringRef> parts;
    dims.split(parts, ',');
    for (StringRef part : parts) {
      part = part.trim();
      int64_t dim;
      if (part == "?" || part == "-1") {
        shape.push_back(ShapedType::kDynamic);
      } else if (!part.empty() && llvm::all_of(part, llvm::isDigit) &&
                 !part.getAsInteger(10, dim) && dim < (int64_t(1) << 40)) {
        shape.push_back(dim);
      } else {
        return emitError(UnknownLoc::get(context))
               << "--feed " << flag << ": bad dimension '" << part << "'";
      }
    }
  }
  return tfg::ShapeAttr::get(context, shape, /*unranked=*/false);
}

/// The signature's tensors, ordered by key (the SavedModel's own order).
SmallVector<Attribute> signatureTensors(ModuleOp module, StringRef attr) {
  SmallVector<Attribute> tensors;
  if (auto dict = module->getAttrOfType<DictionaryAttr>(attr))
    for (NamedAttribute entry : dict)
      tensors.push_back(entry.getValue());
  return tensors;
}

/// The graph's own interface: every Placeholder is fed, and the outputs of
/// every node whose outputs nothing consumes are fetched.
void defaultInterface(ModuleOp module, SmallVectorImpl<Attribute> &feeds,
                      SmallVectorImpl<Attribute> &fetches) {
  Builder b(module.getContext());
  for (auto graph : module.getOps<tfg::GraphOp>()) {
    for (Operation &node : graph.getBody()) {
      if (!tfg::isNode(&node))
        continue;
      StringRef name = tfg::getNodeName(&node);
      if (opKindOf(&node) == OpKind::Placeholder)
        feeds.push_back(b.getStringAttr(name + ":0"));
      // A node none of whose outputs feeds another node: its outputs are
      // what the graph computes (control uses do not count; unused extra
      // outputs of consumed nodes, e.g. FusedBatchNorm's, are not fetched).
      ResultRange results = tfg::getDataResults(&node);
      if (results.empty() ||
          !llvm::all_of(results, [](Value v) { return v.use_empty(); }))
        continue;
      for (Value result : results)
        fetches.push_back(b.getStringAttr(
            name + ":" + Twine(cast<OpResult>(result).getResultNumber())));
    }
  }
}

/// The Placeholders (without defaults) that the nodes of `tensors` read,
/// through data and control inputs, in graph order: what a user who gives
/// fetches but no --feed must feed.
SmallVector<Attribute> placeholdersRead(ModuleOp module,
                                        ArrayRef<Attribute> tensors) {
  llvm::StringMap<Operation *> byName;
  for (auto graph : module.getOps<tfg::GraphOp>())
    for (Operation &node : graph.getBody())
      if (tfg::isNode(&node))
        byName[tfg::getNodeName(&node)] = &node;
  llvm::DenseSet<Operation *> reached;
  SmallVector<Operation *> worklist;
  for (Attribute tensor : tensors)
    if (std::optional<TensorName> name =
            parseTensorName(cast<StringAttr>(tensor).getValue()))
      if (Operation *node = byName.lookup(name->node))
        worklist.push_back(node);
  while (!worklist.empty()) {
    Operation *node = worklist.pop_back_val();
    if (!reached.insert(node).second)
      continue;
    for (Value operand : node->getOperands())
      if (Operation *producer = operand.getDefiningOp())
        worklist.push_back(producer);
  }
  Builder b(module.getContext());
  SmallVector<Attribute> feeds;
  for (auto graph : module.getOps<tfg::GraphOp>())
    for (Operation &node : graph.getBody())
      if (reached.contains(&node) && (opKindOf(&node) == OpKind::Placeholder ||
                                      opKindOf(&node) == OpKind::PlaceholderV2))
        feeds.push_back(b.getStringAttr(tfg::getNodeName(&node) + ":0"));
  return feeds;
}

std::string join(ArrayRef<Attribute> names) {
  SmallVector<StringRef> strings;
  for (Attribute name : names)
    strings.push_back(cast<StringAttr>(name).getValue());
  return llvm::join(strings, ", ");
}

} // namespace

LogicalResult setCompileInterface(ModuleOp module, const CompileFlags &flags) {
  MLIRContext *context = module.getContext();
  Builder b(context);
  SmallVector<Attribute> feeds, shapes, fetches, targets, init;
  for (const std::string &flag : flags.feeds) {
    auto [name, dims] = StringRef(flag).split('=');
    if (!parseTensorName(name))
      return emitError(module.getLoc())
             << "--feed " << flag << ": malformed tensor name";
    feeds.push_back(b.getStringAttr(name));
    if (!StringRef(flag).contains('=')) {
      shapes.push_back(b.getUnitAttr());
      continue;
    }
    FailureOr<tfg::ShapeAttr> shape = parseFeedShape(context, flag, dims);
    if (failed(shape))
      return failure();
    shapes.push_back(*shape);
  }
  for (const std::string &name : flags.fetches)
    fetches.push_back(b.getStringAttr(name));
  for (const std::string &name : flags.targets)
    targets.push_back(b.getStringAttr(name));
  for (const std::string &name : flags.init)
    init.push_back(b.getStringAttr(name));

  // Without fetches or targets: the SavedModel signature, or the graph's
  // placeholders and unconsumed outputs.
  if (fetches.empty() && targets.empty()) {
    SmallVector<Attribute> defaultFeeds;
    if (module->hasAttr(kSignatureFetchesAttr)) {
      defaultFeeds = signatureTensors(module, kSignatureFeedsAttr);
      fetches = signatureTensors(module, kSignatureFetchesAttr);
    } else {
      defaultInterface(module, defaultFeeds, fetches);
      if (fetches.empty())
        emitWarning(module.getLoc())
            << "no --fetch or --target, and no unconsumed output to fetch";
      else
        emitWarning(module.getLoc())
            << "no --fetch or --target: fetching every unconsumed output ("
            << join(fetches) << ")";
    }
    if (feeds.empty()) {
      feeds = defaultFeeds;
      shapes.assign(feeds.size(), b.getUnitAttr());
    }
  } else if (feeds.empty()) {
    // Fetches or targets without --feed: the placeholders they read.
    SmallVector<Attribute> roots(fetches);
    roots.append(targets);
    feeds = placeholdersRead(module, roots);
    shapes.assign(feeds.size(), b.getUnitAttr());
  }

  // A SavedModel with variables and no --init: tfc-freeze-variables takes
  // their values at compile time through the saver's restore op (baked
  // into an inference step, or the init entry of a training one).
  module->removeAttr(kFreezeVariablesAttr);
  if (init.empty()) {
    auto savedModel = module->getAttrOfType<DictionaryAttr>("tfg.saved_model");
    auto saver = module->getAttrOfType<DictionaryAttr>("tfg.saver");
    auto variables = savedModel ? savedModel.getAs<StringAttr>("variables") : nullptr;
    auto restore = saver ? saver.getAs<StringAttr>("restore_op_name") : nullptr;
    if (variables && restore && !restore.getValue().empty()) {
      init.push_back(b.getStringAttr(restore.getValue().split(':').first));
      module->setAttr(kFreezeVariablesAttr, variables);
    }
  }

  auto set = [&](StringRef attr, ArrayRef<Attribute> values) {
    if (values.empty())
      module->removeAttr(attr);
    else
      module->setAttr(attr, b.getArrayAttr(values));
  };
  set(kFeedsAttr, feeds);
  // Shapes only matter when one was given.
  set(kFeedShapesAttr, llvm::any_of(shapes, llvm::IsaPred<tfg::ShapeAttr>)
                           ? ArrayRef<Attribute>(shapes)
                           : ArrayRef<Attribute>());
  set(kFetchesAttr, fetches);
  set(kTargetsAttr, targets);

  // --max-dim NAME[:PORT]:DIM=BOUND, matched against the feeds.
  module->removeAttr(kFeedMaxDimsAttr);
  if (!flags.maxDims.empty()) {
    SmallVector<Attribute> maxDims(feeds.size(),
                                   DenseI64ArrayAttr::get(context, {}));
    for (const std::string &flag : flags.maxDims) {
      auto [lhs, boundText] = StringRef(flag).split('=');
      auto [name, dimText] = lhs.rsplit(':');
      int64_t dim, bound;
      std::optional<TensorName> tensor = parseTensorName(name);
      if (!StringRef(flag).contains('=') || !lhs.contains(':') || !tensor ||
          dimText.getAsInteger(10, dim) || dim < 0 ||
          boundText.getAsInteger(10, bound) || bound < 1 ||
          bound >= (int64_t(1) << 40))
        return emitError(module.getLoc())
               << "--max-dim " << flag
               << ": expected NAME[:PORT]:DIM=BOUND, e.g. --max-dim x:1=512";
      auto match = llvm::find_if(feeds, [&](Attribute feed) {
        std::optional<TensorName> fed =
            parseTensorName(cast<StringAttr>(feed).getValue());
        return fed && fed->node == tensor->node && fed->port == tensor->port;
      });
      if (match == feeds.end())
        return emitError(module.getLoc())
               << "--max-dim " << flag << ": '" << name
               << "' is not a feed (the feeds: " << join(feeds) << ")";
      maxDims[match - feeds.begin()] =
          DenseI64ArrayAttr::get(context, {dim, bound});
    }
    module->setAttr(kFeedMaxDimsAttr, b.getArrayAttr(maxDims));
  }
  set(kInitAttr, init);
  // The once-run entries and chief queue runners: the flags', or else a
  // SyncReplicasOptimizer's as its session hook runs them.
  std::vector<std::string> localInit = flags.localInit,
                           chiefInit = flags.chiefInit,
                           chiefRunners = flags.chiefQueueRunners;
  if (localInit.empty() && chiefInit.empty() && chiefRunners.empty()) {
    FailureOr<std::optional<SyncReplicasParts>> sync =
        findSyncReplicas(module, /*addInitTokens=*/true);
    if (failed(sync))
      return failure();
    if (*sync) {
      localInit = {(*sync)->localInit};
      chiefInit = {(*sync)->chiefInit};
      if (!(*sync)->initTokens.empty())
        chiefInit.push_back((*sync)->initTokens);
      // Unless a --queue-runner runs its enqueue already.
      bool given = llvm::any_of(flags.queueRunners, [&](const std::string &r) {
        SmallVector<StringRef> nodes;
        StringRef(r).split(nodes, ',');
        return llvm::is_contained(nodes, (*sync)->chiefQueueRunner);
      });
      if (!given)
        chiefRunners = {(*sync)->chiefQueueRunner};
    }
  }
  for (auto [attr, names] : {std::make_pair(kLocalInitAttr, &localInit),
                             std::make_pair(kChiefInitAttr, &chiefInit)}) {
    SmallVector<Attribute> nodes;
    for (const std::string &name : *names)
      nodes.push_back(b.getStringAttr(name));
    set(attr, nodes);
  }
  auto runnerList = [&](const std::vector<std::string> &flagValues,
                        StringRef flag,
                        SmallVectorImpl<Attribute> &runners) -> LogicalResult {
    for (const std::string &runner : flagValues) {
      SmallVector<StringRef> names;
      StringRef(runner).split(names, ',');
      if (llvm::any_of(names, [](StringRef name) { return name.empty(); }))
        return emitError(module.getLoc())
               << flag << " '" << runner
               << "': expected ENQUEUE_NODE[,ENQUEUE_NODE...]";
      runners.push_back(b.getStringAttr(runner));
    }
    return success();
  };
  SmallVector<Attribute> runners, chiefRunnerAttrs;
  if (failed(runnerList(flags.queueRunners, "--queue-runner", runners)) ||
      failed(runnerList(chiefRunners, "--chief-queue-runner", chiefRunnerAttrs)))
    return failure();
  // Without --queue-runner flags, a MetaGraph's own queue runners.
  if (flags.queueRunners.empty())
    if (auto own = module->getAttrOfType<ArrayAttr>(kMetaGraphQueueRunnersAttr))
      runners.assign(own.begin(), own.end());
  set(kQueueRunnersAttr, runners);
  set(kChiefQueueRunnersAttr, chiefRunnerAttrs);

  // Placement's inputs, checked here so that a bad flag is named as one.
  SmallVector<Attribute> devices;
  for (const std::string &name : flags.devices) {
    std::string error;
    if (!DeviceName::parseTyped(name, error))
      return emitError(module.getLoc()) << "--devices: " << error;
    devices.push_back(b.getStringAttr(name));
  }
  set(kDevicesAttr, devices);
  if (flags.replicas > 1)
    module->setAttr(kReplicasAttr, b.getI64IntegerAttr(flags.replicas));
  else
    module->removeAttr(kReplicasAttr);
  if (!flags.placement.empty() && !parsePlacementStrategy(flags.placement))
    return emitError(module.getLoc()) << "--placement: '" << flags.placement
                                      << "' is not " << kPlacementStrategies;
  if (!flags.placement.empty())
    module->setAttr(kPlacementAttr, b.getStringAttr(flags.placement));
  if (flags.softPlacement)
    module->setAttr(kSoftPlacementAttr, b.getUnitAttr());
  if (!flags.costFile.empty()) {
    CostModel costs;
    std::string error;
    if (!costs.load(flags.costFile, error))
      return emitError(module.getLoc()) << "--cost-file " << error;
    module->setAttr(kCostFileAttr, b.getStringAttr(flags.costFile));
  }
  if (!flags.compressTransfers.empty() && flags.compressTransfers != "bf16" &&
      flags.compressTransfers != "none")
    return emitError(module.getLoc()) << "--compress-transfers: '"
                                      << flags.compressTransfers
                                      << "' is not bf16 or none";
  if (flags.noRecvScheduling)
    module->setAttr(kNoRecvSchedulingAttr, b.getUnitAttr());
  module->setAttr(kBatchTileAttr, b.getI64IntegerAttr(flags.batchTile));
  if (flags.microBatchBytes >= 0)
    module->setAttr(kMicroBatchBytesAttr, b.getI64IntegerAttr(flags.microBatchBytes));
  if (flags.compressTransfers == "bf16")
    module->setAttr(kCompressTransfersAttr, b.getStringAttr("bf16"));

  // A MetaGraph's partitioned variables: each part's node learns the full
  // variable's key and its slice, which checkpoints save it as.
  if (auto parts = module->getAttrOfType<DictionaryAttr>(kVariableSlicesAttr)) {
    module.walk([&](Operation *op) {
      if (!tfg::isNode(op) || !isVariableNode(op))
        return;
      if (auto part = parts.getAs<DictionaryAttr>(tfg::getNodeName(op))) {
        op->setAttr(kSliceOfAttr, part.get("key"));
        op->setAttr(kCheckpointSliceAttr, part.get("slice"));
      }
    });
    module->removeAttr(kVariableSlicesAttr);
  }
  return success();
}

} // namespace tfc
