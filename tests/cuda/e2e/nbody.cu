// One step of an all-pairs n-body simulation (softened gravity): bodies are
// float4 (x, y, z, mass), staged through shared memory a tile of blockDim.x
// bodies at a time; 1/sqrt(r^2 + eps^2) with rsqrtf. Writes the new
// velocities and positions (leapfrog with time step dt).

extern "C" __global__ void nbody_step(const float4* pos, const float4* vel, float4* newPos, float4* newVel,
                                      int n, float dt, float softening2) {
  extern __shared__ float4 tile[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 p = i < n ? pos[i] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  float ax = 0.0f, ay = 0.0f, az = 0.0f;
  for (int start = 0; start < n; start += blockDim.x) {
    int j = start + threadIdx.x;
    tile[threadIdx.x] = j < n ? pos[j] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    __syncthreads();
    int count = min((int)blockDim.x, n - start);
    for (int k = 0; k < count; ++k) {
      float4 q = tile[k];
      float dx = q.x - p.x, dy = q.y - p.y, dz = q.z - p.z;
      float r2 = dx * dx + dy * dy + dz * dz + softening2;
      float inv = rsqrtf(r2);
      float s = q.w * inv * inv * inv;
      ax += dx * s;
      ay += dy * s;
      az += dz * s;
    }
    __syncthreads();
  }
  if (i < n) {
    float4 v = vel[i];
    v.x += ax * dt;
    v.y += ay * dt;
    v.z += az * dt;
    newVel[i] = v;
    newPos[i] = make_float4(p.x + v.x * dt, p.y + v.y * dt, p.z + v.z * dt, p.w);
  }
}
