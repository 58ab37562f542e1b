// User objects (user_object.h): created and referenced by the program,
// and referenced by graphs.

#include "export.h"
#include "graph_handles.h"
#include "shim_state.h"

using namespace ptxsim::cudart;

namespace {

UserObjects& userObjects() { return shimState().streamOrder().userObjects(); }

}  // namespace

CUDART_EXPORT cudaError_t cudaUserObjectCreate(cudaUserObject_t* object, void* ptr, cudaHostFn_t destroy,
                                               unsigned int initialRefcount, unsigned int flags) {
  std::lock_guard lock(shimState().mutex());
  // cudaUserObjectNoDestructorSync is required: the only flag CUDA defines.
  if (object == nullptr || destroy == nullptr || initialRefcount == 0 ||
      flags != cudaUserObjectNoDestructorSync) {
    return result(cudaErrorInvalidValue);
  }
  *object = reinterpret_cast<cudaUserObject_t>(userObjects().create(ptr, destroy, initialRefcount));
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaUserObjectRetain(cudaUserObject_t object, unsigned int count) {
  std::lock_guard lock(shimState().mutex());
  UserObject* o = userObjects().find(object);
  if (o == nullptr || count == 0) return result(cudaErrorInvalidValue);
  userObjects().retain(*o, count);
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaUserObjectRelease(cudaUserObject_t object, unsigned int count) {
  std::lock_guard lock(shimState().mutex());
  UserObject* o = userObjects().find(object);
  if (o == nullptr || count == 0) return result(cudaErrorInvalidValue);
  userObjects().release(*o, count);
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaGraphRetainUserObject(cudaGraph_t graph, cudaUserObject_t object,
                                                    unsigned int count, unsigned int flags) {
  std::lock_guard lock(shimState().mutex());
  Graph* g = graphOf(graph);
  UserObject* o = userObjects().find(object);
  if (g == nullptr || o == nullptr || count == 0 || (flags & ~unsigned{cudaGraphUserObjectMove}) != 0) {
    return result(cudaErrorInvalidValue);
  }
  g->retainUserObject(*o, count);
  // A move hands over the caller's references instead of taking new ones.
  if ((flags & cudaGraphUserObjectMove) != 0) userObjects().release(*o, count);
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaGraphReleaseUserObject(cudaGraph_t graph, cudaUserObject_t object,
                                                     unsigned int count) {
  std::lock_guard lock(shimState().mutex());
  Graph* g = graphOf(graph);
  UserObject* o = userObjects().find(object);
  if (g == nullptr || o == nullptr || count == 0) return result(cudaErrorInvalidValue);
  if (!g->releaseUserObject(*o, count)) return result(cudaErrorInvalidValue);
  return cudaSuccess;
}
