#!/usr/bin/env python3
"""Writes journey4_256rank_allreduce_synthetic.txt: the all_reduce_perf output a team gets from
`mpirun -np 256 ./all_reduce_perf -b 8 -e 8G -f 2 -g 1` on 32 DGX H100 with a 2:1 spine, in the
nccl-tests 2.13 format (columns as in nccl-tests #309 in this directory). SYNTHETIC: the times
are not from ClusterLens' model; they follow NCCL's own cost form (src/graph/tuning.cc: time =
latency + bytes / bandwidth per protocol, the fastest protocol chosen by size) with figures of
the kind published for such systems: a ~64 us small-message plateau (the issue's report), LL
capped near 8 GB/s, LL128 near 60 GB/s and Simple at ~180 GB/s busbw (half of the ~370 GB/s
two-node NDR figure, nccl-tests #290, for the 2:1 spine), with +-3% deterministic jitter."""
import math

n, nodes = 256, 32
f = 2 * (n - 1) / n
protos = [(64e-6, 8e9), (95e-6, 60e9), (180e-6, 180e9)]  # (latency s, busbw B/s)
lines = ["# nThread 1 nGpus 1 minBytes 8 maxBytes 8589934592 step: 2(factor) warmup iters: 5 "
         "iters: 20 agg iters: 1 validation: 1 graph: 0", "#", "# Using devices"]
for r in range(n):
    lines.append("#  Rank %3d Group  0 Pid %6d on   dgx-%02d device  %d [0x%02x] NVIDIA H100 80GB HBM3"
                 % (r, 40000 + r, r // 8, r % 8, 0x18 + 16 * (r % 8)))
lines += ["#",
          "#                                                              out-of-place                       in-place          ",
          "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong",
          "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)       "]
size, k = 8, 0
while size <= 8 * 2**30:
    t = min(lat + f * size / bw for lat, bw in protos)
    t *= 1 + 0.03 * math.sin(1.7 * k)
    t_in = t * (1 + 0.01 * math.cos(2.3 * k))
    us, us_in = t * 1e6, t_in * 1e6
    alg, alg_in = size / t / 1e9, size / t_in / 1e9
    lines.append("%12d  %12d     float     sum      -1  %7.1f  %6.2f  %6.2f      0  %7.1f  %6.2f  %6.2f      0"
                 % (size, size // 4, us, alg, alg * f, us_in, alg_in, alg_in * f))
    size *= 2
    k += 1
lines += ["# Out of bounds values : 0 OK", "# Avg bus bandwidth    : 61.5237", "#"]
open("journey4_256rank_allreduce_synthetic.txt", "w").write("\n".join(lines) + "\n")
