// SPDX-License-Identifier: MIT
/*
 * SHA-256 as specified in FIPS 180-4, section 6.2. One-shot only: aotperf
 * hashes whole files it already holds in memory. On x86-64 CPUs with the
 * SHA extensions the blocks go through them (a core's hash was a third
 * of a small report's instructions).
 */
#include <string.h>
#include "sha256.h"
#if defined(__x86_64__) && defined(__GNUC__)
#include <cpuid.h>
#include <immintrin.h>
#define SHA256_X86 1
#endif

/* FIPS 180-4 4.2.2: first 32 bits of the fractional parts of the cube roots of the first 64 primes */
static const uint32_t K[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static uint32_t rotr(uint32_t x, unsigned int n)
{
	return (x >> n) | (x << (32 - n));
}

static void sha256_block(uint32_t h[8], const uint8_t *p)
{
	uint32_t w[64], a, b, c, d, e, f, g, hh;
	int t;

	for (t = 0; t < 16; t++)
		w[t] = (uint32_t)p[4 * t] << 24 | (uint32_t)p[4 * t + 1] << 16 |
		       (uint32_t)p[4 * t + 2] << 8 | (uint32_t)p[4 * t + 3];
	for (t = 16; t < 64; t++) {
		uint32_t s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >> 3);
		uint32_t s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >> 10);

		w[t] = w[t - 16] + s0 + w[t - 7] + s1;
	}

	a = h[0]; b = h[1]; c = h[2]; d = h[3];
	e = h[4]; f = h[5]; g = h[6]; hh = h[7];
	for (t = 0; t < 64; t++) {
		uint32_t S1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25);
		uint32_t ch = (e & f) ^ (~e & g);
		uint32_t t1 = hh + S1 + ch + K[t] + w[t];
		uint32_t S0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22);
		uint32_t maj = (a & b) ^ (a & c) ^ (b & c);
		uint32_t t2 = S0 + maj;

		hh = g; g = f; f = e; e = d + t1;
		d = c; c = b; b = a; a = t1 + t2;
	}
	h[0] += a; h[1] += b; h[2] += c; h[3] += d;
	h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
}

#ifdef SHA256_X86
/*
 * The compression with SHA-NI: sha256rnds2 does two rounds on the state
 * held as ABEF and CDGH (A in the top lane), sha256msg1 and sha256msg2
 * extend the message four words at a time (Intel SDM, SHA extensions).
 */
__attribute__((target("sha,sse4.1,ssse3")))
static void blocks_ni(uint32_t h[8], const uint8_t *p, size_t n)
{
	const __m128i bswap = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
	__m128i abcd = _mm_loadu_si128((const __m128i *)(const void *)&h[0]);
	__m128i efgh = _mm_loadu_si128((const __m128i *)(const void *)&h[4]);
	__m128i badc = _mm_shuffle_epi32(abcd, 0xB1), hgfe = _mm_shuffle_epi32(efgh, 0x1B);
	__m128i abef = _mm_alignr_epi8(badc, hgfe, 8), cdgh = _mm_blend_epi16(hgfe, badc, 0xF0);

	for (; n; n--, p += 64) {
		__m128i save_abef = abef, save_cdgh = cdgh, m[4], wk;

		for (int i = 0; i < 4; i++)
			m[i] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(const void *)
								(p + 16 * i)), bswap);
		for (int t = 0; t < 16; t++) {
			__m128i *w = &m[t & 3];

			/* W[t..t+3] from the four words blocks before (FIPS 180-4 6.2.2 step 1) */
			if (t >= 4)
				*w = _mm_sha256msg2_epu32(
					_mm_add_epi32(_mm_sha256msg1_epu32(*w, m[(t + 1) & 3]),
						      _mm_alignr_epi8(m[(t + 3) & 3], m[(t + 2) & 3], 4)),
					m[(t + 3) & 3]);
			wk = _mm_add_epi32(*w, _mm_loadu_si128((const __m128i *)(const void *)&K[4 * t]));
			cdgh = _mm_sha256rnds2_epu32(cdgh, abef, wk);
			abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_shuffle_epi32(wk, 0x0E));
		}
		abef = _mm_add_epi32(abef, save_abef);
		cdgh = _mm_add_epi32(cdgh, save_cdgh);
	}
	badc = _mm_shuffle_epi32(abef, 0x1B);	/* A B E F */
	hgfe = _mm_shuffle_epi32(cdgh, 0xB1);	/* G H C D */
	_mm_storeu_si128((__m128i *)(void *)&h[0], _mm_blend_epi16(badc, hgfe, 0xF0));
	_mm_storeu_si128((__m128i *)(void *)&h[4], _mm_alignr_epi8(hgfe, badc, 8));
}

/* Has the CPU the SHA extensions (and SSSE3, SSE4.1)? */
static int cpu_has_sha(void)
{
	unsigned a, b, c, d;

	if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & bit_SSSE3) || !(c & bit_SSE4_1))
		return 0;
	return __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & bit_SHA);
}
#endif

static int use_cpu = 1;

void ap_sha256__use_cpu(int yes)
{
	use_cpu = yes;
}

static void blocks(uint32_t h[8], const uint8_t *p, size_t n)
{
#ifdef SHA256_X86
	static int has = -1;

	if (has < 0)
		has = cpu_has_sha();
	if (has && use_cpu) {
		blocks_ni(h, p, n);
		return;
	}
#endif
	for (; n; n--, p += 64)
		sha256_block(h, p);
}

void ap_sha256(const void *data, size_t len, uint8_t out[32])
{
	/* FIPS 180-4 5.3.3 initial hash value */
	uint32_t h[8] = {
		0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
		0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
	};
	const uint8_t *p = data;
	uint64_t bits = (uint64_t)len * 8;
	uint8_t tail[128];
	size_t rest, tlen;
	int i;

	blocks(h, p, len / 64);
	p += len / 64 * 64;
	len %= 64;

	/* Padding (5.1.1): 0x80, zeros, then the 64-bit big-endian bit length. */
	rest = len;
	memset(tail, 0, sizeof(tail));
	if (rest)
		memcpy(tail, p, rest);
	tail[rest] = 0x80;
	tlen = rest + 1 + 8 <= 64 ? 64 : 128;
	for (i = 0; i < 8; i++)
		tail[tlen - 1 - i] = (uint8_t)(bits >> (8 * i));
	blocks(h, tail, tlen / 64);

	for (i = 0; i < 8; i++) {
		out[4 * i] = (uint8_t)(h[i] >> 24);
		out[4 * i + 1] = (uint8_t)(h[i] >> 16);
		out[4 * i + 2] = (uint8_t)(h[i] >> 8);
		out[4 * i + 3] = (uint8_t)h[i];
	}
}

void ap_sha256_hex(const uint8_t digest[32], char hex[65])
{
	static const char digits[] = "0123456789abcdef";
	int i;

	for (i = 0; i < 32; i++) {
		hex[2 * i] = digits[digest[i] >> 4];
		hex[2 * i + 1] = digits[digest[i] & 0xf];
	}
	hex[64] = '\0';
}
