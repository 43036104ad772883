/* Instruction peaks for `kgen bench peak` (generator/runtime/peak.py): each loop issues one kind of
 * multiply-accumulate on registers only, with enough independent accumulators to hide its latency, so
 * that its rate is the core's issue rate of that instruction and nothing else (no loads, no stores).
 * A VM's vCPUs may share a physical core: run on every thread at once, the loops show it.
 *
 * Each function runs `iters` iterations of UNROLL instructions and returns how many instructions its
 * accumulators say ran (their sum over what one instruction adds), which the caller checks against the
 * count it asked for. The sums are exact for up to 2^20 iterations a call. Built by compile/native.py; the instructions are written in
 * assembly, so the file builds with any x86-64 compiler whose assembler knows them, whatever the CPU,
 * and a function runs only where /proc/cpuinfo has its feature (peak.py's LOOPS).
 */
#include <stdint.h>
#include <string.h>

#define UNROLL 12

#if defined(__x86_64__)

/* 12 accumulators in 12 named registers (an array of them is kept in memory by the compiler, and the
 * loop then runs at the store-to-load latency, a quarter of the rate) */
#define ACC12_DECLARE(T, zero) T c0 = zero, c1 = zero, c2 = zero, c3 = zero, c4 = zero, c5 = zero, c6 = zero, \
                                 c7 = zero, c8 = zero, c9 = zero, c10 = zero, c11 = zero
#define ACC12(op, a, b)                                                                               \
    __asm__ volatile(op " %12, %13, %0\n\t" op " %12, %13, %1\n\t" op " %12, %13, %2\n\t"                \
                     op " %12, %13, %3\n\t" op " %12, %13, %4\n\t" op " %12, %13, %5\n\t"                \
                     op " %12, %13, %6\n\t" op " %12, %13, %7\n\t" op " %12, %13, %8\n\t"                \
                     op " %12, %13, %9\n\t" op " %12, %13, %10\n\t" op " %12, %13, %11\n\t"              \
                     : "+v"(c0), "+v"(c1), "+v"(c2), "+v"(c3), "+v"(c4), "+v"(c5),                       \
                       "+v"(c6), "+v"(c7), "+v"(c8), "+v"(c9), "+v"(c10), "+v"(c11)                      \
                     : "v"(a), "v"(b))
#define ACC12_SUM(s) do {                                                                             \
        __typeof__(c0) all_ = c0 + c1 + c2 + c3 + c4 + c5 + c6 + c7 + c8 + c9 + c10 + c11;           \
        for (int i_ = 0; i_ < 16; i_++) s += all_[i_];                                                \
    } while (0)

typedef int32_t i32x16 __attribute__((vector_size(64)));
typedef float f32x16 __attribute__((vector_size(64)));

/* vpdpbusd zmm: 16 lanes x 4 u8*s8 products. Every byte 1: each instruction adds 4 to each lane. */
__attribute__((target("avx512f,avx512vnni"))) double kgen_peak_vpdpbusd(int64_t iters) {
    i32x16 ones, zero = {0};
    for (int i = 0; i < 16; i++) ones[i] = 0x01010101;
    ACC12_DECLARE(i32x16, zero);
    for (int64_t i = 0; i < iters; i++) ACC12("vpdpbusd", ones, ones);
    double s = 0;
    ACC12_SUM(s);
    return s / (16 * 4);
}

/* vfmadd231ps zmm: 16 lanes x 1 multiply-add. a = 1, b = 2^-20: each instruction adds 2^-20 to each
 * lane, exact in f32 up to 2^24 instructions per accumulator. */
__attribute__((target("avx512f"))) double kgen_peak_vfmadd231ps(int64_t iters) {
    f32x16 a, b, zero = {0};
    for (int i = 0; i < 16; i++) a[i] = 1.0f, b[i] = 1.0f / 1048576.0f;
    ACC12_DECLARE(f32x16, zero);
    for (int64_t i = 0; i < iters; i++) ACC12("vfmadd231ps", a, b);
    double s = 0;
    ACC12_SUM(s);
    return s * 1048576.0 / 16;
}

/* vdpbf16ps zmm: 16 lanes x 2 bf16 products. Every bf16 2^-10 (0x3a80): each instruction adds
 * 2 * 2^-20 to each lane. */
