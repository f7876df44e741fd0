/* exp, expm1, log, pow and Gamma for the core, in place of libm's: libm's
   exp, log and pow carry about 10 kB of tables into each copy of the
   module. These work in double-double where one rounding would show, to a
   relative error below about 2^-66 before the last rounding, so they return
   the correctly rounded value but within about 2^-13 of an ulp of a
   rounding midpoint (the native tests check them against 113-bit
   references). Their two small tables are computed on first use, so the
   module carries no data for them. Native and wasm builds run the same
   operations and get the same bits.

   Each first tries a cheaper evaluation in double arithmetic with a proven
   error bound, and returns its result where every value within that bound
   rounds alike (Ziv's test); the double-double path, below as *_accurate,
   runs only where the test fails, about once in 50 or 100 calls. Where the
   test passes both paths round to the same double, so the results are
   those of the double-double path alone. */
#ifndef PE_EXP_LOG_H
#define PE_EXP_LOG_H

/* e^x; 0 below about -745.13, +inf above about 709.78, NaN for NaN. */
double pe_exp(double x);

/* e^x - 1, accurate near 0 too. */
double pe_expm1(double x);

/* ln x; -inf at 0, NaN below 0 or for NaN. */
double pe_log(double x);

/* x^y for x >= 0 (NaN for x < 0): 1 for y = 0 or x = 1; 0^y is 0 for
   y > 0 and +inf for y < 0. */
double pe_pow(double x, double y);

/* Gamma(x) for 1 <= x <= 171.6 (the core's x = s + 1, s <= 170); NaN
   outside. */
double pe_tgamma(double x);

/* The double-double paths alone, for the tests that compare both paths. */
double pe_exp_accurate(double x);
double pe_expm1_accurate(double x);
double pe_log_accurate(double x);
double pe_pow_accurate(double x, double y);

#endif
