// An explicit finite-volume solver of the compressible Euler equations on an
// unstructured mesh, shaped like the CFD codes of GPU research suites: one
// thread a cell, four faces a cell with a neighbour index (or a wall or the
// far field), a step factor from the local speed of sound, a flux kernel
// full of products and sums, and a three-stage Runge-Kutta update, launched
// many times. It runs once in float and once in double and prints the final
// state of a sample of cells bit for bit (%a).
//
// Why it exists: nvcc leaves many plain `mul.f32`/`add.f32`/`sub.f32` (no
// rounding modifier) in such code beside its own `fma.rn.f32`, and ptxas
// contracts them further into fused multiply-adds. A simulator that rounds
// each one separately gets the near-zero momenta wrong in float; the double
// build shows the same in f64. The expected output is the H200's.
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "check.h"

namespace {

constexpr int kFaces = 4;
constexpr int kWall = -1;
constexpr int kFarField = -2;
constexpr int kVariables = 5;  // density, three momenta, energy
constexpr int kDensity = 0;
constexpr int kMomentum = 1;
constexpr int kEnergy = 4;

template <typename Real>
struct Vec3 {
  Real x, y, z;
};

template <typename Real>
struct FarField {
  Real density;
  Vec3<Real> momentum;
  Real energy;
  Vec3<Real> fluxMomentumX, fluxMomentumY, fluxMomentumZ, fluxEnergy;
};

template <typename Real>
__host__ __device__ Real gammaOf() {
  return Real(1.4);
}

template <typename Real>
__device__ Vec3<Real> velocityOf(Real density, Vec3<Real> momentum) {
  return {momentum.x / density, momentum.y / density, momentum.z / density};
}

template <typename Real>
__device__ Real squaredSpeed(Vec3<Real> v) {
  return v.x * v.x + v.y * v.y + v.z * v.z;
}

template <typename Real>
__device__ Real pressureOf(Real density, Real energy, Real speedSquared) {
  return (gammaOf<Real>() - Real(1)) * (energy - Real(0.5) * density * speedSquared);
}

template <typename Real>
__device__ Real soundSpeedOf(Real density, Real pressure) {
  return sqrt(gammaOf<Real>() * pressure / density);
}

// The flux of momentum and energy through unit faces along x, y and z.
template <typename Real>
__device__ void fluxContributions(Real density, Vec3<Real> momentum, Real energy, Real pressure,
                                  Vec3<Real> velocity, Vec3<Real>& fx, Vec3<Real>& fy, Vec3<Real>& fz,
                                  Vec3<Real>& fe) {
  fx = {velocity.x * momentum.x + pressure, velocity.x * momentum.y, velocity.x * momentum.z};
  fy = {fx.y, velocity.y * momentum.y + pressure, velocity.y * momentum.z};
  fz = {fx.z, fy.z, velocity.z * momentum.z + pressure};
  Real energyPlusPressure = energy + pressure;
  fe = {velocity.x * energyPlusPressure, velocity.y * energyPlusPressure, velocity.z * energyPlusPressure};
  (void)density;
}

template <typename Real>
struct CellState {
  Real density, energy, pressure, soundSpeed, speed;
  Vec3<Real> momentum, velocity, fx, fy, fz, fe;
};

template <typename Real>
__device__ CellState<Real> loadCell(const Real* variables, int cell, int cells) {
  CellState<Real> s;
  s.density = variables[cell + kDensity * cells];
  s.momentum = {variables[cell + (kMomentum + 0) * cells], variables[cell + (kMomentum + 1) * cells],
                variables[cell + (kMomentum + 2) * cells]};
  s.energy = variables[cell + kEnergy * cells];
  s.velocity = velocityOf(s.density, s.momentum);
  Real speedSquared = squaredSpeed(s.velocity);
  s.speed = sqrt(speedSquared);
  s.pressure = pressureOf(s.density, s.energy, speedSquared);
  s.soundSpeed = soundSpeedOf(s.density, s.pressure);
  fluxContributions(s.density, s.momentum, s.energy, s.pressure, s.velocity, s.fx, s.fy, s.fz, s.fe);
  return s;
}

template <typename Real>
__global__ void stepFactorKernel(const Real* variables, const Real* areas, Real* stepFactors, int cells) {
  int cell = blockIdx.x * blockDim.x + threadIdx.x;
  if (cell >= cells) return;
  Real density = variables[cell + kDensity * cells];
  Vec3<Real> momentum = {variables[cell + (kMomentum + 0) * cells], variables[cell + (kMomentum + 1) * cells],
                         variables[cell + (kMomentum + 2) * cells]};
  Real energy = variables[cell + kEnergy * cells];
  Vec3<Real> velocity = velocityOf(density, momentum);
  Real speedSquared = squaredSpeed(velocity);
  Real pressure = pressureOf(density, energy, speedSquared);
  Real soundSpeed = soundSpeedOf(density, pressure);
  stepFactors[cell] = Real(0.5) / (sqrt(areas[cell]) * (sqrt(speedSquared) + soundSpeed));
}

template <typename Real>
__global__ void fluxKernel(const int* neighbours, const Real* normals, const Real* variables, FarField<Real> far,
                           Real* fluxes, int cells) {
  const Real smoothing = Real(0.2);
  int cell = blockIdx.x * blockDim.x + threadIdx.x;
  if (cell >= cells) return;
  CellState<Real> me = loadCell(variables, cell, cells);
  Real fluxDensity = 0, fluxEnergy = 0;
  Vec3<Real> fluxMomentum = {0, 0, 0};
  for (int face = 0; face < kFaces; ++face) {
    int slot = cell + face * cells;
    int other = neighbours[slot];
    Vec3<Real> normal = {normals[slot + 0 * kFaces * cells], normals[slot + 1 * kFaces * cells],
                         normals[slot + 2 * kFaces * cells]};
    Real normalLength = sqrt(normal.x * normal.x + normal.y * normal.y + normal.z * normal.z);
    if (other >= 0) {
      CellState<Real> nb = loadCell(variables, other, cells);
      Real factor = -normalLength * smoothing * Real(0.5) * (me.speed + sqrt(squaredSpeed(nb.velocity)) +
                                                             me.soundSpeed + nb.soundSpeed);
      fluxDensity += factor * (me.density - nb.density);
      fluxEnergy += factor * (me.energy - nb.energy);
      fluxMomentum.x += factor * (me.momentum.x - nb.momentum.x);
      fluxMomentum.y += factor * (me.momentum.y - nb.momentum.y);
      fluxMomentum.z += factor * (me.momentum.z - nb.momentum.z);

      factor = Real(0.5) * normal.x;
      fluxDensity += factor * (nb.momentum.x + me.momentum.x);
      fluxEnergy += factor * (nb.fe.x + me.fe.x);
      fluxMomentum.x += factor * (nb.fx.x + me.fx.x);
      fluxMomentum.y += factor * (nb.fy.x + me.fy.x);
      fluxMomentum.z += factor * (nb.fz.x + me.fz.x);

      factor = Real(0.5) * normal.y;
      fluxDensity += factor * (nb.momentum.y + me.momentum.y);
      fluxEnergy += factor * (nb.fe.y + me.fe.y);
      fluxMomentum.x += factor * (nb.fx.y + me.fx.y);
      fluxMomentum.y += factor * (nb.fy.y + me.fy.y);
      fluxMomentum.z += factor * (nb.fz.y + me.fz.y);

      factor = Real(0.5) * normal.z;
      fluxDensity += factor * (nb.momentum.z + me.momentum.z);
      fluxEnergy += factor * (nb.fe.z + me.fe.z);
      fluxMomentum.x += factor * (nb.fx.z + me.fx.z);
      fluxMomentum.y += factor * (nb.fy.z + me.fy.z);
      fluxMomentum.z += factor * (nb.fz.z + me.fz.z);
    } else if (other == kWall) {
      fluxMomentum.x += normal.x * me.pressure;
      fluxMomentum.y += normal.y * me.pressure;
      fluxMomentum.z += normal.z * me.pressure;
    } else if (other == kFarField) {
      Real factor = Real(0.5) * normal.x;
      fluxDensity += factor * (far.momentum.x + me.momentum.x);
      fluxEnergy += factor * (far.fluxEnergy.x + me.fe.x);
      fluxMomentum.x += factor * (far.fluxMomentumX.x + me.fx.x);
      fluxMomentum.y += factor * (far.fluxMomentumY.x + me.fy.x);
      fluxMomentum.z += factor * (far.fluxMomentumZ.x + me.fz.x);

      factor = Real(0.5) * normal.y;
      fluxDensity += factor * (far.momentum.y + me.momentum.y);
      fluxEnergy += factor * (far.fluxEnergy.y + me.fe.y);
      fluxMomentum.x += factor * (far.fluxMomentumX.y + me.fx.y);
      fluxMomentum.y += factor * (far.fluxMomentumY.y + me.fy.y);
      fluxMomentum.z += factor * (far.fluxMomentumZ.y + me.fz.y);

      factor = Real(0.5) * normal.z;
      fluxDensity += factor * (far.momentum.z + me.momentum.z);
      fluxEnergy += factor * (far.fluxEnergy.z + me.fe.z);
      fluxMomentum.x += factor * (far.fluxMomentumX.z + me.fx.z);
      fluxMomentum.y += factor * (far.fluxMomentumY.z + me.fy.z);
      fluxMomentum.z += factor * (far.fluxMomentumZ.z + me.fz.z);
    }
  }
  fluxes[cell + kDensity * cells] = fluxDensity;
  fluxes[cell + (kMomentum + 0) * cells] = fluxMomentum.x;
  fluxes[cell + (kMomentum + 1) * cells] = fluxMomentum.y;
  fluxes[cell + (kMomentum + 2) * cells] = fluxMomentum.z;
  fluxes[cell + kEnergy * cells] = fluxEnergy;
}

template <typename Real>
__global__ void timeStepKernel(int stage, const Real* oldVariables, Real* variables, const Real* stepFactors,
                               const Real* fluxes, int cells) {
  int cell = blockIdx.x * blockDim.x + threadIdx.x;
  if (cell >= cells) return;
  Real factor = stepFactors[cell] / Real(3 + 1 - stage);
  for (int v = 0; v < kVariables; ++v) {
    variables[cell + v * cells] = oldVariables[cell + v * cells] + factor * fluxes[cell + v * cells];
  }
}

// A small integer hash, so that the mesh looks unstructured but is the same
// on every machine.
uint32_t mix(uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  x ^= x >> 16;
  return x;
}

double unitNoise(uint32_t seed) { return (mix(seed) & 0xffffff) / double(0x1000000) - 0.5; }

struct Mesh {
  int cells = 0;
  std::vector<int> neighbours;     // kFaces * cells
  std::vector<double> normals;     // 3 * kFaces * cells
  std::vector<double> areas;       // cells
};

// A 24 x 24 x 8 block of cells: x and y faces link to neighbours, the box's
// sides are walls (y) and far field (x), normals are tilted a little by the
// hash so that every product in the flux kernel matters.
Mesh makeMesh() {
  const int nx = 24, ny = 24, nz = 8;
  Mesh mesh;
  mesh.cells = nx * ny * nz;
  mesh.neighbours.resize(kFaces * mesh.cells);
  mesh.normals.resize(3 * kFaces * mesh.cells);
  mesh.areas.resize(mesh.cells);
  for (int z = 0; z < nz; ++z) {
    for (int y = 0; y < ny; ++y) {
      for (int x = 0; x < nx; ++x) {
        int cell = (z * ny + y) * nx + x;
        const int dx[kFaces] = {-1, 1, 0, 0}, dy[kFaces] = {0, 0, -1, 1};
        for (int face = 0; face < kFaces; ++face) {
          int ox = x + dx[face], oy = y + dy[face];
          int other;
          if (ox < 0 || ox >= nx) {
            other = kFarField;
          } else if (oy < 0 || oy >= ny) {
            other = kWall;
          } else {
            other = (z * ny + oy) * nx + ox;
          }
          int slot = cell + face * mesh.cells;
          mesh.neighbours[slot] = other;
          uint32_t seed = static_cast<uint32_t>(slot * 3);
          mesh.normals[slot + 0 * kFaces * mesh.cells] = dx[face] * 0.01 + 2.0e-5 * unitNoise(seed);
          mesh.normals[slot + 1 * kFaces * mesh.cells] = dy[face] * 0.01 + 2.0e-5 * unitNoise(seed + 1);
          mesh.normals[slot + 2 * kFaces * mesh.cells] = 1.0e-5 * unitNoise(seed + 2);
        }
        mesh.areas[cell] = 1.0e-4 * (1.0 + 0.1 * unitNoise(static_cast<uint32_t>(cell) + 0x9e3779b9U));
      }
    }
  }
  return mesh;
}

template <typename Real>
FarField<Real> farField() {
  const double angleOfAttack = 3.0 * 3.14159265358979323846 / 180.0, mach = 1.2;
  FarField<Real> f;
  f.density = Real(1.4);
  Real pressure = Real(1.0);
  Real speed = Real(mach * std::sqrt(1.4 * 1.0 / 1.4));
  f.momentum = {f.density * speed * Real(std::cos(angleOfAttack)),
                f.density * speed * Real(std::sin(angleOfAttack)), Real(0)};
  Real speedSquared = speed * speed;
  f.energy = f.density * (Real(0.5) * speedSquared) + pressure / Real(1.4 - 1.0);
  Vec3<Real> v = {f.momentum.x / f.density, f.momentum.y / f.density, f.momentum.z / f.density};
  Real pe = f.energy + pressure;
  f.fluxMomentumX = {v.x * f.momentum.x + pressure, v.x * f.momentum.y, v.x * f.momentum.z};
  f.fluxMomentumY = {f.fluxMomentumX.y, v.y * f.momentum.y + pressure, v.y * f.momentum.z};
  f.fluxMomentumZ = {f.fluxMomentumX.z, f.fluxMomentumY.z, v.z * f.momentum.z + pressure};
  f.fluxEnergy = {v.x * pe, v.y * pe, v.z * pe};
  return f;
}

template <typename Real>
const char* typeName();
template <>
const char* typeName<float>() {
  return "float";
}
template <>
const char* typeName<double>() {
  return "double";
}

template <typename Real>
int solve(const Mesh& mesh, int iterations) {
  const int cells = mesh.cells;
  FarField<Real> far = farField<Real>();
  std::vector<Real> normals(mesh.normals.begin(), mesh.normals.end());
  std::vector<Real> areas(mesh.areas.begin(), mesh.areas.end());
  std::vector<Real> variables(kVariables * cells);
  for (int cell = 0; cell < cells; ++cell) {
    // The free stream, with a density and energy bump in the middle.
    double bump = 0.05 * unitNoise(static_cast<uint32_t>(cell) * 7 + 1);
    variables[cell + kDensity * cells] = Real(far.density * (1.0 + bump));
    variables[cell + (kMomentum + 0) * cells] = far.momentum.x;
    variables[cell + (kMomentum + 1) * cells] = far.momentum.y;
    variables[cell + (kMomentum + 2) * cells] = far.momentum.z;
    variables[cell + kEnergy * cells] = Real(far.energy * (1.0 + 0.5 * bump));
  }
  int* dNeighbours = nullptr;
  Real *dNormals = nullptr, *dAreas = nullptr, *dVariables = nullptr, *dOld = nullptr, *dFactors = nullptr,
       *dFluxes = nullptr;
  CHECK(cudaMalloc(&dNeighbours, sizeof(int) * mesh.neighbours.size()));
  CHECK(cudaMalloc(&dNormals, sizeof(Real) * normals.size()));
  CHECK(cudaMalloc(&dAreas, sizeof(Real) * cells));
  CHECK(cudaMalloc(&dVariables, sizeof(Real) * variables.size()));
  CHECK(cudaMalloc(&dOld, sizeof(Real) * variables.size()));
  CHECK(cudaMalloc(&dFactors, sizeof(Real) * cells));
  CHECK(cudaMalloc(&dFluxes, sizeof(Real) * variables.size()));
  CHECK(cudaMemcpy(dNeighbours, mesh.neighbours.data(), sizeof(int) * mesh.neighbours.size(),
                   cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dNormals, normals.data(), sizeof(Real) * normals.size(), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dAreas, areas.data(), sizeof(Real) * cells, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dVariables, variables.data(), sizeof(Real) * variables.size(), cudaMemcpyHostToDevice));

  const int block = 128, grid = (cells + block - 1) / block;
  for (int iteration = 0; iteration < iterations; ++iteration) {
    CHECK(cudaMemcpy(dOld, dVariables, sizeof(Real) * variables.size(), cudaMemcpyDeviceToDevice));
    stepFactorKernel<Real><<<grid, block>>>(dVariables, dAreas, dFactors, cells);
    for (int stage = 0; stage < 3; ++stage) {
      fluxKernel<Real><<<grid, block>>>(dNeighbours, dNormals, dVariables, far, dFluxes, cells);
      timeStepKernel<Real><<<grid, block>>>(stage, dOld, dVariables, dFactors, dFluxes, cells);
    }
  }
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(variables.data(), dVariables, sizeof(Real) * variables.size(), cudaMemcpyDeviceToHost));

