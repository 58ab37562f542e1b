#include "user_object.h"

#include <algorithm>

namespace ptxsim::cudart {

UserObject* UserObjects::create(void* pointer, cudaHostFn_t destroy, unsigned references) {
  auto object = std::make_unique<UserObject>(UserObject{pointer, destroy, references});
  UserObject* o = object.get();
  objects_[o] = std::move(object);
  return o;
}

UserObject* UserObjects::find(cudaUserObject_t handle) {
  auto it = objects_.find(reinterpret_cast<UserObject*>(handle));
  return it == objects_.end() ? nullptr : it->first;
}

void UserObjects::release(UserObject& object, unsigned count) {
  object.references -= std::min(count, object.references);
  if (object.references != 0) return;
  // Forgotten before the destructor runs, so the handle is dead inside it.
  std::unique_ptr<UserObject> gone = std::move(objects_[&object]);
  objects_.erase(&object);
  gone->destroy(gone->pointer);
}

}  // namespace ptxsim::cudart
