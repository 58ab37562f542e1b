#pragma once

// Dynamic parallelism (CDP2) program: each file a pattern users write,
// each checked against the host and run from main.cu.

#include <algorithm>
#include <cstdio>
#include <vector>

#include "../check.h"

int runQuicksort();  // quicksort.cu
int runTreeSum();    // tree_sum.cu
int runStreams();    // streams.cu
