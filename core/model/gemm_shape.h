#pragma once
// GEMM shape efficiency shared by the training and serving models.

#include <cmath>

namespace cl::model {

/// Tile quantisation: GEMM dimensions are processed in 128-wide tiles, so a dimension d
/// costs ceil(d/128)*128 (NVIDIA Deep Learning Performance Guide, "Matrix Multiplication
/// Background", tile and wave quantisation).
inline double tile_factor(double d) {
    if (d <= 0)
        return 1.0;
    const double padded = std::ceil(d / 128.0) * 128.0;
    return d / padded;
}

/// The K-loop's fixed cost in K elements (pipeline fill and drain): about four K-steps, a step
/// being one 128-byte row of the operand tiles (CUTLASS's Hopper examples: 128 x 128 x 32 tiles
/// for 4-byte TF32 in 48_hopper_warp_specialized_gemm, 128 x 128 x 128 for FP8 in
/// 54_hopper_fp8_warp_specialized_gemm; 64 deep for 16-bit types): 256 for 16-bit GEMMs, 512
/// for 8-bit, 1024 for 4-bit ones.
inline double kloop_fixed_elements(double operand_bytes) {
    return 4.0 * 128.0 / operand_bytes;
}

/// Efficiency of a GEMM's N and K shape against the best-shape rate: tile quantisation of N and
/// K and the K-loop's fill and drain, K / (K + k0). (M, the tokens, is left out: kernels pick
/// smaller or swapped tiles when M is small.)
inline double gemm_nk_efficiency(double k, double n, double k0) {
    if (k <= 0 || n <= 0)
        return 1.0;
    return tile_factor(n) * tile_factor(k) * k / (k + k0);
}

} // namespace cl::model
