// The iostreams, light: every name and operator host code uses, no behaviour.
#pragma once
#pragma clang system_header
#include <iosfwd>
#include <exception>
// libstdc++ and libc++ bring <system_error> (so <stdexcept>) with every stream header
#include <system_error>
namespace std {
typedef long streampos;
class ios_base {
 public:
  typedef unsigned int fmtflags;
  typedef unsigned int iostate;
  typedef unsigned int openmode;
  typedef int seekdir;
  static constexpr fmtflags dec = 2, fixed = 4, hex = 8, internal = 16, left = 32, oct = 64,
      right = 128, scientific = 256, showbase = 512, showpoint = 1024, showpos = 2048,
      skipws = 4096, unitbuf = 8192, uppercase = 16384, boolalpha = 1,
      adjustfield = 176, basefield = 74, floatfield = 260;
  static constexpr iostate goodbit = 0, badbit = 1, eofbit = 2, failbit = 4;
  static constexpr openmode app = 1, ate = 2, binary = 4, in = 8, out = 16, trunc = 32;
  static constexpr seekdir beg = 0, cur = 1, end = 2;
  class failure : public exception {};
  fmtflags flags() const;
  fmtflags flags(fmtflags);
  fmtflags setf(fmtflags);
  fmtflags setf(fmtflags, fmtflags);
  void unsetf(fmtflags);
  streamsize precision() const;
  streamsize precision(streamsize);
  streamsize width() const;
  streamsize width(streamsize);
  static bool sync_with_stdio(bool = true);
 protected:
  ios_base();
 public:
  virtual ~ios_base();
};
template <class C, class T> class basic_streambuf {
 public:
  typedef C char_type;
  virtual ~basic_streambuf();
};
template <class C, class T> class basic_ios : public ios_base {
 public:
  typedef C char_type;
  typedef T traits_type;
  explicit operator bool() const;
  bool operator!() const;
  bool good() const;
  bool eof() const;
  bool fail() const;
  bool bad() const;
  iostate rdstate() const;
  void clear(iostate = goodbit);
  void setstate(iostate);
  void exceptions(iostate);
  C fill() const;
  C fill(C);
  basic_streambuf<C, T>* rdbuf() const;
  basic_streambuf<C, T>* rdbuf(basic_streambuf<C, T>*);
  basic_ostream<C, T>* tie() const;
  basic_ostream<C, T>* tie(basic_ostream<C, T>*);
  void imbue(...);
};
template <class C, class T> class basic_ostream : virtual public basic_ios<C, T> {
 public:
  explicit basic_ostream(basic_streambuf<C, T>*);
  virtual ~basic_ostream();
  basic_ostream& operator<<(bool);
  basic_ostream& operator<<(short);
  basic_ostream& operator<<(unsigned short);
  basic_ostream& operator<<(int);
  basic_ostream& operator<<(unsigned int);
  basic_ostream& operator<<(long);
  basic_ostream& operator<<(unsigned long);
  basic_ostream& operator<<(long long);
  basic_ostream& operator<<(unsigned long long);
  basic_ostream& operator<<(float);
  basic_ostream& operator<<(double);
  basic_ostream& operator<<(long double);
  basic_ostream& operator<<(const void*);
  basic_ostream& operator<<(decltype(nullptr));
  basic_ostream& operator<<(basic_streambuf<C, T>*);
  basic_ostream& operator<<(basic_ostream& (*)(basic_ostream&));
  basic_ostream& operator<<(basic_ios<C, T>& (*)(basic_ios<C, T>&));
  basic_ostream& operator<<(ios_base& (*)(ios_base&));
  basic_ostream& put(C);
  basic_ostream& write(const C*, streamsize);
  basic_ostream& flush();
  streampos tellp();
  basic_ostream& seekp(streampos);
  basic_ostream& seekp(streamoff, ios_base::seekdir);
 protected:
  basic_ostream();
};
template <class C, class T> basic_ostream<C, T>& operator<<(basic_ostream<C, T>&, C);
template <class C, class T> basic_ostream<C, T>& operator<<(basic_ostream<C, T>&, const C*);
template <class T> basic_ostream<char, T>& operator<<(basic_ostream<char, T>&, char);
template <class T> basic_ostream<char, T>& operator<<(basic_ostream<char, T>&, const char*);
template <class T> basic_ostream<char, T>& operator<<(basic_ostream<char, T>&, signed char);
template <class T> basic_ostream<char, T>& operator<<(basic_ostream<char, T>&, unsigned char);
template <class T> basic_ostream<char, T>& operator<<(basic_ostream<char, T>&, const signed char*);
template <class T> basic_ostream<char, T>& operator<<(basic_ostream<char, T>&, const unsigned char*);
template <class C, class T, class A>
basic_ostream<C, T>& operator<<(basic_ostream<C, T>&, const basic_string<C, T, A>&);
template <class C, class T> basic_ostream<C, T>& endl(basic_ostream<C, T>&);
template <class C, class T> basic_ostream<C, T>& ends(basic_ostream<C, T>&);
template <class C, class T> basic_ostream<C, T>& flush(basic_ostream<C, T>&);

template <class C, class T> class basic_istream : virtual public basic_ios<C, T> {
 public:
  explicit basic_istream(basic_streambuf<C, T>*);
  virtual ~basic_istream();
  basic_istream& operator>>(bool&);
  basic_istream& operator>>(short&);
  basic_istream& operator>>(unsigned short&);
  basic_istream& operator>>(int&);
  basic_istream& operator>>(unsigned int&);
  basic_istream& operator>>(long&);
  basic_istream& operator>>(unsigned long&);
  basic_istream& operator>>(long long&);
  basic_istream& operator>>(unsigned long long&);
  basic_istream& operator>>(float&);
  basic_istream& operator>>(double&);
  basic_istream& operator>>(long double&);
  basic_istream& operator>>(void*&);
  basic_istream& operator>>(basic_istream& (*)(basic_istream&));
  basic_istream& operator>>(ios_base& (*)(ios_base&));
  typename T::int_type get();
  basic_istream& get(C&);
  basic_istream& getline(C*, streamsize);
  basic_istream& getline(C*, streamsize, C);
  basic_istream& ignore(streamsize = 1, typename T::int_type = T::eof());
  typename T::int_type peek();
  basic_istream& read(C*, streamsize);
  streamsize gcount() const;
  streampos tellg();
  basic_istream& seekg(streampos);
  basic_istream& seekg(streamoff, ios_base::seekdir);
  basic_istream& unget();
  basic_istream& putback(C);
 protected:
  basic_istream();
};
template <class C, class T> basic_istream<C, T>& operator>>(basic_istream<C, T>&, C&);
template <class C, class T> basic_istream<C, T>& operator>>(basic_istream<C, T>&, C*);
template <class C, class T, class A>
basic_istream<C, T>& operator>>(basic_istream<C, T>&, basic_string<C, T, A>&);
template <class C, class T, class A>
basic_istream<C, T>& getline(basic_istream<C, T>&, basic_string<C, T, A>&);
template <class C, class T, class A>
basic_istream<C, T>& getline(basic_istream<C, T>&, basic_string<C, T, A>&, C);
template <class C, class T> basic_istream<C, T>& ws(basic_istream<C, T>&);

template <class C, class T> class basic_iostream
    : public basic_istream<C, T>, public basic_ostream<C, T> {
 public:
  explicit basic_iostream(basic_streambuf<C, T>*);
  virtual ~basic_iostream();
 protected:
  basic_iostream();
};
template <class C, class T, class A> class basic_stringstream : public basic_iostream<C, T> {
 public:
  basic_stringstream();
  explicit basic_stringstream(ios_base::openmode);
  explicit basic_stringstream(const basic_string<C, T, A>&,
                              ios_base::openmode = ios_base::in | ios_base::out);
  basic_string<C, T, A> str() const;
  void str(const basic_string<C, T, A>&);
};
template <class C, class T, class A> class basic_ostringstream : public basic_ostream<C, T> {
 public:
  basic_ostringstream();
  explicit basic_ostringstream(ios_base::openmode);
  explicit basic_ostringstream(const basic_string<C, T, A>&, ios_base::openmode = ios_base::out);
  basic_string<C, T, A> str() const;
  void str(const basic_string<C, T, A>&);
};
template <class C, class T, class A> class basic_istringstream : public basic_istream<C, T> {
 public:
  basic_istringstream();
  explicit basic_istringstream(const basic_string<C, T, A>&, ios_base::openmode = ios_base::in);
  basic_string<C, T, A> str() const;
  void str(const basic_string<C, T, A>&);
};
#define _CL_FSTREAM(name, base, mode)                                                    \
  template <class C, class T> class name : public base<C, T> {                           \
   public:                                                                                \
    name();                                                                               \
    explicit name(const char*, ios_base::openmode = mode);                                \
    explicit name(const basic_string<C, T, allocator<C>>&, ios_base::openmode = mode);    \
    void open(const char*, ios_base::openmode = mode);                                    \
    void open(const basic_string<C, T, allocator<C>>&, ios_base::openmode = mode);        \
    bool is_open() const;                                                                 \
    void close();                                                                         \
  };
_CL_FSTREAM(basic_ifstream, basic_istream, ios_base::in)
_CL_FSTREAM(basic_ofstream, basic_ostream, ios_base::out)
_CL_FSTREAM(basic_fstream, basic_iostream, ios_base::in | ios_base::out)
#undef _CL_FSTREAM
extern istream cin;
extern ostream cout;
extern ostream cerr;
extern ostream clog;
extern wostream wcout;
extern wostream wcerr;
ios_base& boolalpha(ios_base&);
ios_base& noboolalpha(ios_base&);
ios_base& showpoint(ios_base&);
ios_base& noshowpoint(ios_base&);
ios_base& showpos(ios_base&);
ios_base& noshowpos(ios_base&);
ios_base& showbase(ios_base&);
ios_base& noshowbase(ios_base&);
ios_base& uppercase(ios_base&);
ios_base& nouppercase(ios_base&);
ios_base& skipws(ios_base&);
ios_base& noskipws(ios_base&);
ios_base& left(ios_base&);
ios_base& right(ios_base&);
ios_base& internal(ios_base&);
ios_base& dec(ios_base&);
ios_base& hex(ios_base&);
ios_base& oct(ios_base&);
ios_base& fixed(ios_base&);
ios_base& scientific(ios_base&);
ios_base& hexfloat(ios_base&);
ios_base& defaultfloat(ios_base&);
struct __cl_manip { int __v; };
__cl_manip setw(int);
__cl_manip setprecision(int);
__cl_manip setbase(int);
__cl_manip setiosflags(ios_base::fmtflags);
__cl_manip resetiosflags(ios_base::fmtflags);
template <class C> struct __cl_fill { C __c; };
template <class C> __cl_fill<C> setfill(C);
template <class C, class T> basic_ostream<C, T>& operator<<(basic_ostream<C, T>&, __cl_manip);
template <class C, class T> basic_istream<C, T>& operator>>(basic_istream<C, T>&, __cl_manip);
template <class C, class T> basic_ostream<C, T>& operator<<(basic_ostream<C, T>&, __cl_fill<C>);
template <class S> struct __cl_quoted { const S* __s; };
template <class C> __cl_quoted<C> quoted(const C*);
template <class C, class T, class A> __cl_quoted<basic_string<C, T, A>> quoted(const basic_string<C, T, A>&);
template <class C, class T, class S> basic_ostream<C, T>& operator<<(basic_ostream<C, T>&, __cl_quoted<S>);
template <class M> struct __cl_put_time { const M* __t; const char* __f; };
template <class M> __cl_put_time<M> put_time(const M*, const char*);
template <class C, class T, class M> basic_ostream<C, T>& operator<<(basic_ostream<C, T>&, __cl_put_time<M>);
}  // namespace std
