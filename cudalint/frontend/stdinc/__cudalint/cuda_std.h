/* libcu++'s cuda::std, which nvcc finds in the toolkit: the standard library under another
   name (host code and constant expressions need the names; device analysis reads none). */
#pragma once
#pragma clang system_header
namespace std {}
namespace cuda { namespace std = ::std; }
