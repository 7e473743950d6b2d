//===- Frames.cpp - TF1 loop frames raised to structured loops ------------===//
//
// Frames are found as TensorFlow's executor defines them: an Enter starts
// a child frame (named by frame_name) of its input's frame; an Exit's
// consumers are in the parent of the Exit's frame; every other node is in
// the frame of its inputs (values of the graph itself may be read from
// any frame: they are computed before the loop). Then each frame must be
// the loop tf.while_loop builds (see Frames.h), or the error names the
// frame and the node that differs.
//
//===----------------------------------------------------------------------===//

#include "tfc/Transforms/Frames.h"
#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Transforms/GraphUtils.h"
#include "tfc/Transforms/OpTable.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringExtras.h"

#include <map>
#include <queue>

using namespace mlir;

namespace tfc {
namespace {

/// Whether `node` is a `kind` node or its ref variant.
bool isType(Operation *node, OpKind kind) {
  return plainOpKindOf(node) == kind;
}

InFlightDiagnostic frameError(Operation *node, const Frame *frame) {
  return node->emitError() << "frame '" << frame->name << "': node '"
                           << tfg::getNodeName(node) << "' ("
                           << tfg::getOpType(node) << ") ";
}

} // namespace

bool isLoopPlumbing(Operation *node) {
  return tfg::isNode(node) &&
         (isType(node, OpKind::Enter) || isType(node, OpKind::Exit) ||
          isType(node, OpKind::NextIteration) ||
          opKindOf(node) == OpKind::LoopCond);
}

StringRef LoopBuilder::opTypeOf(Role role) {
  switch (role) {
  case Role::Enter:
  case Role::ConstantEnter:
    return "Enter";
  case Role::Merge:
    return "Merge";
  case Role::LoopCond:
    return "LoopCond";
  case Role::Switch:
    return "Switch";
  case Role::Identity:
    return "Identity";
  case Role::NextIteration:
    return "NextIteration";
  case Role::Exit:
    return "Exit";
  }
  llvm_unreachable("a role of a loop's node");
}

LoopBuilder::LoopBuilder(OpBuilder &builder, Operation *like, StringRef frame,
                         int64_t parallelIterations, Namer name)
    : builder(builder), like(like), frame(frame.str()),
      parallelIterations(parallelIterations), name(std::move(name)) {}

Operation *LoopBuilder::create(Role role, unsigned k, TypeRange types,
                               ValueRange data, ValueRange control,
                               ArrayRef<NamedAttribute> attrs) {
  // Every node of the loop but the LoopCond passes values of one type on:
  // its T.
  SmallVector<NamedAttribute> all;
  if (role != Role::LoopCond)
    all.push_back(builder.getNamedAttr(
        "T", TypeAttr::get(getElementTypeOrSelf(data.front().getType()))));
  llvm::append_range(all, attrs);
  return createNodeLike(builder, like, opTypeOf(role), name(role, k), types,
                        data, control, all);
}

Value LoopBuilder::enter(Role role, unsigned k, Value value,
                         ValueRange control) {
  return create(
             role, k, value.getType(), value, control,
             {builder.getNamedAttr("frame_name", builder.getStringAttr(frame)),
              builder.getNamedAttr(
                  "is_constant",
                  builder.getBoolAttr(role == Role::ConstantEnter)),
              builder.getNamedAttr(
                  "parallel_iterations",
                  builder.getI64IntegerAttr(parallelIterations))})
      ->getResult(0);
}

SmallVector<Value> LoopBuilder::start(ValueRange initial, ValueRange control) {
  SmallVector<Value> head;
  for (auto [k, value] : llvm::enumerate(initial)) {
    Value entered = enter(Role::Enter, k, value, control);
    // The second input, the NextIteration, is set when the loop closes.
    merges.push_back(create(
        Role::Merge, k,
        {value.getType(), RankedTensorType::get({}, builder.getI32Type())},
        {entered, entered}, {},
        {builder.getNamedAttr("N", builder.getI64IntegerAttr(2))}));
    head.push_back(merges.back()->getResult(0));
  }
  exits.assign(merges.size(), Value());
  return head;
}

Value LoopBuilder::enterConstant(Value value) {
  return enter(Role::ConstantEnter, ++constants, value, {});
}

SmallVector<Value> LoopBuilder::decide(Value predicate) {
  Value condition =
      create(Role::LoopCond, 0, RankedTensorType::get({}, builder.getI1Type()),
             predicate, {})
          ->getResult(0);
  SmallVector<Value> inBody;
  for (auto [k, merge] : llvm::enumerate(merges)) {
    Value value = merge->getResult(0);
    switches.push_back(create(Role::Switch, k,
                              {value.getType(), value.getType()},
                              {value, condition}, {}));
    inBody.push_back(create(Role::Identity, k, value.getType(),
                            switches.back()->getResult(1), {})
                         ->getResult(0));
  }
  return inBody;
}

void LoopBuilder::close(ValueRange next, ValueRange control) {
  assert(next.size() == merges.size() && "a next value per variable");
  for (auto [k, value, merge] : llvm::enumerate(next, merges))
    merge->setOperand(
        1, create(Role::NextIteration, k, value.getType(), value, control)
               ->getResult(0));
}

Value LoopBuilder::exit(unsigned k) {
  assert(k < switches.size() && "a variable of a decided loop");
  Value &out = exits[k];
  if (!out) {
    Value last = switches[k]->getResult(0);
    out = create(Role::Exit, k, last.getType(), last, {})->getResult(0);
  }
  return out;
}

std::string Frame::path() const {
  return parent ? parent->path() + ";" + name : name;
}

SmallVector<Operation *> FrameInfo::flatten() const {
  SmallVector<Operation *> order;
  std::function<void(ArrayRef<FrameItem>)> walk = [&](ArrayRef<FrameItem> items) {
    for (FrameItem item : items) {
      if (auto *node = dyn_cast<Operation *>(item)) {
        order.push_back(node);
        continue;
      }
      Frame *frame = cast<Frame *>(item);
      llvm::append_range(order, frame->enters);
      for (const LoopVariable &v : frame->variables)
        order.push_back(v.merge);
      walk(frame->condition);
      order.push_back(frame->loopCond);
      llvm::append_range(order, frame->predicateSends);
      for (const LoopVariable &v : frame->variables)
        order.push_back(v.switchNode);
      walk(frame->body);
      for (const LoopVariable &v : frame->variables)
        order.push_back(v.nextIteration);
      for (const LoopVariable &v : frame->variables)
        llvm::append_range(order, v.exits);
    }
  };
  walk(top);
  return order;
}

FailureOr<std::unique_ptr<FrameInfo>> FrameInfo::analyze(Block &body) {
  auto info = std::make_unique<FrameInfo>();
  SmallVector<Operation *> schedule;
  for (Operation *op : topologicalOrder(body))
    if (isNodeOrGroup(op))
      schedule.push_back(op);
  llvm::DenseMap<Operation *, unsigned> position;
  for (Operation *node : schedule)
    position[node] = position.size();

  // Each node's frame. Children are found by (parent, name).
  std::map<std::pair<Frame *, std::string>, Frame *> children;
  auto childOf = [&](Frame *parent, StringRef name) {
    Frame *&child = children[{parent, name.str()}];
    if (!child) {
      info->frames.push_back(std::make_unique<Frame>());
      child = info->frames.back().get();
      child->name = name.str();
      child->parent = parent;
    }
    return child;
  };
  // The frame a producer's value is in for its consumers.
  auto valueFrame = [&](Operation *producer) -> Frame * {
    Frame *frame = info->frameOfNode.lookup(producer);
    return frame && isType(producer, OpKind::Exit) ? frame->parent : frame;
  };
  for (Operation *node : schedule) {
    if (isType(node, OpKind::Enter)) {
      auto name = node->getAttrOfType<StringAttr>("frame_name");
      Operation *producer = tfg::getDataOperands(node)[0].getDefiningOp();
      if (!name || name.getValue().empty())
        return node->emitError() << "node '" << tfg::getNodeName(node)
                                 << "' (Enter) has no frame_name",
               failure();
      info->frameOfNode[node] = childOf(producer ? valueFrame(producer) : nullptr,
                                        name.getValue());
      continue;
    }
    Frame *frame = nullptr;
    for (Value operand : node->getOperands()) {
      Operation *producer = operand.getDefiningOp();
      if (!producer || !isNodeOrGroup(producer) ||
          isType(producer, OpKind::NextIteration))
        continue;
      Frame *from = valueFrame(producer);
      if (!from || from == frame)
        continue;
      if (frame)
        return node->emitError()
                   << "node '" << tfg::getNodeName(node)
                   << "' takes inputs from two loop frames, '" << frame->name
                   << "' and '" << from->name << "'",
               failure();
      frame = from;
    }
    if (frame)
      info->frameOfNode[node] = frame;
  }
  if (info->frames.empty()) {
    for (Operation *node : schedule)
      info->top.push_back(node);
    return info;
  }
  // A value made outside a loop reaches it through an Enter, which holds it
  // for every iteration; a node in the loop reading it directly would read
  // a buffer the memory plan may reuse meanwhile. Only a constant, which
  // lives in no buffer of the step, may be read so.
  for (Operation *node : schedule) {
    Frame *frame = info->frameOfNode.lookup(node);
    if (!frame || isType(node, OpKind::Enter))
      continue;
    for (Value operand : tfg::getDataOperands(node)) {
      Operation *producer = operand.getDefiningOp();
      if (!producer || !isNodeOrGroup(producer) ||
          opKindOf(producer) == OpKind::Const)
        continue;
      Frame *from = valueFrame(producer);
      bool outer = !from;
      for (Frame *f = frame->parent; f && !outer; f = f->parent)
        outer = f == from;
      if (outer)
        return frameError(node, frame)
                   << "reads '" << tfg::getNodeName(producer)
                   << "', made outside the loop, without an Enter",
               failure();
    }
  }

  // Members, direct and nested.
  llvm::DenseMap<Frame *, SmallVector<Operation *>> members;
  for (Operation *node : schedule) {
    Frame *frame = info->frameOfNode.lookup(node);
    if (frame)
      members[frame].push_back(node);
    for (Frame *f = frame; f; f = f->parent)
      f->allNodes.push_back(node);
    if (frame && opKindOf(node) == OpKind::InternalRetval)
      return frameError(node, frame) << "is fetched from inside the loop; "
                                        "fetch the loop's Exit instead",
             failure();
  }

  // The item a node is at the level of `level` (null: the graph): the node
  // itself, the inner frame holding it, or null when it is outside.
  auto itemAt = [&](Operation *node, Frame *level) -> FrameItem {
    Frame *frame = info->frameOfNode.lookup(node);
    if (frame == level)
      return node;
    for (Frame *f = frame; f; f = f->parent)
      if (f->parent == level)
        return f;
    return FrameItem();
  };
  // Orders items (nodes and inner frames of `level`) by their dependencies
  // among themselves, earliest first.
  auto order = [&](ArrayRef<FrameItem> items, Frame *level) {
    auto first = [&](FrameItem item) {
      if (auto *node = dyn_cast<Operation *>(item))
        return position[node];
      return position[cast<Frame *>(item)->allNodes.front()];
    };
    llvm::DenseSet<void *> inSet;
    for (FrameItem item : items)
      inSet.insert(item.getOpaqueValue());
    llvm::DenseMap<void *, SmallVector<FrameItem>> users;
    llvm::DenseMap<void *, unsigned> pending;
    for (FrameItem item : items) {
      SmallVector<Operation *> nodes;
      if (auto *node = dyn_cast<Operation *>(item))
        nodes.push_back(node);
      else
        nodes = cast<Frame *>(item)->allNodes;
      llvm::DenseSet<void *> deps;
      for (Operation *node : nodes)
        for (Value operand : node->getOperands()) {
          Operation *producer = operand.getDefiningOp();
          if (!producer || !isNodeOrGroup(producer) ||
              (isType(producer, OpKind::NextIteration) &&
               isType(node, OpKind::Merge)))
            continue;
          FrameItem dep = itemAt(producer, level);
          if (dep && dep != item && inSet.contains(dep.getOpaqueValue()) &&
              deps.insert(dep.getOpaqueValue()).second)
            users[dep.getOpaqueValue()].push_back(item);
        }
      pending[item.getOpaqueValue()] = deps.size();
    }
    auto later = [&](FrameItem a, FrameItem b) { return first(a) > first(b); };
    std::priority_queue<FrameItem, std::vector<FrameItem>, decltype(later)>
        ready(later);
    for (FrameItem item : items)
      if (pending[item.getOpaqueValue()] == 0)
        ready.push(item);
    SmallVector<FrameItem> result;
    while (!ready.empty()) {
      FrameItem item = ready.top();
      ready.pop();
      result.push_back(item);
      for (FrameItem user : users[item.getOpaqueValue()])
        if (--pending[user.getOpaqueValue()] == 0)
          ready.push(user);
    }
    return result;
  };

  for (const std::unique_ptr<Frame> &owned : info->frames) {
    Frame *frame = owned.get();
    SmallVector<Operation *> &direct = members[frame];
    llvm::DenseSet<Operation *> structural;
    for (Operation *node : direct) {
      if (isType(node, OpKind::Enter)) {
        frame->enters.push_back(node);
        structural.insert(node);
      } else if (opKindOf(node) == OpKind::LoopCond) {
        if (frame->loopCond)
          return frameError(node, frame) << "is a second LoopCond", failure();
        frame->loopCond = node;
        structural.insert(node);
      }
    }
    if (!frame->loopCond)
      return frameError(frame->enters.front(), frame)
                 << "enters a frame without a LoopCond",
             failure();
    for (Operation *node : direct)
      if (opKindOf(node) == OpKind::InternalSend &&
          tfg::getDataOperands(node)[0] ==
              tfg::getDataResults(frame->loopCond)[0]) {
        frame->predicateSends.push_back(node);
        structural.insert(node);
      }
    // Loop variables, from their Merge.
    for (Operation *node : direct) {
      if (!isType(node, OpKind::Merge))
        continue;
      LoopVariable v;
      bool loopMerge = false;
      for (Value operand : tfg::getDataOperands(node)) {
        Operation *producer = operand.getDefiningOp();
        if (producer && isType(producer, OpKind::NextIteration)) {
          v.nextIteration = producer;
          loopMerge = true;
        } else if (producer && isType(producer, OpKind::Enter) &&
                   info->frameOfNode.lookup(producer) == frame) {
          v.enter = producer;
          loopMerge = true;
        }
      }
      if (!loopMerge)
        continue; // A conditional's Merge inside the loop.
      if (tfg::getDataOperands(node).size() != 2 || !v.enter || !v.nextIteration)
        return frameError(node, frame)
                   << "is a loop Merge that does not join one Enter and one "
                      "NextIteration",
               failure();
      v.merge = node;
      Value value = tfg::getDataResults(node)[0];
      for (Operation *user : value.getUsers())
        if (isNodeOrGroup(user) && isType(user, OpKind::Switch) &&
            user->getOperand(1) == tfg::getDataResults(frame->loopCond)[0]) {
          if (v.switchNode)
            return frameError(user, frame)
                       << "is a second Switch of a loop variable", failure();
          v.switchNode = user;
        }
      if (!v.switchNode)
        return frameError(node, frame)
                   << "is a loop variable no Switch on the LoopCond reads",
               failure();
      // The Exits read the Switch's false output, directly or through
      // Identities (TensorFlow's gradients group it with control edges
      // first); those Identities alias the variable and do nothing.
      SmallVector<Operation *> exitPath = {v.switchNode};
      for (size_t k = 0; k < exitPath.size(); ++k) {
        Value value = tfg::getDataResults(exitPath[k])[0];
        for (Operation *user : value.getUsers()) {
          if (!isNodeOrGroup(user))
            continue;
          if (isType(user, OpKind::Identity)) {
            exitPath.push_back(user);
            continue;
          }
          if (!isType(user, OpKind::Exit))
            return frameError(user, frame)
                       << "reads a loop variable after the loop ends without "
                          "an Exit",
                   failure();
          v.exits.push_back(user);
          structural.insert(user);
        }
      }
      structural.insert(v.merge);
      structural.insert(v.switchNode);
      structural.insert(v.nextIteration);
      frame->variables.push_back(v);
    }
    if (frame->variables.empty())
      return frameError(frame->loopCond, frame) << "ends a loop without "
                                                   "variables", failure();
    for (Operation *enter : frame->enters) {
      auto constant = enter->getAttrOfType<BoolAttr>("is_constant");
      bool isVariable = llvm::any_of(frame->variables, [&](const LoopVariable &v) {
        return v.enter == enter;
      });
      if (!isVariable && !(constant && constant.getValue()))
        return frameError(enter, frame)
                   << "is neither constant nor a loop variable's Enter",
               failure();
    }
    // (A Switch that is not a loop variable's belongs to a conditional.)
    for (Operation *node : direct)
      if ((isType(node, OpKind::NextIteration) || isType(node, OpKind::Exit)) &&
          !structural.contains(node))
        return frameError(node, frame)
                   << "is not part of a loop variable", failure();

    // The condition: what LoopCond needs, inside this frame.
    llvm::DenseSet<Operation *> condition;
    SmallVector<Operation *> worklist = {frame->loopCond};
    while (!worklist.empty()) {
      Operation *node = worklist.pop_back_val();
      for (Value operand : node->getOperands()) {
        Operation *producer = operand.getDefiningOp();
        if (!producer || !isNodeOrGroup(producer) ||
            structural.contains(producer))
          continue;
        Frame *from = info->frameOfNode.lookup(producer);
        if (from != frame) {
          if (from && from->parent == frame)
            return frameError(producer, frame)
                       << "is an inner loop the condition depends on",
                   failure();
          continue;
        }
        if (condition.insert(producer).second)
          worklist.push_back(producer);
      }
    }
    SmallVector<FrameItem> conditionItems, bodyItems;
    for (Operation *node : direct) {
      if (structural.contains(node))
        continue;
      (condition.contains(node) ? conditionItems : bodyItems).push_back(node);
    }
    for (const std::unique_ptr<Frame> &inner : info->frames)
      if (inner->parent == frame)
        bodyItems.push_back(inner.get());
    frame->condition = order(conditionItems, frame);
    frame->body = order(bodyItems, frame);
  }

  SmallVector<FrameItem> topItems;
  for (Operation *node : schedule)
    if (!info->frameOfNode.lookup(node))
      topItems.push_back(node);
  for (const std::unique_ptr<Frame> &frame : info->frames)
    if (!frame->parent)
      topItems.push_back(frame.get());
  info->top = order(topItems, nullptr);
  if (info->flatten().size() != schedule.size())
    return schedule.front()->emitError()
               << "the loop frames do not order: a cycle through frames",
           failure();
  return info;
}

} // namespace tfc