__attribute__((target("avx512f,avx512bf16"))) double kgen_peak_vdpbf16ps(int64_t iters) {
    f32x16 zero = {0};
    i32x16 pairs;
    for (int i = 0; i < 16; i++) pairs[i] = 0x3a803a80;
    ACC12_DECLARE(f32x16, zero);
    for (int64_t i = 0; i < iters; i++) ACC12("vdpbf16ps", pairs, pairs);
    double s = 0;
    ACC12_SUM(s);
    return s * 1048576.0 / (16 * 2);
}

/* AMX: 4 accumulator tiles (tmm0-3, 16 rows x 64 bytes) fed by 2 A tiles (tmm4-5) and 2 B tiles
 * (tmm6-7), each 16 x 64 bytes, loaded once: the loop is 4 independent tile products per iteration,
 * UNROLL / 4 times over, on tiles only. The caller holds the tile permission (arch_prctl). */
struct tile_config {
    uint8_t palette, start_row, reserved[14];
    uint16_t bytes_per_row[16];
    uint8_t rows[16];
};

static void tiles_start(const uint8_t *a, const uint8_t *b) {
    struct tile_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.palette = 1;
    for (int t = 0; t < 8; t++) cfg.bytes_per_row[t] = 64, cfg.rows[t] = 16;
    __asm__ volatile("ldtilecfg %0" ::"m"(cfg));
    __asm__ volatile("tilezero %%tmm0\n\ttilezero %%tmm1\n\ttilezero %%tmm2\n\ttilezero %%tmm3" ::);
    __asm__ volatile("tileloadd (%0,%1,1), %%tmm4\n\ttileloadd (%0,%1,1), %%tmm5" ::"r"(a), "r"((int64_t)64));
    __asm__ volatile("tileloadd (%0,%1,1), %%tmm6\n\ttileloadd (%0,%1,1), %%tmm7" ::"r"(b), "r"((int64_t)64));
}

static double tiles_sum(int is_float) {
    static __thread union { int32_t i[4][256]; float f[4][256]; } out;
    __asm__ volatile("tilestored %%tmm0, (%0,%1,1)" ::"r"(out.i[0]), "r"((int64_t)64) : "memory");
    __asm__ volatile("tilestored %%tmm1, (%0,%1,1)" ::"r"(out.i[1]), "r"((int64_t)64) : "memory");
    __asm__ volatile("tilestored %%tmm2, (%0,%1,1)" ::"r"(out.i[2]), "r"((int64_t)64) : "memory");
    __asm__ volatile("tilestored %%tmm3, (%0,%1,1)" ::"r"(out.i[3]), "r"((int64_t)64) : "memory");
    __asm__ volatile("tilerelease" ::);
    double s = 0;
    for (int t = 0; t < 4; t++)
        for (int i = 0; i < 256; i++) s += is_float ? out.f[t][i] : out.i[t][i];
    return s;
}

#define TILE4(op)                                                                                     \
    __asm__ volatile(op " %%tmm6, %%tmm4, %%tmm0\n\t" op " %%tmm7, %%tmm4, %%tmm1\n\t"                  \
                     op " %%tmm6, %%tmm5, %%tmm2\n\t" op " %%tmm7, %%tmm5, %%tmm3" ::)

/* tdpbusd: each C element += 64 u8*s8 products. Every byte 1: each instruction adds 64 to each of
 * the 256 elements of its tile. */
double kgen_peak_tdpbusd(int64_t iters) {
    static __thread uint8_t ones[1024];
    memset(ones, 1, sizeof ones);
    tiles_start(ones, ones);
    for (int64_t i = 0; i < iters; i++) {
        TILE4("tdpbusd"); TILE4("tdpbusd"); TILE4("tdpbusd");
    }
    return tiles_sum(0) / (256 * 64);
}

/* tdpbf16ps: each C element += 32 bf16 products. Every bf16 2^-10: each instruction adds 32 * 2^-20. */
double kgen_peak_tdpbf16ps(int64_t iters) {
    static __thread uint16_t pairs[512];
    for (int i = 0; i < 512; i++) pairs[i] = 0x3a80;
    tiles_start((const uint8_t *)pairs, (const uint8_t *)pairs);
    for (int64_t i = 0; i < iters; i++) {
        TILE4("tdpbf16ps"); TILE4("tdpbf16ps"); TILE4("tdpbf16ps");
    }
    return tiles_sum(1) * 1048576.0 / (256 * 32);
}

#endif
