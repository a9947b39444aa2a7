#!/usr/bin/env python3
# Reference values for tests/unit/test_compare.c, computed independently of
# compare/stats.c: the normal from the standard library (statistics), the
# Student t by Simpson integration of its density (not the continued
# fraction of the incomplete beta function the library uses), the tests by
# their textbook formulas. Run: python3 tests/unit/test_compare_ref.py
import math
from statistics import NormalDist
N = NormalDist()
def tpdf(x, v):
    return math.exp(math.lgamma((v+1)/2) - math.lgamma(v/2) - 0.5*math.log(v*math.pi) - (v+1)/2*math.log1p(x*x/v))
def tcdf(t, v, n=200000):
    # 0.5 + integral_0^t pdf, composite Simpson
    if t < 0: return 1 - tcdf(-t, v, n)
    h = t/n
    s = tpdf(0, v) + tpdf(t, v)
    for i in range(1, n):
        s += (4 if i % 2 else 2) * tpdf(i*h, v)
    return 0.5 + s*h/3
def tq(p, v):
    lo, hi = 0.0, 1.0
    while tcdf(hi, v, 20000) < p: hi *= 2
    for _ in range(60):
        mid = (lo+hi)/2
        if tcdf(mid, v, 20000) < p: lo = mid
        else: hi = mid
    return (lo+hi)/2
print("norm_q", [repr(N.inv_cdf(p)) for p in (0.975, 0.995, 0.5+0.45, 1e-10, 0.3)])
print("norm_cdf", [repr(N.cdf(x)) for x in (1.0, -2.5, 3.2)])
for v, t in ((3.7, 1.3), (17.3, 2.1), (1.5, -0.8), (30, 2.042)):
    print("t_cdf", v, t, repr(tcdf(t, v)))
for v, p in ((3.7, 0.975), (9.25, 0.995)):
    print("t_q", v, p, repr(tq(p, v)))
def z2(x1, n1, x2, n2, level=0.95):
    p1, p2 = x1/n1, x2/n2
    pool = (x1+x2)/(n1+n2)
    z = (p2-p1)/math.sqrt(pool*(1-pool)*(1/n1+1/n2))
    p = 2*(1-N.cdf(abs(z))) if abs(z) < 5 else math.erfc(abs(z)/math.sqrt(2))
    se = math.sqrt(p1*(1-p1)/n1 + p2*(1-p2)/n2)
    q = N.inv_cdf(1-(1-level)/2)
    return z, p, 100*(p2-p1-q*se), 100*(p2-p1+q*se)
print("z 30/1000 50/1000", [repr(v) for v in z2(30, 1000, 50, 1000)])
print("z 2500/10000 1500/10000", [repr(v) for v in z2(2500, 10000, 1500, 10000)])
def welch(a, b, level=0.95):
    def mv(v):
        m = sum(v)/len(v); s2 = sum((x-m)**2 for x in v)/(len(v)-1); return m, s2
    ma, sa = mv(a); mb, sb = mv(b)
    va, vb = sa/len(a), sb/len(b)
    se = math.sqrt(va+vb)
    t = (mb-ma)/se
    df = (va+vb)**2/(va**2/(len(a)-1) + vb**2/(len(b)-1))
    p = 2*(1-tcdf(abs(t), df))
    q = tq(1-(1-level)/2, df)
    return t, df, p, 100*(mb-ma-q*se), 100*(mb-ma+q*se), math.sqrt(sa)*100, math.sqrt(sb)*100
A = [100/1000, 120/1000, 80/1000, 100/1000]
B = [110/1000, 135/1000, 95/1000, 130/1000]
print("welch", [repr(v) for v in welch(A, B)])
# one capture (binomial variance) against four
def mixed(x1, n1, b, level=0.95):
    p1 = x1/n1; va = p1*(1-p1)/n1
    mb = sum(b)/len(b); sb = sum((x-mb)**2 for x in b)/(len(b)-1); vb = sb/len(b)
    se = math.sqrt(va+vb); t = (mb-p1)/se
    df = (va+vb)**2/(vb**2/(len(b)-1))
    p = 2*(1-tcdf(abs(t), df)); q = tq(1-(1-level)/2, df)
    return t, df, p, 100*(mb-p1-q*se), 100*(mb-p1+q*se)
print("mixed", [repr(v) for v in mixed(100, 1000, B)])
B2 = [150/1000, 160/1000, 140/1000, 170/1000]
print("welch2", [repr(v) for v in welch(A, B2)])