  // Every 37th cell: its density, momenta and energy, exactly.
  std::printf("%s: %d cells, %d iterations\n", typeName<Real>(), cells, iterations);
  for (int cell = 0; cell < cells; cell += 37) {
    std::printf("%s cell %4d:", typeName<Real>(), cell);
    for (int v = 0; v < kVariables; ++v) std::printf(" %a", static_cast<double>(variables[cell + v * cells]));
    std::printf("\n");
  }
  double sums[kVariables] = {};
  for (int v = 0; v < kVariables; ++v) {
    for (int cell = 0; cell < cells; ++cell) sums[v] += static_cast<double>(variables[cell + v * cells]);
  }
  std::printf("%s sums: %a %a %a %a %a\n", typeName<Real>(), sums[0], sums[1], sums[2], sums[3], sums[4]);
  CHECK(cudaFree(dNeighbours));
  CHECK(cudaFree(dNormals));
  CHECK(cudaFree(dAreas));
  CHECK(cudaFree(dVariables));
  CHECK(cudaFree(dOld));
  CHECK(cudaFree(dFactors));
  CHECK(cudaFree(dFluxes));
  return 0;
}

}  // namespace

int main() {
  Mesh mesh = makeMesh();
  const int iterations = 6;
  if (solve<float>(mesh, iterations) != 0) return 1;
  if (solve<double>(mesh, iterations) != 0) return 1;
  return 0;
}
