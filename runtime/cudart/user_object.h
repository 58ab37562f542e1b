#pragma once

// User objects (cudaUserObjectCreate): a program's resource with a
// destructor callback and a reference count. References are held by the
// program and by graphs (cudaGraphRetainUserObject); a graph's clones, its
// executable graphs and child graph nodes holding copies of it hold
// references of their own. The destructor runs when the last reference
// goes; with all work complete when issued, no launched graph can still
// need the object then.

#include <cuda_runtime_api.h>

#include <map>
#include <memory>

namespace ptxsim::cudart {

struct UserObject {
  void* pointer = nullptr;
  cudaHostFn_t destroy = nullptr;
  unsigned references = 0;
};

class UserObjects {
 public:
  UserObject* create(void* pointer, cudaHostFn_t destroy, unsigned references);
  // The live object a handle names; null if none.
  UserObject* find(cudaUserObject_t handle);
  void retain(UserObject& object, unsigned count) { object.references += count; }
  // Drops `count` references (at most those there are); the last one runs
  // the destructor and ends the object.
  void release(UserObject& object, unsigned count);

 private:
  std::map<UserObject*, std::unique_ptr<UserObject>> objects_;
};

}  // namespace ptxsim::cudart
