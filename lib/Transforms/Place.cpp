//===- Place.cpp - choose a device for every node -------------------------===//
//
// White paper §3.2.1 and §4.3: placement works on colocation groups. A
// node's feasible devices are the available devices whose type has a
// kernel for it and that match its requested device (partial requests
// narrow the set: "/job:worker" allows every device of that job). Nodes
// that must share a device join one group by union-find: every edge
// carrying a reference or a resource handle (a stateful op sits with the
// variable it touches), across which a user's request that conflicts with
// the producer's gives way to it, and the `_class` attribute's "loc:@name"
// entries, whose node's request wins too; formGroups says when each rule
// gives way, as TensorFlow's placer does without soft placement. A
// group's feasible set is the intersection of its members'; when it is
// empty the pass fails with one error that names the group and the
// constraints that conflict, unless soft placement is on (then requests
// that cannot be met are relaxed, keeping kernel availability and, where
// possible, the requested device type).
//
// Then the paper's greedy simulation: nodes run in a simulated execution
// in the order they become ready; each goes to the feasible device where
// it would finish soonest, counting the transfers of its inputs from other
// devices (CostModel). The first node of a group decides for the group. A
// constant or argument with a single consumer and no request of its own
// joins its consumer's group (TensorFlow's placer does the same), so that
// it is not moved on its own.
//
// TF1 control flow is placed whole unless its nodes ask otherwise: a
// loop's nodes form one group, and so do a Switch, what its untaken branch
// leaves dead up to the Merges, and every control-flow node's neighbours
// (dead tensors do not cross devices). A loop whose nodes request devices
// that differ is model parallel: only each loop variable's Enter, Merge,
// Switch, NextIteration and Exits stay together, and tfc-partition cuts
// the loop (Partition.cpp).
//
// Over a cluster of several tasks, the step's inputs and outputs (_Arg,
// _Retval) are the chief's, where the program's flags give and take them.
//
//===----------------------------------------------------------------------===//

#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Dialect/Tfc/TfcAttributes.h"
#include "tfc/Support/PassCounters.h"
#include "tfc/Transforms/Frames.h"
#include "tfc/Transforms/GraphUtils.h"
#include "tfc/Transforms/OpTable.h"
#include "tfc/Transforms/Passes.h"
#include "tfc/Transforms/Placement.h"
#include "tfc/Transforms/Variables.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/ADT/Sequence.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"

#include <queue>

using namespace mlir;

namespace tfc {
#define GEN_PASS_DEF_PLACEPASS
#include "tfc/Transforms/Passes.h.inc"

namespace {

bool carriesState(Type type) {
  auto tensor = dyn_cast<TensorType>(type);
  return tensor && isa<tfg::RefType, tfg::ResourceType>(tensor.getElementType());
}

std::string quoted(Operation *node) {
  return "'" + tfg::getNodeName(node).str() + "'";
}

std::string deviceList(ArrayRef<DeviceName> devices) {
  std::string out;
  for (const DeviceName &device : devices)
    out += (out.empty() ? "" : ", ") + device.str();
  return out;
}

class Placer {
public:
  Placer(Block &body, const PlacementOptions &options)
      : body(body), options(options), devices(options.devices) {}

  LogicalResult run(double &makespan);

private:
  LogicalResult readRequests();
  void formGroups();
  /// TF1 control flow stays on one device with the nodes it exchanges
  /// values with, a loop with all its nodes, and a Switch with the nodes
  /// its untaken branch leaves dead: partitioning cuts none of it.
  void colocateControlFlow();
  /// Whether two of `nodes` request devices no one device meets.
  bool requestsDiffer(ArrayRef<Operation *> nodes);
  LogicalResult computeFeasibleSets();
  double simulate();
  void placeOnParameterServers();
  /// The chief's first device (task 0 of job "chief", else of job
  /// "worker"), if the devices have one.
  std::optional<unsigned> chiefDevice() const;
  /// Of `candidates`, from position `next` on, cyclically, the first that
  /// the group with feasible devices `set` may use; `next` moves past it.
  static std::optional<unsigned> nextInTurn(ArrayRef<unsigned> candidates,
                                            unsigned &next,
                                            ArrayRef<unsigned> set);

