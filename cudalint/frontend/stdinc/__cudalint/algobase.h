// std::min/max/swap and iterator basics, as libstdc++'s bits/stl_algobase.h brings them with
// almost every header. constexpr, so clang lets device code call them (nvcc needs
// --expt-relaxed-constexpr; clang's cuda_wrappers/algorithm adds __host__ __device__ ones).
#pragma once
#pragma clang system_header
#include <utility>
#include <initializer_list>
namespace std {
template <class T> constexpr const T& min(const T& a, const T& b) { return b < a ? b : a; }
template <class T> constexpr const T& max(const T& a, const T& b) { return a < b ? b : a; }
template <class T, class C> constexpr const T& min(const T& a, const T& b, C c) {
  return c(b, a) ? b : a;
}
template <class T, class C> constexpr const T& max(const T& a, const T& b, C c) {
  return c(a, b) ? b : a;
}
template <class T> constexpr T min(initializer_list<T> l) {
  const T* r = l.begin();
  for (const T* p = l.begin(); p != l.end(); ++p) if (*p < *r) r = p;
  return *r;
}
template <class T> constexpr T max(initializer_list<T> l) {
  const T* r = l.begin();
  for (const T* p = l.begin(); p != l.end(); ++p) if (*r < *p) r = p;
  return *r;
}
template <class T> constexpr const T& clamp(const T& v, const T& lo, const T& hi) {
  return v < lo ? lo : (hi < v ? hi : v);
}

struct input_iterator_tag {};
struct output_iterator_tag {};
struct forward_iterator_tag : input_iterator_tag {};
struct bidirectional_iterator_tag : forward_iterator_tag {};
struct random_access_iterator_tag : bidirectional_iterator_tag {};
struct contiguous_iterator_tag : random_access_iterator_tag {};
template <class I> struct iterator_traits {
  typedef typename I::difference_type difference_type;
  typedef typename I::value_type value_type;
  typedef typename I::pointer pointer;
  typedef typename I::reference reference;
  typedef typename I::iterator_category iterator_category;
};
template <class T> struct iterator_traits<T*> {
  typedef ptrdiff_t difference_type;
  typedef __remove_cv(T) value_type;
  typedef T* pointer;
  typedef T& reference;
  typedef random_access_iterator_tag iterator_category;
};
template <class C> constexpr auto begin(C& c) -> decltype(c.begin()) { return c.begin(); }
template <class C> constexpr auto begin(const C& c) -> decltype(c.begin()) { return c.begin(); }
template <class C> constexpr auto end(C& c) -> decltype(c.end()) { return c.end(); }
template <class C> constexpr auto end(const C& c) -> decltype(c.end()) { return c.end(); }
template <class C> constexpr auto cbegin(const C& c) -> decltype(c.begin()) { return c.begin(); }
template <class C> constexpr auto cend(const C& c) -> decltype(c.end()) { return c.end(); }
template <class T, size_t N> constexpr T* begin(T (&a)[N]) noexcept { return a; }
template <class T, size_t N> constexpr T* end(T (&a)[N]) noexcept { return a + N; }
template <class C> constexpr auto size(const C& c) -> decltype(c.size()) { return c.size(); }
template <class T, size_t N> constexpr size_t size(const T (&)[N]) noexcept { return N; }
template <class C> constexpr auto empty(const C& c) -> decltype(c.empty()) { return c.empty(); }
template <class T, size_t N> constexpr bool empty(const T (&)[N]) noexcept { return false; }
template <class C> constexpr auto data(C& c) -> decltype(c.data()) { return c.data(); }
template <class C> constexpr auto data(const C& c) -> decltype(c.data()) { return c.data(); }
template <class T, size_t N> constexpr T* data(T (&a)[N]) noexcept { return a; }
template <class I>
constexpr typename iterator_traits<I>::difference_type distance(I a, I b) {
  typename iterator_traits<I>::difference_type n = 0;
  for (; a != b; ++a) ++n;
  return n;
}
template <class T> constexpr ptrdiff_t distance(T* a, T* b) { return b - a; }
template <class I, class D> constexpr void advance(I& i, D n) { while (n > 0) { ++i; --n; } }
template <class T, class D> constexpr void advance(T*& i, D n) { i += n; }
template <class I> constexpr I next(I i, typename iterator_traits<I>::difference_type n = 1) {
  advance(i, n); return i;
}
template <class I> constexpr I prev(I i, typename iterator_traits<I>::difference_type n = 1) {
  advance(i, -n); return i;
}
template <class I, class O> constexpr O copy(I f, I l, O d) {
  for (; f != l; ++f, ++d) *d = *f;
  return d;
}
template <class I, class N, class O> constexpr O copy_n(I f, N n, O d) {
  for (; n > 0; --n, ++f, ++d) *d = *f;
  return d;
}
template <class I, class O> constexpr O move(I f, I l, O d) {
  for (; f != l; ++f, ++d) *d = static_cast<typename iterator_traits<I>::value_type&&>(*f);
  return d;
}
template <class I, class T> constexpr void fill(I f, I l, const T& v) { for (; f != l; ++f) *f = v; }
template <class O, class N, class T> constexpr O fill_n(O f, N n, const T& v) {
  for (; n > 0; --n, ++f) *f = v;
  return f;
}
template <class I1, class I2> constexpr bool equal(I1 f1, I1 l1, I2 f2) {
  for (; f1 != l1; ++f1, ++f2) if (!(*f1 == *f2)) return false;
  return true;
}
template <class I1, class I2, class P,
          class = decltype(declval<P&>()(*declval<I1&>(), *declval<I2&>()))>
constexpr bool equal(I1 f1, I1 l1, I2 f2, P p) {
  for (; f1 != l1; ++f1, ++f2) if (!p(*f1, *f2)) return false;
  return true;
}
template <class I1, class I2> constexpr bool equal(I1 f1, I1 l1, I2 f2, I2 l2) {  // C++14
  for (; f1 != l1 && f2 != l2; ++f1, ++f2) if (!(*f1 == *f2)) return false;
  return f1 == l1 && f2 == l2;
}
template <class I1, class I2, class P>
constexpr bool equal(I1 f1, I1 l1, I2 f2, I2 l2, P p) {
  for (; f1 != l1 && f2 != l2; ++f1, ++f2) if (!p(*f1, *f2)) return false;
  return f1 == l1 && f2 == l2;
}
template <class I1, class I2>
constexpr bool lexicographical_compare(I1 f1, I1 l1, I2 f2, I2 l2) {
  for (; f1 != l1 && f2 != l2; ++f1, ++f2) {
    if (*f1 < *f2) return true;
    if (*f2 < *f1) return false;
  }
  return f1 == l1 && f2 != l2;
}
template <class I1, class I2> constexpr void iter_swap(I1 a, I2 b) { swap(*a, *b); }
}  // namespace std
