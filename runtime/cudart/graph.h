#pragma once

// CUDA graphs: nodes holding stream operations, joined by dependency edges.
// cudaGraph_t, cudaGraphNode_t and cudaGraphExec_t are pointers to these
// objects; every live one is registered in StreamOrderState so a handle can
// be checked before it is used.

#include <cuda_runtime_api.h>

#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "stream_operation.h"
#include "user_object.h"

namespace ptxsim::cudart {

class Graph;

struct GraphNode {
  Graph* graph = nullptr;
  StreamOperation operation;
  std::vector<GraphNode*> dependencies;  // in the order they were added
  std::vector<GraphNode*> dependents;
  uint64_t id = 0;  // creation order in its graph; a clone keeps it (cudaGraphNodeFindInClone)
  bool enabled = true;
};

class Graph {
 public:
  Graph();
  ~Graph();
  Graph(const Graph&) = delete;
  Graph& operator=(const Graph&) = delete;

  GraphNode* addNode(StreamOperation operation, const std::vector<GraphNode*>& dependencies);
  void removeNode(GraphNode* node);
  static void addEdge(GraphNode* from, GraphNode* to);
  // False when the edge does not exist.
  static bool removeEdge(GraphNode* from, GraphNode* to);

  const std::vector<std::unique_ptr<GraphNode>>& nodes() const { return nodes_; }
  GraphNode* nodeWithId(uint64_t id) const;
  std::vector<GraphNode*> rootNodes() const;

  // User object references the graph owns (released when it is destroyed).
  void retainUserObject(UserObject& object, unsigned count);
  // Releases up to `count` of its references; false when it holds none.
  bool releaseUserObject(UserObject& object, unsigned count);
  // cudaGraphExecUpdate: the references of `source` replace this graph's.
  void replaceUserObjects(const Graph& source);

  // A child graph moved into its parent's node (cudaGraphChildGraphOwnershipMove):
  // the node owns it, so the program may not destroy it.
  bool ownedByParent() const { return ownedByParent_; }
  void setOwnedByParent() { ownedByParent_ = true; }

  // A deep copy: same node ids, same edges, child graphs copied, user
  // object references retained again.
  std::unique_ptr<Graph> clone() const;
  // The nodes in an order that respects every edge, ties broken by creation
  // order (so every launch runs them in the same order); false on a cycle.
  bool topologicalOrder(std::vector<GraphNode*>& out) const;
  // Runs every node in topological order in `stream`; stops at the first error.
  cudaError_t run(cudaStream_t stream, std::unique_lock<std::mutex>& lock) const;

 private:
  void releaseAllUserObjects();

  std::vector<std::unique_ptr<GraphNode>> nodes_;
  uint64_t nextId_ = 0;
  std::map<UserObject*, unsigned> userObjects_;
  bool ownedByParent_ = false;
};

struct GraphExec {
  std::shared_ptr<Graph> graph;  // the instantiated copy (a launch runs it as a child graph)
  const Graph* source = nullptr;  // the graph it was instantiated from (node handles refer to it)
  unsigned long long flags = 0;
  // The exec's node for a node of its source graph; null if it is not one.
  GraphNode* nodeFor(const GraphNode* sourceNode) const;
};

}  // namespace ptxsim::cudart
