// Part of the rdc program (see main.cu): the __device__ and __constant__
// data the other files use through extern declarations, and a device
// function with a printf string of its own.

#include <cstdio>

__device__ int counter = 1000;
__constant__ int coeffs[4] = {5, -6, 7, -8};
__device__ float table[4] = {0.5f, 1.25f, 2.0f, -3.0f};
__device__ float* second = &table[1];  // an initializer with another variable's address

__device__ float scaled(float x) { return x * table[static_cast<int>(x) & 3] + *second; }

__device__ void tables_hello(void) { printf("tables.cu: table[3] = %.2f, *second = %.2f\n", table[3], *second); }
