// libcudart.so.13 as ptxsim ships it: no code of its own. It names the
// version node libcudart.so.13 (libcudart.map) that programs built with
// `nvcc -cudart shared` import their runtime functions from, and needs
// libcuda.so.1, which defines them under that node beside the driver API:
// one library, one state for both APIs (runtime/cudart/CMakeLists.txt).
