// std::char_traits, std::allocator and std::basic_string (light: the members host code uses).
#pragma once
#pragma clang system_header
#include <cstddef>
#include <cstring>
#include <cwchar>
#include <__cudalint/algobase.h>
#include <new>
namespace std {
template <class C> struct char_traits {
  typedef C char_type;
  typedef int int_type;
  static constexpr size_t length(const C* s) { size_t n = 0; while (s[n] != C()) ++n; return n; }
  static constexpr bool eq(C a, C b) noexcept { return a == b; }
  static constexpr bool lt(C a, C b) noexcept { return a < b; }
  static int compare(const C* a, const C* b, size_t n);
  static C* copy(C* d, const C* s, size_t n);
  static C* move(C* d, const C* s, size_t n);
  static C* assign(C* d, size_t n, C c);
  static constexpr int_type eof() noexcept { return -1; }
};
template <class T> class allocator {
 public:
  typedef T value_type;
  typedef size_t size_type;
  typedef ptrdiff_t difference_type;
  typedef T* pointer;
  typedef const T* const_pointer;
  typedef T& reference;
  typedef const T& const_reference;
  template <class U> struct rebind { typedef allocator<U> other; };
  constexpr allocator() noexcept {}
  template <class U> constexpr allocator(const allocator<U>&) noexcept {}
  T* allocate(size_t n);
  void deallocate(T* p, size_t n);
  friend bool operator==(const allocator&, const allocator&) { return true; }
  friend bool operator!=(const allocator&, const allocator&) { return false; }
};
template <class A> struct allocator_traits {
  typedef A allocator_type;
  typedef typename A::value_type value_type;
  typedef value_type* pointer;
  typedef size_t size_type;
  template <class U> using rebind_alloc = allocator<U>;
  static pointer allocate(A& a, size_type n) { return a.allocate(n); }
  static void deallocate(A& a, pointer p, size_type n) { a.deallocate(p, n); }
};

template <class C, class T = char_traits<C>, class A = allocator<C>> class basic_string {
  C* __p;
  size_t __n;
  size_t __cap;
 public:
  typedef T traits_type;
  typedef C value_type;
  typedef A allocator_type;
  typedef size_t size_type;
  typedef ptrdiff_t difference_type;
  typedef C& reference;
  typedef const C& const_reference;
  typedef C* pointer;
  typedef const C* const_pointer;
  typedef C* iterator;
  typedef const C* const_iterator;
  static constexpr size_t npos = (size_t)-1;
  basic_string();
  basic_string(const C* s);
  basic_string(const C* s, size_t n);
  basic_string(size_t n, C c);
  basic_string(const basic_string& s);
  basic_string(const basic_string& s, size_t pos, size_t n = npos);
  basic_string(basic_string&& s) noexcept;
  basic_string(initializer_list<C> l);
  template <class I, class = typename iterator_traits<I>::iterator_category>
  basic_string(I f, I l);
  ~basic_string();
  basic_string& operator=(const basic_string& s);
  basic_string& operator=(basic_string&& s) noexcept;
  basic_string& operator=(const C* s);
  basic_string& operator=(C c);
  const C* c_str() const noexcept;
  const C* data() const noexcept;
  C* data() noexcept;
  size_t size() const noexcept;
  size_t length() const noexcept;
  size_t capacity() const noexcept;
  size_t max_size() const noexcept;
  bool empty() const noexcept;
  void clear() noexcept;
  void reserve(size_t n = 0);
  void resize(size_t n);
  void resize(size_t n, C c);
  void shrink_to_fit();
  C& operator[](size_t i);
  const C& operator[](size_t i) const;
  C& at(size_t i);
  const C& at(size_t i) const;
  C& front();
  const C& front() const;
  C& back();
  const C& back() const;
  C* begin() noexcept;
  const C* begin() const noexcept;
  C* end() noexcept;
  const C* end() const noexcept;
  const C* cbegin() const noexcept;
  const C* cend() const noexcept;
  basic_string& operator+=(const basic_string& s);
  basic_string& operator+=(const C* s);
  basic_string& operator+=(C c);
  basic_string& append(const basic_string& s);
  basic_string& append(const C* s);
  basic_string& append(const C* s, size_t n);
  basic_string& append(size_t n, C c);
  template <class I> basic_string& append(I f, I l);
  basic_string& assign(const basic_string& s);
  basic_string& assign(const C* s);
  basic_string& assign(const C* s, size_t n);
  basic_string& assign(size_t n, C c);
  void push_back(C c);
  void pop_back();
  basic_string& insert(size_t pos, const basic_string& s);
  basic_string& insert(size_t pos, const C* s);
  basic_string& insert(size_t pos, size_t n, C c);
  basic_string& erase(size_t pos = 0, size_t n = npos);
  C* erase(const C* p);
  C* erase(const C* f, const C* l);
  basic_string& replace(size_t pos, size_t n, const basic_string& s);
  basic_string& replace(size_t pos, size_t n, const C* s);
  basic_string substr(size_t pos = 0, size_t n = npos) const;
  size_t copy(C* d, size_t n, size_t pos = 0) const;
  void swap(basic_string& s) noexcept;
  size_t find(const basic_string& s, size_t pos = 0) const noexcept;
  size_t find(const C* s, size_t pos = 0) const;
  size_t find(const C* s, size_t pos, size_t n) const;
  size_t find(C c, size_t pos = 0) const noexcept;
  size_t rfind(const basic_string& s, size_t pos = npos) const noexcept;
  size_t rfind(const C* s, size_t pos = npos) const;
  size_t rfind(C c, size_t pos = npos) const noexcept;
  size_t find_first_of(const basic_string& s, size_t pos = 0) const noexcept;
  size_t find_first_of(const C* s, size_t pos = 0) const;
  size_t find_first_of(C c, size_t pos = 0) const noexcept;
  size_t find_last_of(const basic_string& s, size_t pos = npos) const noexcept;
  size_t find_last_of(const C* s, size_t pos = npos) const;
  size_t find_last_of(C c, size_t pos = npos) const noexcept;
  size_t find_first_not_of(const basic_string& s, size_t pos = 0) const noexcept;
  size_t find_first_not_of(const C* s, size_t pos = 0) const;
  size_t find_first_not_of(C c, size_t pos = 0) const noexcept;
  size_t find_last_not_of(const C* s, size_t pos = npos) const;
  size_t find_last_not_of(C c, size_t pos = npos) const noexcept;
  int compare(const basic_string& s) const noexcept;
  int compare(const C* s) const;
  int compare(size_t pos, size_t n, const basic_string& s) const;
  int compare(size_t pos, size_t n, const C* s) const;
  bool starts_with(const C* s) const;
  bool starts_with(C c) const noexcept;
  bool ends_with(const C* s) const;
  bool ends_with(C c) const noexcept;
  bool contains(const C* s) const;
  bool contains(C c) const noexcept;
};
#define _CL_STR basic_string<C, T, A>
template <class C, class T, class A> _CL_STR operator+(const _CL_STR& a, const _CL_STR& b);
template <class C, class T, class A> _CL_STR operator+(const _CL_STR& a, const C* b);
template <class C, class T, class A> _CL_STR operator+(const C* a, const _CL_STR& b);
template <class C, class T, class A> _CL_STR operator+(const _CL_STR& a, C b);
template <class C, class T, class A> _CL_STR operator+(C a, const _CL_STR& b);
template <class C, class T, class A> bool operator==(const _CL_STR& a, const _CL_STR& b) noexcept;
template <class C, class T, class A> bool operator==(const _CL_STR& a, const C* b);
template <class C, class T, class A> bool operator==(const C* a, const _CL_STR& b);
template <class C, class T, class A> bool operator!=(const _CL_STR& a, const _CL_STR& b) noexcept;
template <class C, class T, class A> bool operator!=(const _CL_STR& a, const C* b);
template <class C, class T, class A> bool operator!=(const C* a, const _CL_STR& b);
template <class C, class T, class A> bool operator<(const _CL_STR& a, const _CL_STR& b) noexcept;
template <class C, class T, class A> bool operator>(const _CL_STR& a, const _CL_STR& b) noexcept;
template <class C, class T, class A> bool operator<=(const _CL_STR& a, const _CL_STR& b) noexcept;
template <class C, class T, class A> bool operator>=(const _CL_STR& a, const _CL_STR& b) noexcept;
#undef _CL_STR
typedef basic_string<char> string;
typedef basic_string<wchar_t> wstring;
typedef basic_string<char16_t> u16string;
typedef basic_string<char32_t> u32string;
string to_string(int);
string to_string(unsigned);
string to_string(long);
string to_string(unsigned long);
string to_string(long long);
string to_string(unsigned long long);
string to_string(float);
string to_string(double);
string to_string(long double);
wstring to_wstring(int);
wstring to_wstring(double);
int stoi(const string&, size_t* = nullptr, int = 10);
long stol(const string&, size_t* = nullptr, int = 10);
unsigned long stoul(const string&, size_t* = nullptr, int = 10);
long long stoll(const string&, size_t* = nullptr, int = 10);
unsigned long long stoull(const string&, size_t* = nullptr, int = 10);
float stof(const string&, size_t* = nullptr);
double stod(const string&, size_t* = nullptr);
long double stold(const string&, size_t* = nullptr);
template <class T> struct hash;
template <> struct hash<string> { size_t operator()(const string&) const noexcept; };
inline namespace literals { inline namespace string_literals {
string operator""s(const char*, size_t);
} }
}  // namespace std
