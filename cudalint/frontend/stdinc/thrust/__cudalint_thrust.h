/* A stand-in for Thrust (which nvcc finds in the toolkit): the containers, pointers,
   iterators, function objects and algorithms host code names, enough for it to parse.
   Thrust's algorithms run on the host side of a launch and touch no shared memory, so
   an algorithm returns a value that converts to whatever the caller expects. */
#pragma once
#pragma clang system_header
#include <cstddef>
#include <utility>
#include <initializer_list>
#include <vector>
#include <stdexcept>
#include <string>
namespace thrust {
struct __cl_any {
  __host__ __device__ __cl_any() {}
  template <class T> __host__ __device__ __cl_any(const T&) {}
  template <class T> __host__ __device__ operator T() const { return T(); }
  __host__ __device__ __cl_any operator*() const { return *this; }
  __host__ __device__ __cl_any& operator++() { return *this; }
  __host__ __device__ __cl_any operator++(int) { return *this; }
  __host__ __device__ __cl_any operator-(const __cl_any&) const { return *this; }
  template <class T> __host__ __device__ __cl_any operator+(const T&) const { return *this; }
  template <class T> __host__ __device__ __cl_any operator-(const T&) const { return *this; }
  template <class T> __host__ __device__ bool operator==(const T&) const { return false; }
  template <class T> __host__ __device__ bool operator!=(const T&) const { return true; }
  __host__ __device__ const __cl_any* operator->() const { return this; }
  template <class T> __host__ __device__ __cl_any operator[](const T&) const { return *this; }
  __host__ __device__ __cl_any first() const { return *this; }
  __host__ __device__ __cl_any second() const { return *this; }
  __host__ __device__ __cl_any get() const { return *this; }
};
template <class T> struct __cl_ref { typedef T& type; };
template <> struct __cl_ref<void> { typedef void type; };
template <> struct __cl_ref<const void> { typedef void type; };
template <class T> class device_ptr {
 public:
  typedef T element_type;
  __host__ __device__ device_ptr() : p_(0) {}
  __host__ __device__ explicit device_ptr(T* p) : p_(p) {}
  __host__ __device__ T* get() const { return p_; }
  __host__ __device__ typename __cl_ref<T>::type operator*() const;
  __host__ __device__ typename __cl_ref<T>::type operator[](std::ptrdiff_t i) const;
  __host__ __device__ device_ptr operator+(std::ptrdiff_t n) const { return device_ptr(p_ + n); }
  __host__ __device__ device_ptr operator-(std::ptrdiff_t n) const { return device_ptr(p_ - n); }
  __host__ __device__ std::ptrdiff_t operator-(const device_ptr& o) const { return p_ - o.p_; }
  __host__ __device__ device_ptr& operator++() { ++p_; return *this; }
  __host__ __device__ bool operator==(const device_ptr& o) const { return p_ == o.p_; }
  __host__ __device__ bool operator!=(const device_ptr& o) const { return p_ != o.p_; }
 private:
  T* p_;
};
template <class T> __host__ __device__ void swap(device_ptr<T>& a, device_ptr<T>& b) {
  device_ptr<T> t = a; a = b; b = t;
}
template <class T> __host__ __device__ device_ptr<T> device_pointer_cast(T* p) {
  return device_ptr<T>(p);
}
template <class T> __host__ __device__ T* raw_pointer_cast(T* p) { return p; }
template <class T> __host__ __device__ T* raw_pointer_cast(const device_ptr<T>& p) {
  return p.get();
}
template <class T> device_ptr<T> device_malloc(std::size_t n);
device_ptr<void> device_malloc(std::size_t n);
template <class T> void device_free(device_ptr<T> p);
template <class T, class Alloc = void> class __cl_vector {
 public:
  typedef T value_type;
  typedef device_ptr<T> pointer;
  typedef device_ptr<const T> const_pointer;
  typedef device_ptr<T> iterator;
  typedef device_ptr<const T> const_iterator;
  typedef T& reference;
  typedef std::size_t size_type;
  __cl_vector() {}
  explicit __cl_vector(size_type n, const T& v = T()) {}
  template <class It> __cl_vector(It first, It last) {}
  __cl_vector(std::initializer_list<T> v) {}
  template <class U, class A> __cl_vector(const __cl_vector<U, A>& o) {}
  template <class U, class A> __cl_vector(const std::vector<U, A>& o) {}
  template <class U, class A> __cl_vector& operator=(const __cl_vector<U, A>& o) { return *this; }
  template <class U, class A> __cl_vector& operator=(const std::vector<U, A>& o) { return *this; }
  size_type size() const;
  bool empty() const;
  void resize(size_type n, const T& v = T());
  void reserve(size_type n);
  void clear();
  void push_back(const T& v);
  void shrink_to_fit();
  iterator begin();
  iterator end();
  const_iterator begin() const;
  const_iterator end() const;
  const_iterator cbegin() const;
  const_iterator cend() const;
  pointer data();
  const_pointer data() const;
  T& operator[](size_type i);
  const T& operator[](size_type i) const;
  T& front();
  T& back();
  template <class It> void assign(It first, It last);
  void assign(size_type n, const T& v);
  void swap(__cl_vector& o);
};
template <class T, class Alloc = void> class device_vector : public __cl_vector<T, Alloc> {
 public:
  using __cl_vector<T, Alloc>::__cl_vector;
  using __cl_vector<T, Alloc>::operator=;
  device_vector() {}
  template <class U, class A> device_vector(const __cl_vector<U, A>& o) {}
  template <class U, class A> device_vector(const std::vector<U, A>& o) {}
};
template <class T, class Alloc = void> class host_vector : public __cl_vector<T, Alloc> {
 public:
  using __cl_vector<T, Alloc>::__cl_vector;
  using __cl_vector<T, Alloc>::operator=;
  host_vector() {}
  template <class U, class A> host_vector(const __cl_vector<U, A>& o) {}
  template <class U, class A> host_vector(const std::vector<U, A>& o) {}
};
template <class... T> struct tuple {
  __host__ __device__ tuple() {}
  template <class... U> __host__ __device__ tuple(const U&...) {}
};
template <class... T> __host__ __device__ tuple<T...> make_tuple(const T&...);
template <int N, class... T> __host__ __device__ __cl_any get(const tuple<T...>&);
template <int N, class T> __host__ __device__ __cl_any get(const T&);
template <class A, class B> using pair = std::pair<A, B>;
using std::make_pair;
template <class T> class counting_iterator : public __cl_any {
 public:
  __host__ __device__ counting_iterator(T v) {}
};
template <class T> __host__ __device__ counting_iterator<T> make_counting_iterator(T v);
template <class T> class constant_iterator : public __cl_any {
 public:
  __host__ __device__ constant_iterator(T v) {}
};
template <class T> __host__ __device__ constant_iterator<T> make_constant_iterator(T v);
template <class... A> __host__ __device__ __cl_any make_zip_iterator(const A&...);
template <class... A> __host__ __device__ __cl_any make_transform_iterator(const A&...);
template <class... A> __host__ __device__ __cl_any make_permutation_iterator(const A&...);
template <class... A> __host__ __device__ __cl_any make_reverse_iterator(const A&...);
__host__ __device__ __cl_any make_discard_iterator();
template <class It, class F> class transform_iterator : public __cl_any {
 public:
  __host__ __device__ transform_iterator(It it, F f) {}
};
template <class T> class zip_iterator : public __cl_any {
 public:
  __host__ __device__ zip_iterator(T t) {}
};
#define __CL_THRUST_BINARY(name, expr)                                               \
  template <class T = void> struct name {                                            \
    template <class A, class B> __host__ __device__ auto operator()(const A& a,      \
                                                                    const B& b) const \
        -> decltype(expr) { return expr; }                                           \
  };
__CL_THRUST_BINARY(plus, a + b)
__CL_THRUST_BINARY(minus, a - b)
__CL_THRUST_BINARY(multiplies, a * b)
__CL_THRUST_BINARY(divides, a / b)
__CL_THRUST_BINARY(modulus, a % b)
__CL_THRUST_BINARY(maximum, a < b ? b : a)
__CL_THRUST_BINARY(minimum, a < b ? a : b)
__CL_THRUST_BINARY(less, a < b)
__CL_THRUST_BINARY(greater, a > b)
__CL_THRUST_BINARY(less_equal, a <= b)
__CL_THRUST_BINARY(greater_equal, a >= b)
__CL_THRUST_BINARY(equal_to, a == b)
__CL_THRUST_BINARY(not_equal_to, a != b)
__CL_THRUST_BINARY(logical_and, a && b)
__CL_THRUST_BINARY(logical_or, a || b)
__CL_THRUST_BINARY(bit_and, a & b)
__CL_THRUST_BINARY(bit_or, a | b)
__CL_THRUST_BINARY(bit_xor, a ^ b)
#undef __CL_THRUST_BINARY
template <class T = void> struct negate {
  template <class A> __host__ __device__ A operator()(const A& a) const { return -a; }
};
template <class T = void> struct identity {
  template <class A> __host__ __device__ const A& operator()(const A& a) const { return a; }
};
struct __cl_policy {};
static const __cl_policy device, host, seq;
namespace cuda { static const __cl_policy par; struct __cl_par_nosync {}; }
namespace system { namespace cuda { static const __cl_policy par; } }
class system_error : public std::runtime_error {
 public:
  system_error() : std::runtime_error("") {}
};
#define __CL_THRUST_ALGO(name) template <class... A> __cl_any name(A&&...);
__CL_THRUST_ALGO(copy) __CL_THRUST_ALGO(copy_n) __CL_THRUST_ALGO(copy_if)
__CL_THRUST_ALGO(sort) __CL_THRUST_ALGO(stable_sort) __CL_THRUST_ALGO(sort_by_key)
__CL_THRUST_ALGO(stable_sort_by_key) __CL_THRUST_ALGO(is_sorted)
__CL_THRUST_ALGO(reduce) __CL_THRUST_ALGO(reduce_by_key) __CL_THRUST_ALGO(transform)
__CL_THRUST_ALGO(transform_reduce) __CL_THRUST_ALGO(transform_if)
__CL_THRUST_ALGO(inclusive_scan) __CL_THRUST_ALGO(exclusive_scan)
__CL_THRUST_ALGO(inclusive_scan_by_key) __CL_THRUST_ALGO(exclusive_scan_by_key)
__CL_THRUST_ALGO(transform_inclusive_scan) __CL_THRUST_ALGO(transform_exclusive_scan)
__CL_THRUST_ALGO(sequence) __CL_THRUST_ALGO(fill) __CL_THRUST_ALGO(fill_n)
__CL_THRUST_ALGO(generate) __CL_THRUST_ALGO(generate_n) __CL_THRUST_ALGO(for_each)
__CL_THRUST_ALGO(for_each_n) __CL_THRUST_ALGO(count) __CL_THRUST_ALGO(count_if)
__CL_THRUST_ALGO(find) __CL_THRUST_ALGO(find_if) __CL_THRUST_ALGO(max_element)
__CL_THRUST_ALGO(min_element) __CL_THRUST_ALGO(minmax_element)
__CL_THRUST_ALGO(adjacent_difference) __CL_THRUST_ALGO(unique) __CL_THRUST_ALGO(unique_copy)
__CL_THRUST_ALGO(unique_by_key) __CL_THRUST_ALGO(unique_by_key_copy) __CL_THRUST_ALGO(gather)
__CL_THRUST_ALGO(scatter) __CL_THRUST_ALGO(equal) __CL_THRUST_ALGO(remove)
__CL_THRUST_ALGO(remove_if) __CL_THRUST_ALGO(replace) __CL_THRUST_ALGO(replace_if)
__CL_THRUST_ALGO(lower_bound) __CL_THRUST_ALGO(upper_bound) __CL_THRUST_ALGO(binary_search)
__CL_THRUST_ALGO(partition) __CL_THRUST_ALGO(stable_partition) __CL_THRUST_ALGO(merge)
__CL_THRUST_ALGO(merge_by_key) __CL_THRUST_ALGO(set_difference)
__CL_THRUST_ALGO(set_intersection) __CL_THRUST_ALGO(set_union) __CL_THRUST_ALGO(tabulate)
__CL_THRUST_ALGO(all_of) __CL_THRUST_ALGO(any_of) __CL_THRUST_ALGO(none_of)
__CL_THRUST_ALGO(inner_product) __CL_THRUST_ALGO(uninitialized_fill)
__CL_THRUST_ALGO(uninitialized_copy) __CL_THRUST_ALGO(swap_ranges) __CL_THRUST_ALGO(reverse)
__CL_THRUST_ALGO(distance)
#undef __CL_THRUST_ALGO
namespace random {
struct default_random_engine {
  __host__ __device__ explicit default_random_engine(unsigned int seed = 1) {}
  __host__ __device__ void discard(unsigned long long n) {}
  __host__ __device__ unsigned int operator()() { return 0; }
};
typedef default_random_engine minstd_rand;
typedef default_random_engine taus88;
template <class T = float> struct uniform_real_distribution {
  __host__ __device__ uniform_real_distribution(T a = 0, T b = 1) {}
  template <class G> __host__ __device__ T operator()(G& g) { return T(); }
};
template <class T = int> struct uniform_int_distribution {
  __host__ __device__ uniform_int_distribution(T a = 0, T b = 1) {}
  template <class G> __host__ __device__ T operator()(G& g) { return T(); }
};
template <class T = float> struct normal_distribution {
  __host__ __device__ normal_distribution(T mean = 0, T sd = 1) {}
  template <class G> __host__ __device__ T operator()(G& g) { return T(); }
};
}  // namespace random
using random::default_random_engine;
using random::uniform_real_distribution;
using random::uniform_int_distribution;
using random::normal_distribution;
namespace placeholders { static const __cl_any _1, _2, _3; }
}  // namespace thrust
