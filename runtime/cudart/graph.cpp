#include "graph.h"

#include <algorithm>
#include <map>
#include <queue>

#include "shim_state.h"
#include "stream_order.h"

namespace ptxsim::cudart {

Graph::Graph() { shimState().streamOrder().graphs().insert(this); }

Graph::~Graph() {
  releaseAllUserObjects();
  StreamOrderState& state = shimState().streamOrder();
  for (auto& node : nodes_) state.nodes().erase(node.get());
  state.graphs().erase(this);
}

void Graph::retainUserObject(UserObject& object, unsigned count) {
  shimState().streamOrder().userObjects().retain(object, count);
  userObjects_[&object] += count;
}

bool Graph::releaseUserObject(UserObject& object, unsigned count) {
  // Releasing more references than the graph holds releases those it
  // holds and succeeds, as on an H100 (tests/cuda/programs/graph_nodes).
  auto it = userObjects_.find(&object);
  if (it == userObjects_.end()) return false;
  unsigned released = std::min(count, it->second);
  if ((it->second -= released) == 0) userObjects_.erase(it);
  shimState().streamOrder().userObjects().release(object, released);
  return true;
}

void Graph::releaseAllUserObjects() {
  std::map<UserObject*, unsigned> held;
  held.swap(userObjects_);
  for (auto& [object, count] : held) shimState().streamOrder().userObjects().release(*object, count);
}

void Graph::replaceUserObjects(const Graph& source) {
  std::map<UserObject*, unsigned> old;
  old.swap(userObjects_);
  // The new references are taken before the old ones go, so an object both hold lives on.
  for (const auto& [object, count] : source.userObjects_) retainUserObject(*object, count);
  for (auto& [object, count] : old) shimState().streamOrder().userObjects().release(*object, count);
}

GraphNode* Graph::addNode(StreamOperation operation, const std::vector<GraphNode*>& dependencies) {
  auto node = std::make_unique<GraphNode>();
  node->graph = this;
  node->operation = std::move(operation);
  node->id = nextId_++;
  GraphNode* n = node.get();
  nodes_.push_back(std::move(node));
  shimState().streamOrder().nodes().insert(n);
  for (GraphNode* d : dependencies) addEdge(d, n);
  return n;
}

void Graph::removeNode(GraphNode* node) {
  for (GraphNode* d : std::vector<GraphNode*>(node->dependencies)) removeEdge(d, node);
  for (GraphNode* d : std::vector<GraphNode*>(node->dependents)) removeEdge(node, d);
  shimState().streamOrder().nodes().erase(node);
  nodes_.erase(std::find_if(nodes_.begin(), nodes_.end(), [&](const auto& n) { return n.get() == node; }));
}

void Graph::addEdge(GraphNode* from, GraphNode* to) {
  from->dependents.push_back(to);
  to->dependencies.push_back(from);
}

bool Graph::removeEdge(GraphNode* from, GraphNode* to) {
  auto out = std::find(from->dependents.begin(), from->dependents.end(), to);
  auto in = std::find(to->dependencies.begin(), to->dependencies.end(), from);
  if (out == from->dependents.end() || in == to->dependencies.end()) return false;
  from->dependents.erase(out);
  to->dependencies.erase(in);
  return true;
}

GraphNode* Graph::nodeWithId(uint64_t id) const {
  for (const auto& n : nodes_) {
    if (n->id == id) return n.get();
  }
  return nullptr;
}

std::vector<GraphNode*> Graph::rootNodes() const {
  std::vector<GraphNode*> roots;
  for (const auto& n : nodes_) {
    if (n->dependencies.empty()) roots.push_back(n.get());
  }
  return roots;
}

std::unique_ptr<Graph> Graph::clone() const {
  auto copy = std::make_unique<Graph>();
  std::map<const GraphNode*, GraphNode*> copies;
  for (const auto& n : nodes_) {
    GraphNode* c = copy->addNode(deepCopy(n->operation), {});
    c->id = n->id;
    c->enabled = n->enabled;
    copies[n.get()] = c;
  }
  copy->nextId_ = nextId_;
  for (const auto& [object, count] : userObjects_) copy->retainUserObject(*object, count);
  // Edges in the same order as in the original.
  for (const auto& n : nodes_) {
    for (GraphNode* d : n->dependencies) addEdge(copies[d], copies[n.get()]);
  }
  return copy;
}

bool Graph::topologicalOrder(std::vector<GraphNode*>& out) const {
  out.clear();
  std::map<const GraphNode*, size_t> waiting;
  // Ready nodes by creation order: the same graph always runs in the same order.
  auto later = [](const GraphNode* a, const GraphNode* b) { return a->id > b->id; };
  std::priority_queue<GraphNode*, std::vector<GraphNode*>, decltype(later)> ready(later);
  for (const auto& n : nodes_) {
    waiting[n.get()] = n->dependencies.size();
    if (n->dependencies.empty()) ready.push(n.get());
  }
  while (!ready.empty()) {
    GraphNode* n = ready.top();
    ready.pop();
    out.push_back(n);
    for (GraphNode* d : n->dependents) {
      if (--waiting[d] == 0) ready.push(d);
    }
  }
  return out.size() == nodes_.size();
}

cudaError_t Graph::run(cudaStream_t stream, std::unique_lock<std::mutex>& lock) const {
  std::vector<GraphNode*> order;
  if (!topologicalOrder(order)) return cudaErrorInvalidValue;
  for (GraphNode* n : order) {
    if (!n->enabled) continue;  // a disabled node is an empty node
    cudaError_t e = execute(n->operation, stream, lock);
    if (e != cudaSuccess) return e;
  }
  return cudaSuccess;
}

GraphNode* GraphExec::nodeFor(const GraphNode* sourceNode) const {
  if (sourceNode == nullptr || sourceNode->graph != source) return nullptr;
  return graph->nodeWithId(sourceNode->id);
}

}  // namespace ptxsim::cudart
