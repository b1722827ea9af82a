/*
 * CPU feature detection (cpu.h): once, through pthread_once, from CPUID and
 * XGETBV on x86-64 (an instruction set counts only when the OS saves its
 * registers); no flags elsewhere.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu.h"

#if VQ_ARCH_X86_64
#include <cpuid.h>
#endif

static pthread_once_t cpu_once = PTHREAD_ONCE_INIT;
static unsigned cpu_detected;
static unsigned cpu_env_mask = VQ_CPU_ALL;
static char cpu_env_bad[64];
static atomic_uint cpu_test_mask = VQ_CPU_ALL;

static const char *const flag_names[VQ_CPU_N_FLAGS] = { "avx2", "avx512" };

#if VQ_ARCH_X86_64
static unsigned long long xgetbv0(void)
{
    unsigned lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return ((unsigned long long)hi << 32) | lo;
}

static unsigned detect(void)
{
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d))
        return 0;
    const unsigned osxsave = 1u << 27, avx = 1u << 28;
    if ((c & (osxsave | avx)) != (osxsave | avx))
        return 0;
    unsigned long long xcr0 = xgetbv0();
    if ((xcr0 & 0x6) != 0x6) /* XMM and YMM state */
        return 0;
    if (__get_cpuid_max(0, NULL) < 7)
        return 0;
    __cpuid_count(7, 0, a, b, c, d);
    unsigned flags = 0;
    if (b & (1u << 5))
        flags |= VQ_CPU_AVX2;
    /* F (16), DQ (17), CD (28), BW (30), VL (31) */
    const unsigned v4 = (1u << 16) | (1u << 17) | (1u << 28) | (1u << 30) |
                        (1u << 31);
    /* opmask, upper ZMM0-15 and ZMM16-31 state */
    if ((flags & VQ_CPU_AVX2) && (b & v4) == v4 && (xcr0 & 0xe0) == 0xe0)
        flags |= VQ_CPU_AVX512;
    return flags;
}
#else
static unsigned detect(void)
{
    return 0;
}
#endif

/* VQHIP_CPU_MASK: names (avx2, avx512, all, none) separated by commas,
 * spaces or '+', or a number of flag bits. false when a word is unknown. */
static bool parse_mask(const char *s, unsigned *mask)
{
    char *end;
    unsigned long v = strtoul(s, &end, 0);
    if (end != s && *end == '\0') {
        *mask = (unsigned)v & VQ_CPU_ALL;
        return true;
    }
    unsigned m = 0;
    while (*s) {
        size_t n = strcspn(s, ", +");
        if (n) {
            unsigned k;
            for (k = 0; k < VQ_CPU_N_FLAGS; k++)
                if (strlen(flag_names[k]) == n && !strncmp(s, flag_names[k], n))
                    break;
            if (k < VQ_CPU_N_FLAGS)
                m |= 1u << k;
            else if (n == 3 && !strncmp(s, "all", 3))
                m |= VQ_CPU_ALL;
            else if (!(n == 4 && !strncmp(s, "none", 4)) &&
                     !(n == 1 && *s == 'c'))
                return false;
        }
        s += n + (s[n] != '\0');
    }
    *mask = m;
    return true;
}

static void cpu_init(void)
{
    cpu_detected = detect();
    const char *env = getenv("VQHIP_CPU_MASK");
    if (env && *env && !parse_mask(env, &cpu_env_mask)) {
        cpu_env_mask = 0;
        snprintf(cpu_env_bad, sizeof(cpu_env_bad), "%s", env);
    }
}

unsigned vq_cpu_flags_detected(void)
{
    pthread_once(&cpu_once, cpu_init);
    return cpu_detected;
}

unsigned vq_cpu_flags(void)
{
    pthread_once(&cpu_once, cpu_init);
    return cpu_detected & cpu_env_mask &
           atomic_load_explicit(&cpu_test_mask, memory_order_relaxed);
}

void vq_cpu_set_mask(unsigned mask)
{
    atomic_store_explicit(&cpu_test_mask, mask, memory_order_relaxed);
}

const char *vq_cpu_flag_name(unsigned flag)
{
    for (unsigned k = 0; k < VQ_CPU_N_FLAGS; k++)
        if (flag == 1u << k)
            return flag_names[k];
    return NULL;
}

const char *vq_cpu_flags_string(unsigned flags, char *buf, size_t size)
{
    size_t len = 0;
    if (size)
        buf[0] = '\0';
    for (unsigned k = 0; k < VQ_CPU_N_FLAGS && len < size; k++)
        if (flags & (1u << k)) {
            int n = snprintf(buf + len, size - len, "%s%s", len ? " " : "",
                             flag_names[k]);
            if (n < 0)
                break;
            len += (size_t)n;
        }
    if (!len && size)
        snprintf(buf, size, "none");
    return buf;
}

const char *vq_cpu_mask_env_error(void)
{
    pthread_once(&cpu_once, cpu_init);
    return cpu_env_bad[0] ? cpu_env_bad : NULL;
}
