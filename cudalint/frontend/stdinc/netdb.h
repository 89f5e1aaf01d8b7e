#pragma once
#pragma clang system_header
#include <netinet/in.h>
#define AI_PASSIVE 1
#define AI_CANONNAME 2
#define AI_NUMERICHOST 4
#define NI_MAXHOST 1025
#define NI_MAXSERV 32
_CL_BEGIN_C
struct addrinfo {
  int ai_flags; int ai_family; int ai_socktype; int ai_protocol; socklen_t ai_addrlen;
  struct sockaddr* ai_addr; char* ai_canonname; struct addrinfo* ai_next;
};
struct hostent { char* h_name; char** h_aliases; int h_addrtype; int h_length; char** h_addr_list; };
int getaddrinfo(const char*, const char*, const struct addrinfo*, struct addrinfo**);
void freeaddrinfo(struct addrinfo*);
const char* gai_strerror(int);
struct hostent* gethostbyname(const char*);
_CL_END_C