  Block &body;
  const PlacementOptions &options;
  ArrayRef<DeviceName> devices;
  SmallVector<Operation *> order;
  llvm::DenseMap<Operation *, DeviceName> requests;
  llvm::EquivalenceClasses<Operation *> groups;
  /// Feasible device indices per group leader.
  llvm::DenseMap<Operation *, SmallVector<unsigned>> feasible;
  /// The chosen device index per group leader.
  llvm::DenseMap<Operation *, unsigned> chosen;
};

LogicalResult Placer::readRequests() {
  for (Operation *node : order) {
    // An assigned device (from an earlier placement) binds like a request.
    StringRef text = tfg::getAssignedDevice(node);
    if (text.empty())
      text = tfg::getRequestedDevice(node);
    std::optional<DeviceName> request = DeviceName::parse(text);
    if (!request)
      return node->emitError() << "node " << quoted(node) << ": device '"
                               << text << "' is not a device name (e.g. "
                               << "/job:worker/task:0/device:GPU:0, /cpu:0)";
    requests[node] = *request;
  }
  // A variable another entry placed stays where it is.
  for (Operation *node : order)
    if (isVariableNode(node)) {
      auto it = options.variableDevices.find(variableId(node));
      if (it != options.variableDevices.end())
        requests[node] = it->second;
    }
  // Over a cluster, the feeds and fetches are the chief's (the task that
  // drives the steps: task 0 of job "chief", else of job "worker").
  std::optional<unsigned> chiefIndex = chiefDevice();
  std::optional<DeviceName> chief;
  if (chiefIndex)
    chief = devices[*chiefIndex];
  bool severalTasks = llvm::any_of(devices, [&](const DeviceName &device) {
    return !device.sameTask(devices.front());
  });
  if (chief && severalTasks)
    for (Operation *node : order) {
      OpKind kind = opKindOf(node);
      DeviceName &request = requests[node];
      if ((kind == OpKind::InternalArg || kind == OpKind::InternalRetval) &&
          !request.job && !request.task) {
        request.job = chief->job;
        request.replica = chief->replica;
        request.task = chief->task;
      }
    }
  return success();
}

void Placer::formGroups() {
  llvm::StringMap<Operation *> byName;
  for (Operation *node : order) {
    groups.insert(node);
    byName[tfg::getNodeName(node)] = node;
  }
  // Every edge carrying state: its ends share a device.
  llvm::DenseMap<Operation *, SmallVector<Operation *>> stateProducers;
  for (Operation *node : order)
    for (Value operand : tfg::getDataOperands(node))
      if (carriesState(operand.getType()))
        if (Operation *producer = operand.getDefiningOp())
          if (producer->getBlock() == &body) {
            groups.unionSets(node, producer);
            stateProducers[node].push_back(producer);
          }
  // The state's request wins over its user's, as in TensorFlow's placer
  // (SyncReplicasOptimizer assigns to a worker's local step under the
  // ps's device scope), where the state's is what its earlier users made
  // it: state that asks for nothing (a TensorArray placed by its first
  // write) takes the parts its users ask for. Until nothing changes, so
  // that it carries down chains of edges.
  auto give = [](DeviceName &to, const DeviceName &from) {
    std::string before = to.str();
    to = to.compatibleWith(from) ? to.completedWith(from) : from;
    return to.str() != before;
  };
  auto settleState = [&] {
    for (unsigned round = 0, changed = 1; changed && round < 8; ++round) {
      changed = 0;
      for (Operation *node : order)
        for (Operation *producer : stateProducers.lookup(node)) {
          DeviceName &state = requests[producer];
          changed |= state.compatibleWith(requests[node])
                         ? give(state, requests[node])
                         : give(requests[node], state);
        }
    }
  };
  settleState();
  // `_class` colocates a node with the nodes it names, whose request wins
  // over the node's own, as TensorFlow's placer does. Unless the node's
  // request is its state's, or the nodes it names disagree among
  // themselves (a gradient's stack may name both the loop counter and the
  // value it saves, which a model-parallel loop puts on different tasks):
  // then it joins only those that agree with it, and TensorFlow too
  // keeps it where its device says.
  for (Operation *node : order) {
    auto classes = node->getAttrOfType<ArrayAttr>("_class");
    if (!classes)
      continue;
    SmallVector<Operation *> targets;
    for (Attribute entry : classes)
      if (auto text = dyn_cast<StringAttr>(entry))
        if (text.getValue().starts_with("loc:@"))
          if (Operation *other = byName.lookup(text.getValue().drop_front(5)))
            targets.push_back(other);
    bool agree = llvm::all_of(targets, [&](Operation *target) {
      return requests[target].compatibleWith(requests[targets.front()]);
    });
    for (Operation *target : targets) {
      if (agree && !stateProducers.count(node))
        give(requests[node], requests[target]);
      if (requests[node].compatibleWith(requests[target]))
        groups.unionSets(node, target);
    }
  }
  settleState();
  colocateControlFlow();
}

bool Placer::requestsDiffer(ArrayRef<Operation *> nodes) {
  SmallVector<DeviceName> distinct;
  llvm::StringSet<> seen;
  for (Operation *node : nodes)
    if (seen.insert(requests[node].str()).second)
      distinct.push_back(requests[node]);
  for (size_t i = 0; i < distinct.size(); ++i)
    for (size_t j = i + 1; j < distinct.size(); ++j)
      if (!distinct[i].compatibleWith(distinct[j]))
        return true;
  return false;
}

void Placer::colocateControlFlow() {
  auto inBody = [&](Operation *node) {
    return node && node->getBlock() == &body && tfg::isNode(node);
  };
  // A loop's nodes, inner loops' included, run together each iteration.
  // (A graph whose frames do not fit the pattern is refused later, by
  // tfc-raise-frames, with the error; here it only places.)
  FailureOr<std::unique_ptr<FrameInfo>> frames = [&] {
    ScopedDiagnosticHandler quiet(body.getParentOp()->getContext(),
                                  [](Diagnostic &) { return success(); });
    return FrameInfo::analyze(body);
  }();
  // A loop whose nodes ask for devices that differ is model parallel
  // (white paper §4.4): it is cut like any graph, and tfc-partition gives
  // each device's part of it a loop of its own (Partition.cpp). Only each
  // loop variable's plumbing stays together; its other nodes go where they
  // ask.
  llvm::DenseSet<Operation *> spanningPlumbing;
  if (succeeded(frames))
    for (const std::unique_ptr<Frame> &frame : (*frames)->getFrames()) {
      if (!requestsDiffer(frame->allNodes)) {
        for (Operation *node : frame->allNodes)
          groups.unionSets(node, frame->allNodes.front());
        continue;
      }
      spanningPlumbing.insert(frame->loopCond);
      spanningPlumbing.insert(frame->enters.begin(), frame->enters.end());
      for (const LoopVariable &v : frame->variables) {
        SmallVector<Operation *> plumbing = {v.enter, v.merge, v.switchNode,
                                             v.nextIteration};
        llvm::append_range(plumbing, v.exits);
        for (Operation *node : plumbing) {
          groups.unionSets(node, v.merge);
          spanningPlumbing.insert(node);
        }
      }
    }
  for (Operation *node : order) {
    if (!isTf1ControlFlow(node) || spanningPlumbing.contains(node))
      continue;
    // Its neighbours, data and control.
    for (Value operand : node->getOperands())
      if (inBody(operand.getDefiningOp()))
        groups.unionSets(node, operand.getDefiningOp());
    for (Operation *user : node->getUsers())
      if (inBody(user))
        groups.unionSets(node, user);
    if (plainOpKindOf(node) != OpKind::Switch)
      continue;
    // What the untaken branch leaves dead, up to the Merges that end it.
    SmallVector<Operation *> work(node->getUsers());
    llvm::DenseSet<Operation *> seen;
    while (!work.empty()) {
      Operation *next = work.pop_back_val();
      if (!inBody(next) || !seen.insert(next).second)
        continue;
      groups.unionSets(node, next);
      if (plainOpKindOf(next) != OpKind::Merge)
        llvm::append_range(work, next->getUsers());
    }
  }
}

LogicalResult Placer::computeFeasibleSets() {
  // Members of each group, in graph order.
  llvm::MapVector<Operation *, SmallVector<Operation *>> members;
  for (Operation *node : order)
    members[groups.getLeaderValue(node)].push_back(node);

  auto feasibleFor = [&](ArrayRef<Operation *> nodes, bool withRequests) {
    SmallVector<unsigned> result;
    for (auto [index, device] : llvm::enumerate(devices))
      if (llvm::all_of(nodes, [&](Operation *node) {
            return hasKernel(*device.type, node) &&
                   (!withRequests || requests[node].matches(device));
          }))
        result.push_back(index);
    return result;
  };

  for (auto &[leader, nodes] : members) {
    SmallVector<unsigned> set = feasibleFor(nodes, /*withRequests=*/true);
    if (set.empty() && options.softPlacement) {
      // Keep kernels; meet what can be met of the requests, type first.
      set = feasibleFor(nodes, /*withRequests=*/false);
      auto wanted = llvm::make_filter_range(set, [&](unsigned index) {
        return llvm::all_of(nodes, [&](Operation *node) {
          const DeviceName &request = requests[node];
          return !request.type || request.type == devices[index].type;
        });
      });
      if (!wanted.empty())
        set = SmallVector<unsigned>(wanted.begin(), wanted.end());
    }
    if (set.empty()) {
      // Name every constraint: requests, then missing kernels per type.
      std::string constraints;
      auto add = [&](const std::string &text) {
        constraints += (constraints.empty() ? "" : "; ") + text;
      };
      for (Operation *node : nodes)
        if (!requests[node].str().empty())
          add(quoted(node) + " requests " + requests[node].str());
      llvm::StringSet<> types;
      for (const DeviceName &device : devices)
        types.insert(*device.type);
      for (auto &type : types)
        for (Operation *node : nodes)
          if (!hasKernel(type.getKey(), node))
            add(quoted(node) + " (" + tfg::getOpType(node).str() + ") has no " +
                type.getKey().str() + " kernel");
      InFlightDiagnostic diag = nodes.front()->emitError();
      if (nodes.size() == 1) {
        diag << "node " << quoted(nodes.front());
      } else {
        diag << "colocation group {";
        llvm::interleave(nodes, diag, [&](Operation *n) { diag << quoted(n); }, ", ");
        diag << "}";
      }
      diag << ": no available device satisfies " << constraints
           << " (devices: " << deviceList(devices) << ")";
      if (!options.softPlacement)
        diag << "; --soft-placement relaxes requests";
      return failure();
    }
    feasible[leader] = std::move(set);
  }

  // Generators (a Const or _Arg with one consumer and no request) follow
  // their consumer, when the consumer's group can hold them.
  for (Operation *node : order) {
    OpKind kind = opKindOf(node);
    if ((kind != OpKind::Const && kind != OpKind::InternalArg) ||
        !requests[node].str().empty() ||
        members[groups.getLeaderValue(node)].size() != 1)
      continue;
    Value output = tfg::getDataResults(node)[0];
    if (!output.hasOneUse() || !tfg::getControlToken(node).use_empty())
      continue;
    Operation *consumer = output.getUses().begin()->getOwner();
    if (!tfg::isNode(consumer) || consumer->getBlock() != &body)
      continue;
    Operation *leader = groups.getLeaderValue(consumer);
    SmallVector<unsigned> both;
    for (unsigned index : feasible[leader])
      if (llvm::is_contained(feasible[groups.getLeaderValue(node)], index))
        both.push_back(index);
    if (both.empty())
      continue;
    feasible.erase(groups.getLeaderValue(node));
    groups.unionSets(node, consumer);
    feasible[groups.getLeaderValue(node)] = std::move(both);
  }
  return success();
}

/// The simulated execution: a node of a placed group runs on the group's
/// device; the first node of any other group goes to the feasible device
/// where it would finish soonest, and decides for its group.
double Placer::simulate() {
  llvm::DenseMap<Operation *, unsigned> position, pending, deviceOf;
  llvm::DenseMap<Operation *, double> finish, readyAt;
  for (auto [i, node] : llvm::enumerate(order))
    position[node] = i;
  auto producersOf = [&](Operation *node) {
    SmallVector<std::pair<Operation *, Value>> producers;
    for (Value operand : node->getOperands())
      if (Operation *producer = operand.getDefiningOp())
        if (position.count(producer) && position[producer] < position[node])
          producers.push_back({producer, operand});
    return producers;
  };
  using Entry = std::pair<double, unsigned>; // (ready time, position)
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> ready;
  for (Operation *node : order) {
    pending[node] = producersOf(node).size();
    if (pending[node] == 0)
      ready.push({0.0, position[node]});
  }
  SmallVector<double> deviceFree(devices.size(), 0.0);
  double makespan = 0;
  while (!ready.empty()) {
    Operation *node = order[ready.top().second];
    ready.pop();
    Operation *leader = groups.getLeaderValue(node);
    SmallVector<unsigned> candidates;
    if (auto it = chosen.find(leader); it != chosen.end())
      candidates.push_back(it->second);
    else
      candidates = feasible[leader];
    auto producers = producersOf(node);
    double bestFinish = 0;
    unsigned best = candidates.front();
    for (unsigned device : candidates) {
      double start = deviceFree[device];
      for (auto [producer, value] : producers) {
        // A control edge crosses devices as a small dummy tensor.
        double arrival = finish[producer] +
                         options.costs.transferSeconds(
                             value, devices[deviceOf[producer]], devices[device]);
        start = std::max(start, arrival);
      }
      double end = start + options.costs.computeSeconds(node, devices[device]);
      if (device == candidates.front() || end < bestFinish) {
        bestFinish = end;
        best = device;
      }
    }
    chosen.try_emplace(leader, best);
    deviceOf[node] = best;
    finish[node] = bestFinish;
    if (options.costs.computeSeconds(node, devices[best]) > 0)
      deviceFree[best] = bestFinish;
    makespan = std::max(makespan, bestFinish);
    for (Value result : node->getResults())
      for (Operation *user : result.getUsers())
        if (position.count(user) && position[user] > position[node]) {
          readyAt[user] = std::max(readyAt[user], bestFinish);
          if (--pending[user] == 0)
            ready.push({readyAt[user], position[user]});
        }
  }
  return makespan;
}

std::optional<unsigned> Placer::chiefDevice() const {
  for (StringRef job : {"chief", "worker"})
    for (auto [index, device] : llvm::enumerate(devices))
      if (device.job == job && device.task == 0)
        return index;
  return std::nullopt;
}

std::optional<unsigned> Placer::nextInTurn(ArrayRef<unsigned> candidates,
                                           unsigned &next,
                                           ArrayRef<unsigned> set) {
  for (unsigned step = 0; step < candidates.size(); ++step) {
    unsigned position = (next + step) % candidates.size();
    if (llvm::is_contained(set, candidates[position])) {
      next = position + 1;
      return candidates[position];
    }
  }
  return std::nullopt;
}

void Placer::placeOnParameterServers() {
  // The devices of job "ps", one per task (its first), and the chief's.
  SmallVector<unsigned> servers;
  for (auto [index, device] : llvm::enumerate(devices))
    if (device.job == "ps" &&
        llvm::none_of(servers, [&](unsigned other) {
          return devices[other].sameTask(device);
        }))
      servers.push_back(index);
  std::optional<unsigned> chief = chiefDevice();
  // A group that holds a variable goes where its first variable goes.
  llvm::DenseSet<Operation *> holdingVariables;
  for (Operation *node : order)
    if (isVariableNode(node))
      holdingVariables.insert(groups.getLeaderValue(node));
  unsigned next = 0;
  for (Operation *node : order) {
    Operation *leader = groups.getLeaderValue(node);
    bool variable = isVariableNode(node);
    if (chosen.count(leader) || (holdingVariables.contains(leader) && !variable))
      continue;
    ArrayRef<unsigned> set = feasible[leader];
    std::optional<unsigned> pick;
    if (variable)
      pick = nextInTurn(servers, next, set);
    else if (chief && llvm::is_contained(set, *chief))
      pick = chief;
    chosen[leader] = pick ? *pick : set.front();
  }
}

LogicalResult Placer::run(double &makespan) {
  for (Operation *node : topologicalOrder(body))
    if (tfg::isNode(node))
      order.push_back(node);
  if (failed(readRequests()))
    return failure();
  formGroups();
  if (failed(computeFeasibleSets()))
    return failure();
  switch (options.strategy) {
  case PlacementStrategy::Cost:
    simulate();
    break;
  case PlacementStrategy::First:
    for (auto &[leader, set] : feasible)
      chosen[leader] = set.front();
    break;
  case PlacementStrategy::RoundRobin: {
    auto range = llvm::seq<unsigned>(0, devices.size());
    SmallVector<unsigned> all(range.begin(), range.end());
    unsigned next = 0;
    for (Operation *node : order) {
      Operation *leader = groups.getLeaderValue(node);
      if (chosen.count(leader))
        continue;
      // The next device in turn that the group may use.
      ArrayRef<unsigned> set = feasible[leader];
      std::optional<unsigned> pick = nextInTurn(all, next, set);
      chosen[leader] = pick ? *pick : set.front();
    }
    break;
  }
  case PlacementStrategy::ParameterServer:
    placeOnParameterServers();
    break;
  }
  makespan = simulate();
  Builder builder(body.getParentOp()->getContext());
  for (Operation *node : order)
    node->setAttr(tfg::kAssignedDeviceAttr,
                  builder.getStringAttr(
                      devices[chosen[groups.getLeaderValue(node)]].str()));
  return success();
}

} // namespace

std::optional<PlacementStrategy> parsePlacementStrategy(StringRef name) {
  return llvm::StringSwitch<std::optional<PlacementStrategy>>(name)
      .Case("cost", PlacementStrategy::Cost)
      .Case("first", PlacementStrategy::First)
      .Case("round-robin", PlacementStrategy::RoundRobin)
      .Case("parameter-server", PlacementStrategy::ParameterServer)
      .Default(std::nullopt);
}

LogicalResult placeNodes(Block &body, const PlacementOptions &options,
                         double &makespanSeconds) {
  return Placer(body, options).run(makespanSeconds);
}

namespace {

struct PlacePass : public impl::PlacePassBase<PlacePass> {
  using PlacePassBase::PlacePassBase;
  PassCounter numDevicesUsed{this, "devices-used", "devices that received nodes"};
  PassCounter makespanUs{this, "makespan-us",
                         "simulated step time of the placement (microseconds)"};

