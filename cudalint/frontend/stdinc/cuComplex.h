/* cuComplex.h: the complex types are CUDA's vector types (exact sizes and alignments). */
#pragma once
#pragma clang system_header
#define _CL_HD __attribute__((host, device))
typedef float2 cuFloatComplex;
typedef double2 cuDoubleComplex;
typedef cuFloatComplex cuComplex;
_CL_HD inline float cuCrealf(cuFloatComplex x) { return x.x; }
_CL_HD inline float cuCimagf(cuFloatComplex x) { return x.y; }
_CL_HD inline cuFloatComplex make_cuFloatComplex(float r, float i) { cuFloatComplex c; c.x = r; c.y = i; return c; }
_CL_HD inline cuFloatComplex cuConjf(cuFloatComplex x) { return make_cuFloatComplex(x.x, -x.y); }
_CL_HD inline cuFloatComplex cuCaddf(cuFloatComplex a, cuFloatComplex b) { return make_cuFloatComplex(a.x + b.x, a.y + b.y); }
_CL_HD inline cuFloatComplex cuCsubf(cuFloatComplex a, cuFloatComplex b) { return make_cuFloatComplex(a.x - b.x, a.y - b.y); }
_CL_HD inline cuFloatComplex cuCmulf(cuFloatComplex a, cuFloatComplex b) { return make_cuFloatComplex(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); }
_CL_HD cuFloatComplex cuCdivf(cuFloatComplex a, cuFloatComplex b);
_CL_HD float cuCabsf(cuFloatComplex x);
_CL_HD inline cuFloatComplex cuCfmaf(cuFloatComplex a, cuFloatComplex b, cuFloatComplex c) { return cuCaddf(cuCmulf(a, b), c); }
_CL_HD inline double cuCreal(cuDoubleComplex x) { return x.x; }
_CL_HD inline double cuCimag(cuDoubleComplex x) { return x.y; }
_CL_HD inline cuDoubleComplex make_cuDoubleComplex(double r, double i) { cuDoubleComplex c; c.x = r; c.y = i; return c; }
_CL_HD inline cuDoubleComplex cuConj(cuDoubleComplex x) { return make_cuDoubleComplex(x.x, -x.y); }
_CL_HD inline cuDoubleComplex cuCadd(cuDoubleComplex a, cuDoubleComplex b) { return make_cuDoubleComplex(a.x + b.x, a.y + b.y); }
_CL_HD inline cuDoubleComplex cuCsub(cuDoubleComplex a, cuDoubleComplex b) { return make_cuDoubleComplex(a.x - b.x, a.y - b.y); }
_CL_HD inline cuDoubleComplex cuCmul(cuDoubleComplex a, cuDoubleComplex b) { return make_cuDoubleComplex(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); }
_CL_HD cuDoubleComplex cuCdiv(cuDoubleComplex a, cuDoubleComplex b);
_CL_HD double cuCabs(cuDoubleComplex x);
_CL_HD inline cuDoubleComplex cuCfma(cuDoubleComplex a, cuDoubleComplex b, cuDoubleComplex c) { return cuCadd(cuCmul(a, b), c); }
_CL_HD inline cuFloatComplex make_cuComplex(float r, float i) { return make_cuFloatComplex(r, i); }
_CL_HD inline cuDoubleComplex cuComplexFloatToDouble(cuFloatComplex c) { return make_cuDoubleComplex(c.x, c.y); }
_CL_HD inline cuFloatComplex cuComplexDoubleToFloat(cuDoubleComplex c) { return make_cuFloatComplex((float)c.x, (float)c.y); }
#undef _CL_HD
