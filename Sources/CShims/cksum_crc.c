/* The POSIX cksum(1) CRC (polynomial 0x04C11DB7, most significant bit first) that Bom records
   hold: PCLMULQDQ folding where the processor has it, a byte table otherwise. Both give the same
   state, so a caller may split its input anywhere. */
#include <stdint.h>
#include <stddef.h>
#include <string.h>
#include "cshims.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#define IAP_CKSUM_POLY 0x04C11DB7u

static uint32_t iap_cksum_table[256];
/* x^n mod P for the folding distances used below. */
static uint64_t iap_k128, iap_k192, iap_k512, iap_k576;
static int iap_cksum_has_clmul;

/* x^n mod P, n >= 32. */
static uint64_t iap_x_power_mod(unsigned n) {
    uint32_t r = IAP_CKSUM_POLY; /* x^32 mod P */
    for (unsigned i = 32; i < n; i++) r = (r << 1) ^ ((r & 0x80000000u) ? IAP_CKSUM_POLY : 0);
    return r;
}

__attribute__((constructor)) static void iap_cksum_init(void) {
    for (uint32_t byte = 0; byte < 256; byte++) {
        uint32_t crc = byte << 24;
        for (int bit = 0; bit < 8; bit++) crc = (crc & 0x80000000u) ? (crc << 1) ^ IAP_CKSUM_POLY : crc << 1;
        iap_cksum_table[byte] = crc;
    }
    iap_k128 = iap_x_power_mod(128);
    iap_k192 = iap_x_power_mod(192);
    iap_k512 = iap_x_power_mod(512);
    iap_k576 = iap_x_power_mod(576);
#if defined(__x86_64__)
    __builtin_cpu_init();
    iap_cksum_has_clmul = __builtin_cpu_supports("pclmul") && __builtin_cpu_supports("ssse3");
#endif
}

static uint32_t iap_cksum_bytes(uint32_t crc, const uint8_t *p, size_t n) {
    while (n--) crc = (crc << 8) ^ iap_cksum_table[(crc >> 24) ^ *p++];
    return crc;
}

#if defined(__x86_64__)
#define IAP_CLMUL __attribute__((target("pclmul,ssse3")))

/* The 16 bytes at p as one polynomial, first byte's top bit highest. */
IAP_CLMUL static inline __m128i iap_load_be(const uint8_t *p) {
    const __m128i reverse = _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    return _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)p), reverse);
}

/* x * x^d + next, with k = (x^(d+64) mod P, x^d mod P): the high half times the first, the low
   half times the second; each product stays under 96 bits. */
IAP_CLMUL static inline __m128i iap_fold(__m128i x, __m128i k, __m128i next) {
    return _mm_xor_si128(_mm_xor_si128(_mm_clmulepi64_si128(x, k, 0x11), _mm_clmulepi64_si128(x, k, 0x00)), next);
}

/* n >= 64. Folds the input into 128 bits congruent to it, then finishes with the table. */
IAP_CLMUL static uint32_t iap_cksum_clmul(uint32_t crc, const uint8_t *p, size_t n) {
    const __m128i by64 = _mm_set_epi64x((long long)iap_k576, (long long)iap_k512);
    const __m128i by16 = _mm_set_epi64x((long long)iap_k192, (long long)iap_k128);
    /* The state so far joins the first 32 bits of the input: (crc·x^(8n-32) + D)·x^32 mod P. */
    __m128i x0 = _mm_xor_si128(iap_load_be(p), _mm_set_epi32((int)crc, 0, 0, 0));
    __m128i x1 = iap_load_be(p + 16), x2 = iap_load_be(p + 32), x3 = iap_load_be(p + 48);
    p += 64;
    n -= 64;
    while (n >= 64) {
        x0 = iap_fold(x0, by64, iap_load_be(p));
        x1 = iap_fold(x1, by64, iap_load_be(p + 16));
        x2 = iap_fold(x2, by64, iap_load_be(p + 32));
        x3 = iap_fold(x3, by64, iap_load_be(p + 48));
        p += 64;
        n -= 64;
    }
    __m128i x = iap_fold(iap_fold(iap_fold(x0, by16, x1), by16, x2), by16, x3);
    while (n >= 16) {
        x = iap_fold(x, by16, iap_load_be(p));
        p += 16;
        n -= 16;
    }
    const __m128i reverse = _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    uint8_t folded[16];
    _mm_storeu_si128((__m128i *)folded, _mm_shuffle_epi8(x, reverse));
    return iap_cksum_bytes(iap_cksum_bytes(0, folded, 16), p, n);
}
#endif

uint32_t iap_cksum_crc_update(uint32_t crc, const void *bytes, size_t count) {
    const uint8_t *p = (const uint8_t *)bytes;
#if defined(__x86_64__)
    if (count >= 64 && iap_cksum_has_clmul) return iap_cksum_clmul(crc, p, count);
#endif
    return iap_cksum_bytes(crc, p, count);
}

uint32_t iap_cksum_crc_update_portable(uint32_t crc, const void *bytes, size_t count) {
    return iap_cksum_bytes(crc, (const uint8_t *)bytes, count);
}