  void runOnOperation() override {
    numDevicesUsed = 0;
    makespanUs = 0;
    ModuleOp module = getOperation();
    PlacementOptions placement;
    // The module's attrs (set by `tfc compile`) unless the pass's options
    // say otherwise.
    SmallVector<std::string> names(devices.begin(), devices.end());
    if (names.empty())
      if (auto list = module->getAttrOfType<ArrayAttr>(kDevicesAttr))
        for (Attribute name : list)
          names.push_back(cast<StringAttr>(name).str());
    if (names.empty())
      names.push_back("/device:CPU:0");
    DeviceName defaults = localTask();
    defaults.id = 0;
    for (const std::string &name : names) {
      std::string error;
      std::optional<DeviceName> device = DeviceName::parseTyped(name, error);
      if (!device) {
        module.emitError() << "device " << error;
        return signalPassFailure();
      }
      DeviceName complete = device->completedWith(defaults);
      if (llvm::is_contained(placement.devices, complete)) {
        module.emitError() << "device " << complete.str() << " is listed twice";
        return signalPassFailure();
      }
      placement.devices.push_back(complete);
    }
    std::string strategyName = strategy;
    if (strategyName.empty())
      if (auto attr = module->getAttrOfType<StringAttr>(kPlacementAttr))
        strategyName = attr.str();
    std::optional<PlacementStrategy> parsed =
        parsePlacementStrategy(strategyName.empty() ? "cost" : strategyName);
    if (!parsed) {
      module.emitError() << "placement strategy '" << strategyName
                         << "' is not " << kPlacementStrategies;
      return signalPassFailure();
    }
    placement.strategy = *parsed;
    placement.softPlacement =
        softPlacement || module->hasAttr(kSoftPlacementAttr);
    std::string costs = costFile;
    if (costs.empty())
      if (auto attr = module->getAttrOfType<StringAttr>(kCostFileAttr))
        costs = attr.str();
    std::string error;
    if (!costs.empty() && !placement.costs.load(costs, error)) {
      module.emitError() << "cost file " << error;
      return signalPassFailure();
    }

    llvm::StringSet<> used;
    double total = 0;
    // The step first: the variables live where its placement puts them,
    // and the init entry (and any other graph) follows.
    SmallVector<tfg::GraphOp> graphs;
    for (bool step : {true, false})
      for (auto graph : module.getOps<tfg::GraphOp>()) {
        auto entry = graph->getAttrOfType<StringAttr>(kEntryAttr);
        if ((entry && entry.getValue() == "step") == step)
          graphs.push_back(graph);
      }
    for (tfg::GraphOp graph : graphs) {
      double makespan = 0;
      if (failed(placeNodes(graph.getBody(), placement, makespan)))
        return signalPassFailure();
      total += makespan;
      for (Operation &node : graph.getBody()) {
        if (!tfg::isNode(&node))
          continue;
        used.insert(tfg::getAssignedDevice(&node));
        if (isVariableNode(&node))
          placement.variableDevices.try_emplace(
              variableId(&node),
              *DeviceName::parse(tfg::getAssignedDevice(&node)));
      }
    }
    numDevicesUsed = used.size();
    makespanUs = uint64_t(total * 1e6 + 0.5);
  }
};

} // namespace
} // namespace tfc
